"""RQ jobs of the data interface: the tick puts finished intervals in the log and enqueues the due
ones; each send is one attempt at one interval (api/datainterface/delivery.py holds the rules)."""

from __future__ import annotations

from rq import Retry

from api.datainterface import delivery
from api.jobs import DEFAULT, job


@job(DEFAULT, timeout=120)
def tick_connectors() -> int:
    due = delivery.schedule()
    for delivery_id in due:
        send_interval.enqueue(delivery_id)
    return len(due)


# Retries of the transport are the delivery row's own (backoff in the log); RQ retries only a job
# that died before it could record anything.
@job(DEFAULT, timeout=delivery.HTTP_TIMEOUT_S * 2, retry=Retry(max=2, interval=[30, 120]))
def send_interval(delivery_id: int) -> str | None:
    status = delivery.send(delivery_id)
    return status.value if status else None
