"""What the device area brings (api/hooks.py)."""

from api.device import access_rules, history, models, totals
from api.device.routes import blp
from api.hooks import Manifest, PeriodicJob, Placed, SessionEvent

MANIFEST = Manifest(
    area="device",
    blueprints=(Placed(210, blp),),
    models=(models,),
    access_rules=(access_rules.register,),
    session_events=(
        # Every rename or change of zone opens a period of the device's history.
        SessionEvent("before_flush", history.record_history),
        # Every committed write to a device row moves the registry generation on.
        SessionEvent("after_flush", totals.note_device_rows),
        SessionEvent("do_orm_execute", totals.note_device_statements),
        SessionEvent("after_commit", totals.next_registry_generation),
    ),
    periodic_jobs=(
        # Service-expiry reminders 30, 7 and 1 days ahead (each sent once: dedupe keys).
        PeriodicJob("api.device.jobs.send_expiry_notices", cron="*/30 * * * *", timeout=300),
    ),
)
