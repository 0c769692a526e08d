"""What a report prints beside the readings so an inspector can trust them: the probes' calibration
(certificate, calibrated on, due date, status; every certificate in force over the period), the
device's name and time zone as they were (api/device/history) and the conflicting values received
(api/telemetry/conflicts). Computed here, drawn by pdf_evidence.py."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import pairwise

from api.device.history import IdentityPeriod, identity_periods
from api.report.kinds import Sensor, Subject
from api.telemetry.calibration import overdue_since, probe_certificates

# A certificate falling due within this many days of the report is "due soon".
DUE_SOON = timedelta(days=30)


class CalibrationStatus:
    VALID = "valid"
    DUE_SOON = "due soon"
    OVERDUE = "overdue"
    FAILED = "failed"
    SUPERSEDED = "superseded"
    NONE = "none"


@dataclass(frozen=True)
class Calibration:
    """One certificate of a probe (or none: `number` None) and its status at the report's time."""

    sensor: Sensor
    number: str | None
    calibrated_at: datetime | None
    due_at: datetime | None
    status: str
    issuer: str = ""
    overdue_since: datetime | None = None


def calibration_status(due_at: datetime, passed: bool, at: datetime) -> str:
    if not passed:
        return CalibrationStatus.FAILED
    if due_at <= at:
        return CalibrationStatus.OVERDUE
    if due_at - at <= DUE_SOON:
        return CalibrationStatus.DUE_SOON
    return CalibrationStatus.VALID


def calibrations(subject: Subject, at: datetime) -> list[Calibration]:
    """Per sensor, every certificate of the probe (the calibration area answers, api/telemetry/calibration)
    calibrated before the period's end that was in force during it (due after the period's start), and
    the newest one whatever its age, oldest first; a sensor without any certificate gets one row with
    status "none". `overdue_since`: when the newest became overdue, if it is at `at`."""
    certificates = probe_certificates(subject.device.id, [s.probe for s in subject.sensors])
    found: list[Calibration] = []
    for sensor in subject.sensors:
        mine = [c for c in certificates.get(sensor.probe, []) if c.calibrated_at < subject.end]
        if not mine:
            found.append(Calibration(sensor, None, None, None, CalibrationStatus.NONE))
            continue
        newest = mine[-1]
        for cert in mine:
            if cert is not newest and cert.due_at <= subject.start:
                continue  # lapsed before the period: not in force in it
            status = CalibrationStatus.SUPERSEDED
            if cert is newest:
                status = calibration_status(cert.due_at, cert.passed, at)
            since = overdue_since(mine, at) if cert is newest else None
            found.append(Calibration(sensor, cert.number, cert.calibrated_at, cert.due_at, status, cert.issuer, since))
    return found


@dataclass(frozen=True)
class Identity:
    """The device's names and zones in force over the period, and every change from its start on
    (inside the period, and since: the name printed today may be newer)."""

    names: list[str]
    zones: list[str]
    changes: list[tuple[IdentityPeriod, IdentityPeriod]]  # (before, after)
    end: datetime


def identity(subject: Subject) -> Identity:
    start, end = subject.start, subject.end
    periods = identity_periods(subject.device, start, datetime.max.replace(tzinfo=start.tzinfo))
    during = [p for p in periods if p.start < end] or periods[:1]
    names: list[str] = []
    zones: list[str] = []
    for period in during:
        if not names or names[-1] != (period.name or ""):
            names.append(period.name or "")
        if not zones or zones[-1] != period.time_zone:
            zones.append(period.time_zone)
    changes = [(before, after) for before, after in pairwise(periods) if after.start >= start]
    return Identity(names, zones, changes, end)
