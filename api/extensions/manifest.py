"""What the extensions floor brings (api/hooks.py): the per-process snapshots' session listeners."""

from api.extensions import snapshots
from api.hooks import Manifest, SessionEvent

MANIFEST = Manifest(
    area="extensions",
    # A write to a watched table clears this process's copies at the flush and tells the other
    # processes once it commits (api/extensions/snapshots.py).
    session_events=(
        SessionEvent("after_flush", snapshots.forget_flushed),
        SessionEvent("do_orm_execute", snapshots.forget_bulk_written),
        SessionEvent("after_commit", snapshots.move_generation_on),
        SessionEvent("after_rollback", snapshots.forget_rolled_back),
    ),
)
