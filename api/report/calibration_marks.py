"""Calibration in the files (issue 48): the mark of readings taken while their probe's calibration was
overdue, and the per-probe calibration lines of CSV and XLSX (the PDF has its section,
pdf_evidence.calibration_section). Overdue spans come from the calibration area through
api/telemetry/calibration (this area never imports it); marks are walked alongside the readings.

The optional correction (a device's `calibration_correction`): CSV and XLSX carry a corrected column
beside each raw one (empty where no valid certificate covered the reading), the PDF prints corrected
values and says so with the certificates used. Statistics and alarms stay those of the raw readings.
"""

from __future__ import annotations

from datetime import datetime

from flask_babel import gettext

from api.extensions.i18n import N_
from api.report.evidence import CalibrationStatus, calibrations
from api.report.kinds import Subject
from api.report.present import neutralise
from api.telemetry.calibration import Corrections, OverdueMarks, corrections, overdue_marks

OVERDUE = N_("calibration overdue")
OVERDUE_HEADER = N_("Calibration overdue")
LEGEND = N_(
    "Calibration overdue: the reading was taken after the due date of its probe's latest certificate and "
    "before its next calibration. A probe without any certificate is listed as 'no certificate', never overdue."
)
CORRECTED_HEADER = N_("%(sensor)s corrected")
CORRECTION_LEGEND = N_(
    "Corrected: the reading minus its probe's deviation on the certificate valid at the reading's time "
    "(interpolated linearly between the certificate's points by measured value, held at the first or last "
    "point's deviation beyond them); empty where no valid certificate covered the reading. Raw values are "
    "stored and listed beside; statistics and alarms use the raw readings."
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


def corrects(subject: Subject) -> bool:
    """Does the subject's device apply its probes' calibration correction?"""
    return bool(getattr(subject.device, "calibration_correction", False))


def corrections_of(subject: Subject, probes: list[int] | None = None) -> dict[int, Corrections]:
    """Per probe, the walker over the correction spans inside the subject's range (none when the
    device does not apply the correction)."""
    if not corrects(subject):
        return {}
    wanted = probes if probes is not None else [s.probe for s in subject.sensors]
    return corrections(subject.device.id, wanted, subject.start, subject.end)


def correction_note(subject: Subject, fixes: dict[int, Corrections]) -> str:
    """The PDF's line: values are corrected, by which certificates (per sensor)."""
    names = {s.probe: s.name for s in subject.sensors}
    used = [
        f"{names.get(probe, probe)}: {', '.join(dict.fromkeys(cert.number for _lo, _hi, cert in walker.spans))}"
        for probe, walker in sorted(fixes.items())
    ]
    return gettext(
        "Values are corrected by the probe's calibration certificate valid at each reading's time (certificates "
        "used: %(certificates)s); statistics and alarms use the raw readings, which the CSV and XLSX exports "
        "list beside the corrected values.",
        certificates="; ".join(used) or gettext("none in this period"),
    )


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
