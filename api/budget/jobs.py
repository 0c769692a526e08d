"""Periodic budget job (declared in the area's manifest)."""

from __future__ import annotations

from api.budget import services
from api.extensions.db import utcnow
from api.jobs import DEFAULT, job


@job(DEFAULT, timeout=300)
def check_budgets() -> int:
    """Raise the threshold alarm of each waybill's goods and lot that reached it (once each)."""
    return services.check_budgets(utcnow())


@job(DEFAULT, timeout=120)
def check_waybill_budget(assignment_id: int) -> int:
    """Raise one waybill's threshold alarm if its budget reached it (queued by an upload; once only)."""
    return services.check_waybill(assignment_id, utcnow())
