"""What the waybill area brings (api/hooks.py)."""

from api.hooks import IngestStep, Manifest, PeriodicJob, Placed
from api.waybill import access_rules, closing, contacts, models, report
from api.waybill.routes import blp
from api.waybill.services import OPEN_WAYBILL_DEVICES, on_readings

MANIFEST = Manifest(
    area="waybill",
    blueprints=(Placed(300, blp),),
    models=(models,),
    access_rules=(access_rules.register,),
    # First: fence crossings, first uploads and arming run before the alarm evaluation of the batch.
    ingest_steps=(IngestStep(10, on_readings, OPEN_WAYBILL_DEVICES),),
    report_kinds=(report.WAYBILL_KIND,),
    # The alarm contact is told of the trip's alarms while the trip runs.
    alarm_guests=(contacts.TRIP_CONTACTS,),
    # Completing a waybill closes its trip's fence alarms (before the trip report is queued).
    installers=(report.mail_trip_reports, closing.install),
    periodic_jobs=(
        # Waybills (issue 21): starts and stops at set times, arming after the ignore period.
        PeriodicJob("api.waybill.jobs.tick_waybills", interval=60, timeout=120),
    ),
)
