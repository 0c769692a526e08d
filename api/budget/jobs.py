"""Periodic budget job (declared in the area's manifest)."""

from __future__ import annotations

from api.budget import services
from api.extensions.db import utcnow
from api.jobs import DEFAULT, job


@job(DEFAULT, timeout=300)
def check_budgets() -> int:
    """Raise the threshold alarm of each waybill's goods and lot that reached it (once each)."""
    return services.check_budgets(utcnow())
