"""What the storage area brings (api/hooks.py)."""

from api.hooks import IngestStep, Manifest, PeriodicJob, Placed
from api.storage import access_rules, holds, models, places, report
from api.storage.routes import blp

MANIFEST = Manifest(
    area="storage",
    blueprints=(Placed(230, blp),),
    models=(models,),
    access_rules=(access_rules.register,),
    # First of all: a defrost or an open door reported with the warm reading holds its limit alarm.
    ingest_steps=(IngestStep(5, holds.on_controller_readings),),
    report_kinds=(report.STORAGE_KIND,),
    # Alarm texts name the room, zone and probe; defrost and door-open windows hold limit alarms.
    alarm_places=(places.find_places,),
    alarm_holds=(holds.held_until,),
    periodic_jobs=(
        # Storages (issue 20): the rolling-MKT alarm.
        PeriodicJob("api.storage.jobs.check_mkt", interval=300, timeout=240),
    ),
)
