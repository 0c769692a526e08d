"""What the calibration area brings (api/hooks.py)."""

from api.calibration import (
    access_rules,
    models,
    payment,
    probe_routes,  # noqa: F401 - its calls join the blueprint below
    probes,
)
from api.calibration.routes import blp
from api.hooks import Manifest, PeriodicJob, Placed

MANIFEST = Manifest(
    area="calibration",
    blueprints=(Placed(360, blp),),
    models=(models,),
    access_rules=(access_rules.register,),
    settlements=(payment.register,),  # billing's orders may pay for applications
    # Each probe's certificates for the overdue marks of charts, exports and reports (issue 48).
    probe_calibrations=(probes.find,),
    # Probe certificates due in 30, 7 and 1 days: the owner is told once per certificate and threshold.
    periodic_jobs=(PeriodicJob("api.calibration.jobs.send_calibration_reminders", cron="17 * * * *", timeout=300),),
)
