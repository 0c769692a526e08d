"""Periodic waybill job (declared in api/jobs/schedule.py)."""

from __future__ import annotations

from api.extensions.db import utcnow
from api.jobs import DEFAULT, job
from api.waybill import services


@job(DEFAULT, timeout=120)
def tick_waybills() -> int:
    """Start and stop waybills at their set times and arm those past their ignore period."""
    return services.tick(utcnow())
