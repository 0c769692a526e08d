"""The PDF report's evidence sections: the probes' calibration, the device's name and time zone
changes and the conflicting values received (data from api/report/evidence.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask_babel import gettext
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph

from api.extensions.db import utcnow
from api.extensions.i18n import N_
from api.report.calibration_marks import status_text
from api.report.evidence import CalibrationStatus, calibrations
from api.report.kinds import Subject
from api.telemetry.conflicts import conflicts_in

if TYPE_CHECKING:
    from api.report.evidence import Identity
    from api.report.pdf import Report

CALIBRATION_STATUSES = {
    CalibrationStatus.VALID: N_("Valid"),
    CalibrationStatus.DUE_SOON: N_("Due soon"),
    CalibrationStatus.OVERDUE: N_("Overdue"),
    CalibrationStatus.FAILED: N_("Failed"),
    CalibrationStatus.SUPERSEDED: N_("Superseded"),
    CalibrationStatus.NONE: N_("No certificate"),
}
MAX_CONFLICT_ROWS = 200


def exact(value: float) -> str:
    """A received value as it came (4.85, 30.0), not rounded to the sensor's display precision:
    two conflicting values must never print alike."""
    return repr(round(value, 6))


def calibration_section(report: Report, subject: Subject) -> list:
    at = report.p.generated_at or utcnow()
    header = [
        gettext("Sensor"),
        gettext("Certificate"),
        gettext("Calibrated on"),
        gettext("Due date"),
        gettext("Status"),
    ]
    rows = [[report.cell(h, "head") for h in header]]
    for row in calibrations(subject, at):
        cells = [
            row.sensor.name,
            row.number or "-",
            report.local(row.calibrated_at) if row.calibrated_at else "-",
            report.local(row.due_at) if row.due_at else "-",
            status_text(row.status, row.overdue_since, report.local),
        ]
        rows.append([report.cell(text) for text in cells])
    note = gettext("Status on %(date)s; due soon: within 30 days.", date=report.local(at))
    return [
        Paragraph(gettext("Calibration"), report.styles["h2"]),
        report.table(rows, [36 * mm, 44 * mm, 36 * mm, 36 * mm, 28 * mm]),
        Paragraph(note, report.styles["small"]),
    ]


def identity_section(report: Report, found: Identity) -> list:
    """Each rename or change of zone from the period's start on, who made it and why."""
    if not found.changes:
        return []
    header = [gettext("Changed at"), gettext("Change"), gettext("Changed by"), gettext("Reason")]
    rows = [[report.cell(h, "head") for h in header]]
    for before, after in found.changes:
        what = []
        if (before.name or "") != (after.name or ""):
            what.append(gettext("Renamed from %(old)s to %(new)s", old=before.name or "-", new=after.name or "-"))
        if before.time_zone != after.time_zone:
            what.append(gettext("Time zone changed from %(old)s to %(new)s", old=before.time_zone, new=after.time_zone))
        if after.start >= found.end:
            what.append(gettext("(after this period)"))
        who = f"{after.changed_by} (#{after.changed_by_id})" if after.changed_by_id else ""
        cells = [report.local(after.start), " ".join(what), who, after.reason or ""]
        rows.append([report.cell(text) for text in cells])
    return [
        Paragraph(gettext("Device name and time zone changes"), report.styles["h2"]),
        report.table(rows, [36 * mm, 74 * mm, 30 * mm, 40 * mm]),
    ]


def conflict_section(report: Report, subject: Subject) -> list:
    """The values received for a time that already had a different reading: the first stays the
    record (in the statistics and the readings), each conflicting one is listed here."""
    sensors = {s.probe: s for s in subject.sensors}
    found = conflicts_in(subject.device.id, subject.start, subject.end, list(sensors))
    if not found:
        return []
    units = report.p.units
    header = [
        gettext("Time"),
        gettext("Sensor"),
        gettext("Value kept"),
        gettext("Conflicting value"),
        gettext("Received at"),
    ]
    rows = [[report.cell(h, "head") for h in header]]
    for conflict in found[:MAX_CONFLICT_ROWS]:
        sensor = sensors[conflict.sensor]
        cells = [
            report.local(conflict.ts),
            f"{sensor.name} ({units.label(sensor)})",
            exact(units.value(sensor, conflict.stored_value)),
            exact(units.value(sensor, conflict.value)),
            report.local(conflict.received_at),
        ]
        rows.append([report.cell(text) for text in cells])
    heading = gettext("Conflicting values received: %(count)s", count=len(found))
    note = gettext(
        "A value received for a time that already had a different reading: the first value is the record "
        "(statistics, chart and readings); the conflicting value is kept and listed here."
    )
    return [
        Paragraph(heading, report.styles["h2"]),
        Paragraph(note, report.styles["small"]),
        report.table(rows, [40 * mm, 40 * mm, 30 * mm, 30 * mm, 40 * mm]),
    ]
