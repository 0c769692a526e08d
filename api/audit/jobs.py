"""Periodic check of the audit trail: a broken chain alarms the platform's staff by email (outbox)."""

from __future__ import annotations

import logging

from api.audit import services
from api.jobs import DEFAULT, job

log = logging.getLogger(__name__)


@job(DEFAULT, timeout=600)
def verify_audit_chain() -> list[str]:
    """Verify every platform's chain; each break is logged and mailed to staff once."""
    return services.verify_and_alarm()
