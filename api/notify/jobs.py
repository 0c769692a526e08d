"""Jobs of the outbox: they wrap api.notify.delivery and enqueue."""

from __future__ import annotations

from datetime import timedelta

from rq import Retry

from api.extensions.db import utcnow
from api.jobs import NOTIFICATIONS, job
from api.notify import delivery

# Re-exported for callers and tests that name them here.
MAX_ATTEMPTS, WIPED = delivery.MAX_ATTEMPTS, delivery.WIPED
# A pending row older than this was never delivered (enqueue lost, worker killed): send it again.
STALE_AFTER = timedelta(minutes=10)


@job(NOTIFICATIONS, retry=Retry(max=MAX_ATTEMPTS - 1, interval=[10, 60, 300]), timeout=60)
def deliver_message(message_id: int) -> str:
    """Send one outbox row (see api.notify.delivery.deliver)."""
    return delivery.deliver(message_id)


def enqueue_delivery(message_id: int) -> None:
    deliver_message.enqueue(message_id, job_id=f"outbound-{message_id}")


@job(NOTIFICATIONS, timeout=120)
def redeliver_stale(older_than_s: float | None = None) -> int:
    """Periodic: pending rows nobody is working on any more go back on the queue (a re-run of a
    row already being sent or already sent is a no-op)."""
    cutoff = utcnow() - (STALE_AFTER if older_than_s is None else timedelta(seconds=older_than_s))
    ids = delivery.stale_ids(cutoff)
    for message_id in ids:
        enqueue_delivery(message_id)
    return len(ids)
