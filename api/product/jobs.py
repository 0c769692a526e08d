from __future__ import annotations

from api.extensions.db import utcnow
from api.jobs import DEFAULT, job
from api.product import rollouts


@job(DEFAULT, timeout=120)
def advance_rollouts() -> int:
    """Periodic: every running upgrade rollout one step (api.product.rollouts.advance)."""
    return rollouts.advance(utcnow())
