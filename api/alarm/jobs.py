"""Periodic alarm jobs (declared in api/jobs/schedule.py): offline / battery sweep and escalation."""

from __future__ import annotations

from api.alarm.escalation import escalate
from api.alarm.evaluation import sweep
from api.extensions.db import utcnow
from api.jobs import DEFAULT, job


@job(DEFAULT, timeout=120)
def sweep_devices() -> int:
    """Offline and low-battery alarms; runs every 30 s so an offline alarm is raised within 60 s of
    the device's deadline."""

    return sweep(utcnow())


@job(DEFAULT, timeout=120)
def escalate_alarms() -> int:
    """Level 2 / 3 sends at their minute marks, repeats, and sends held back by scheduled hours."""

    return escalate(utcnow())
