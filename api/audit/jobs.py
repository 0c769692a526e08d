"""Periodic check of the audit trail (a broken chain alarms the platform's staff and the affected
customers' FDA contacts by email, through the outbox) and the export of its sealed chain heads."""

from __future__ import annotations

import logging

from api.audit import alarms, heads
from api.extensions.db import db
from api.jobs import DEFAULT, job

log = logging.getLogger(__name__)


@job(DEFAULT, timeout=600)
def verify_audit_chain() -> list[str]:
    """Verify every platform's chain and exported heads; each break is logged and mailed once to staff
    and to the FDA contacts of the customers whose records lie in the broken platform."""
    return alarms.verify_and_alarm()


@job(DEFAULT, timeout=300)
def seal_audit_heads() -> list[str]:
    """Export the chain heads that moved as signed, write-once statements (api/audit/heads.py)."""
    written = heads.seal_heads()
    db.session.rollback()
    return [str(path) for path in written]
