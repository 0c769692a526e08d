"""What the audit area brings (api/hooks.py)."""

from api.audit import chain, export, models, recorder
from api.audit.routes import blp
from api.hooks import Manifest, PeriodicJob, Placed, SessionEvent

MANIFEST = Manifest(
    area="audit",
    blueprints=(Placed(290, blp),),
    models=(models,),
    # The operation log collects each flush's changes and writes them before the commit; new
    # entries are sealed into the trail's hash chain before they are flushed.
    session_events=(
        *(SessionEvent(name, listener) for name, listener in recorder.LISTENERS),
        SessionEvent("before_flush", chain.seal_new_entries),
    ),
    report_kinds=(export.AUDIT_TRAIL_KIND,),
    installers=(recorder.install_operation_recorder,),
    # Areas below the trail write their events through api/extensions/trail.py.
    trail_recorders=(recorder.record_event,),
    periodic_jobs=(
        # Audit trail (issue 23): the operation log's hash chain, checked hourly; a break alarms staff.
        PeriodicJob("api.audit.jobs.verify_audit_chain", cron="23 * * * *", timeout=600),
        # The chain heads that moved, sealed and exported off the database (write-once files).
        PeriodicJob("api.audit.jobs.seal_audit_heads", cron="*/10 * * * *", timeout=300),
    ),
)
