from __future__ import annotations

from api.jobs import DEFAULT, job
from api.storage import control


@job(DEFAULT, timeout=240)
def check_mkt() -> int:
    """Every 5 minutes: each MKT-enabled storage's rolling MKT against its limit."""
    return control.check_mkt()
