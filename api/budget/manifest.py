"""What the budget area brings (api/hooks.py)."""

from api.budget import access_rules, ingest, models, report_parts
from api.budget.routes import blp
from api.hooks import IngestStep, Manifest, PeriodicJob, Placed, SessionEvent

MANIFEST = Manifest(
    area="budget",
    blueprints=(Placed(305, blp),),
    models=(models,),
    access_rules=(access_rules.register,),
    # An upload of goods under a profile queues their threshold check (after commit). Before the
    # waybill step, which forgets what the batch's lookups found for a device with an open waybill.
    ingest_steps=(IngestStep(8, ingest.on_readings, ingest.OPEN_BUDGETS),),
    session_events=(
        SessionEvent("after_commit", ingest.queue_after_commit),
        SessionEvent("after_rollback", ingest.forget_after_rollback),
    ),
    # The budget and disposition on the trip report and the storage report.
    installers=(report_parts.install,),
    periodic_jobs=(
        # Stability budgets (issue 48): the threshold alarm of goods and lots, once each.
        PeriodicJob("api.budget.jobs.check_budgets", interval=300, timeout=300),
    ),
)
