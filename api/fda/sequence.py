"""An owner account's signing sequence as configured (api/fda/models.SigningStep), or the default one:
author, then reviewer, then approver, each open to any meaning of the account and any of its possible
checkers. A data file keeps a copy of the sequence from its creation (DataFile.workflow), so changing
the configuration never changes the steps of a file already on its way."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from api.extensions.db import db
from api.fda.models import DataFile, SigningStep, StepRole

DEFAULT_ROLES = (StepRole.AUTHOR, StepRole.REVIEWER, StepRole.APPROVER)
MAX_STEPS = 5


def step_entry(position: int, role: str, endorsement_ids=(), signer_ids=()) -> dict[str, Any]:
    return {
        "step": position,
        "role": str(role),
        "endorsementIds": list(endorsement_ids),
        "signerIds": list(signer_ids),
    }


def configured_steps(owner_account_id: int) -> list[SigningStep]:
    return list(
        db.session.scalars(
            select(SigningStep).where(SigningStep.owner_account_id == owner_account_id).order_by(SigningStep.position)
        )
    )


def sequence_of(owner_account_id: int) -> list[dict[str, Any]]:
    """The owner's steps in order ([{step, role, endorsementIds, signerIds}])."""
    configured = configured_steps(owner_account_id)
    if configured:
        return [step_entry(s.position, s.role, s.endorsement_ids, s.signer_ids) for s in configured]
    return [step_entry(position, role) for position, role in enumerate(DEFAULT_ROLES, start=1)]


def file_steps(file: DataFile) -> list[dict[str, Any]]:
    """A file's steps: the sequence fixed at its creation; a file from before sequences is one step
    (no role) signed by its checker."""
    if file.workflow:
        return file.workflow
    return [step_entry(1, "")]
