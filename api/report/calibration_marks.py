"""Calibration in the files (issue 48): the mark of readings taken while their probe's calibration was
overdue, and the per-probe calibration lines of CSV and XLSX (the PDF has its section,
pdf_evidence.calibration_section). Overdue spans come from the calibration area through
api/telemetry/calibration (this area never imports it); marks are walked alongside the readings.
"""

from __future__ import annotations

from datetime import datetime

from flask_babel import gettext

from api.extensions.i18n import N_
from api.report.evidence import CalibrationStatus, calibrations
from api.report.kinds import Subject
from api.report.present import neutralise
from api.telemetry.calibration import OverdueMarks, overdue_marks

OVERDUE = N_("calibration overdue")
OVERDUE_HEADER = N_("Calibration overdue")
LEGEND = N_(
    "Calibration overdue: the reading was taken after the due date of its probe's latest certificate and "
    "before its next calibration. A probe without any certificate is listed as 'no certificate', never overdue."
)
STATUS_TEXT = {
    CalibrationStatus.VALID: N_("Valid"),
    CalibrationStatus.DUE_SOON: N_("Due soon"),
    CalibrationStatus.OVERDUE: N_("Overdue"),
    CalibrationStatus.FAILED: N_("Failed"),
    CalibrationStatus.SUPERSEDED: N_("Superseded"),
    CalibrationStatus.NONE: N_("No certificate"),
}


def marks_of(subject: Subject, probes: list[int] | None = None) -> OverdueMarks:
    """One walker over the overdue spans of the subject's probes (or of `probes`) inside its range."""
    wanted = probes if probes is not None else [s.probe for s in subject.sensors]
    return overdue_marks(subject.device.id, wanted, subject.start, subject.end)


def status_text(status: str, since: datetime | None, fmt) -> str:
    if status == CalibrationStatus.OVERDUE and since is not None:
        return gettext("Overdue since %(date)s", date=fmt(since))
    return gettext(STATUS_TEXT[status])


def calibration_rows(subjects: list[Subject], fmt, at: datetime) -> list[list[str]]:
    """A header and one row per probe certificate in force over each subject's period (or "No
    certificate"): device, GUID, sensor, certificate, issuer, calibrated on, due date, status."""
    rows = [
        [
            gettext("Device name"),
            "GUID",
            gettext("Sensor"),
            gettext("Certificate"),
            gettext("Issued by"),
            gettext("Calibrated on"),
            gettext("Due date"),
            gettext("Status"),
        ]
    ]
    for subject in subjects:
        for row in calibrations(subject, at):
            rows.append(
                [
                    neutralise(subject.device.name or ""),
                    subject.device.guid,
                    neutralise(row.sensor.name),
                    neutralise(row.number) if row.number else gettext("No certificate"),
                    neutralise(row.issuer) if row.number else "",
                    fmt(row.calibrated_at) if row.calibrated_at else "",
                    fmt(row.due_at) if row.due_at else "",
                    status_text(row.status, row.overdue_since, fmt),
                ]
            )
    return rows
