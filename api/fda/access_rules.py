"""The FDA area's object kinds for the gate: endorsements (only their owner reaches them). Data files
are reached by their creator and their checker, which the services check (api/fda/services.py)."""

from __future__ import annotations

from sqlalchemy import select

from api.access.gate import register_kind, register_record_policy
from api.audit.alarms import register_customer_contacts
from api.extensions.db import db
from api.fda import contacts
from api.fda.models import Endorsement
from api.fda.records import require_record_evidence
from api.tenancy import data_platform_id


def load_endorsement(endorsement_id: int) -> Endorsement | None:
    return db.session.scalar(
        select(Endorsement).where(Endorsement.id == endorsement_id, Endorsement.platform_id == data_platform_id())
    )


def register() -> None:
    register_kind("fda_endorsement", load_endorsement)
    register_record_policy(require_record_evidence)
    # A break in the audit trail alarms the FDA contacts of the customers whose records it holds.
    register_customer_contacts(contacts.trail_break_contacts)
