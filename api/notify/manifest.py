"""What the notification outbox brings (api/hooks.py)."""

from api.hooks import Manifest, PeriodicJob, Placed, SessionEvent
from api.notify import models, services
from api.notify.routes import blp

MANIFEST = Manifest(
    area="notify",
    blueprints=(Placed(245, blp),),
    models=(models,),
    # Rows written inside another area's transaction are sent once it commits, dropped if it rolls back.
    session_events=(
        SessionEvent("after_commit", services.dispatch_after_commit),
        SessionEvent("after_rollback", services.forget_after_rollback),
    ),
    periodic_jobs=(PeriodicJob("api.notify.jobs.redeliver_stale", interval=300, timeout=120),),
)
