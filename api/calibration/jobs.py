"""The calibration area's jobs: they only wrap its services."""

from __future__ import annotations

from api.calibration import reminders
from api.extensions.db import utcnow
from api.jobs import DEFAULT, job


@job(DEFAULT, timeout=300)
def send_calibration_reminders() -> int:
    """Periodic: probe certificates due in 30, 7 and 1 days (api.calibration.reminders; each sent once)."""
    return reminders.send_reminders(utcnow())
