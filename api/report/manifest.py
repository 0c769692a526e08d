"""What the report area brings (api/hooks.py)."""

from api.hooks import Manifest, PeriodicJob, Placed, SessionEvent
from api.report import access_rules, archive, jobs, kinds, models
from api.report.routes import blp

MANIFEST = Manifest(
    area="report",
    blueprints=(Placed(250, blp),),
    models=(models,),
    report_kinds=(kinds.DEVICE_KIND, archive.BACKUP_KIND),
    access_rules=(access_rules.register,),
    # Files written inside another area's transaction are generated once it commits.
    session_events=(
        SessionEvent("after_commit", jobs.queue_committed_files),
        SessionEvent("after_rollback", jobs.forget_rolled_back_files),
    ),
    periodic_jobs=(
        # Download centre (issue 8): scheduled reports, files whose worker died, expired files.
        PeriodicJob("api.report.jobs.run_due_reports", interval=60, timeout=300),
        PeriodicJob("api.report.jobs.sweep_stale_files", interval=60, timeout=300),
        PeriodicJob("api.report.jobs.purge_expired_files", cron="17 3 * * *", timeout=600),
        # Scheduled backups (issue 26): due runs become zip archives; each schedule keeps its newest N.
        PeriodicJob("api.report.jobs.run_due_backups", interval=60, timeout=300),
    ),
)
