"""Periodic billing jobs (declared in api/jobs/schedule.py)."""

from __future__ import annotations

from api.billing import offline, orders
from api.extensions.db import utcnow
from api.jobs import DEFAULT, job


@job(DEFAULT, timeout=120)
def close_stale_orders() -> int:
    """Close unpaid orders past their payment window (their coupons come back)."""
    return orders.close_stale(utcnow())


@job(DEFAULT, timeout=300)
def apply_offline_purchases() -> int:
    """Apply offline purchases whose devices are now claimed; mark the impossible ones failed."""
    return offline.apply_pending(utcnow())
