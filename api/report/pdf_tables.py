"""The PDF report's tables: statistics per sensor, limit changes, gaps, the alarm list and the
readings, each sized to the frame (wrapped cells) so nothing runs past the margins."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from flask_babel import gettext
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, Table, TableStyle

from api.extensions.i18n import N_
from api.report.alarm_list import PRINTED, alarm_cells, alarm_headers, duration_text
from api.report.completeness import Completeness, completeness
from api.report.formats import has_limit, limit_text
from api.report.kinds import Subject
from api.report.stats import SeriesStats

if TYPE_CHECKING:
    from api.report.pdf import Report

FRAME_WIDTH = A4[0] - 30 * mm  # 15 mm margins on both sides
MAX_GAP_ROWS = 100
# The readings table's mark of a reading taken while its probe's calibration was overdue (issue 48).
OVERDUE_SIGN = " #"
OVERDUE_NOTE = N_(
    "# marks a reading taken while its probe's calibration was overdue (after the due date of its latest "
    "certificate, before its next calibration); a probe without any certificate is never marked."
)


def completeness_text(counted: Completeness | None) -> str:
    """ "36 of 42 expected (85.7 %)": the figures CSV and XLSX print too; "-" for a state channel."""
    if counted is None:
        return "-"
    percent = "-" if counted.percent is None else f"{counted.percent:.1f}"
    return gettext(
        "%(received)s of %(expected)s expected (%(percent)s %%)",
        received=counted.received,
        expected=counted.expected,
        percent=percent,
    )


def fmt(value: float | None, digits: int) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def limit_change_rows(report: Report, subject: Subject, stats: dict[int, SeriesStats]) -> list[list]:
    """Each change of a limit inside the range: from when, the limits, who and why."""
    units = report.p.units
    header = [
        gettext("Valid from"),
        gettext("Sensor"),
        gettext("Lower limit"),
        gettext("Upper limit"),
        gettext("Changed by"),
        gettext("Reason"),
    ]
    rows = [[report.cell(h, "head") for h in header]]
    for sensor in subject.sensors:
        for period in stats[sensor.probe].periods[1:]:
            cells = [
                report.local(period.start),
                sensor.name,
                fmt(units.value(sensor, period.lower), sensor.precision),
                fmt(units.value(sensor, period.upper), sensor.precision),
                period.changed_by or "",
                period.reason or "",
            ]
            rows.append([report.cell(text) for text in cells])
    return rows if len(rows) > 1 else []


def gap_rows(report: Report, subject: Subject, stats: dict[int, SeriesStats]) -> list[list]:
    local = report.p.local_time.with_offset
    seen: dict[tuple[int, int], list[str]] = {}
    for sensor in subject.sensors:
        for start, end in stats[sensor.probe].gaps:
            seen.setdefault((start, end), []).append(sensor.name)
    if not seen:
        return []
    header = [gettext("Last reading before"), gettext("First reading after"), gettext("Duration"), gettext("Sensor")]
    rows = [[report.cell(h, "head") for h in header]]
    for (start, end), names in sorted(seen.items())[:MAX_GAP_ROWS]:
        cells = [local(start), local(end), duration_text((end - start) / 1000), ", ".join(names)]
        rows.append([report.cell(text) for text in cells])
    return rows


ALARM_WIDTHS = [25 * mm, 29 * mm, 25 * mm, 16 * mm, 19 * mm, 12 * mm, 16 * mm, 38 * mm]


def alarm_rows(report: Report, subject: Subject, alarms) -> list[list]:
    """The alarm list's columns (api/report/alarm_list) as printed: wrapped cells, one processing
    decision per line."""
    local, units = report.p.local_time.with_offset, report.p.units
    rows = [[report.cell(h, "head") for h in alarm_headers()]]
    for *cells, processing in alarm_cells(subject, alarms, local, units, PRINTED):
        rows.append(
            [report.cell(text) for text in cells]
            + [Paragraph(escape(processing).replace("\n", "<br/>"), report.styles["cell"])]
        )
    return rows


def stats_table(report: Report, subject: Subject, stats: dict[int, SeriesStats]):
    units, local = report.p.units, report.p.local_time.with_offset
    rows = [
        [report.cell(gettext("Sensor"), "head")]
        + [report.cell(f"{s.name} ({units.label(s)})", "head") for s in subject.sensors]
    ]

    def line(label, fn):
        rows.append([report.cell(label)] + [report.cell(fn(s, stats[s.probe])) for s in subject.sensors])

    counted = {s.probe: completeness(subject, s, stats[s.probe], report.p.as_of) for s in subject.sensors}
    line(gettext("Readings"), lambda s, st: str(counted[s.probe].received) if counted[s.probe] else "-")
    line(gettext("Data completeness"), lambda s, st: completeness_text(counted[s.probe]))
    line(gettext("Minimum"), lambda s, st: fmt(units.value(s, st.minimum), s.precision))
    line(gettext("Maximum"), lambda s, st: fmt(units.value(s, st.maximum), s.precision))
    line(gettext("Average"), lambda s, st: fmt(units.value(s, st.mean), s.precision + 1))
    line(gettext("Mean kinetic temperature"), lambda s, st: fmt(units.value(s, st.mkt), 2))
    line(gettext("Lower limit"), lambda s, st: limit_text(s, st, "lower", units))
    line(gettext("Upper limit"), lambda s, st: limit_text(s, st, "upper", units))
    line(
        gettext("Time above upper limit"),
        lambda s, st: duration_text(st.seconds_above) if has_limit(st, "upper") else "-",
    )
    line(
        gettext("Time below lower limit"),
        lambda s, st: duration_text(st.seconds_below) if has_limit(st, "lower") else "-",
    )
    line(gettext("Excursions"), lambda s, st: str(st.excursions))
    line(gettext("Longest excursion"), lambda s, st: duration_text(st.longest_excursion_s) if st.excursions else "-")
    line(gettext("Gaps"), lambda s, st: str(len(st.gaps)))

    def reading(s, pair):
        return f"{local(pair[0])}  {fmt(units.value(s, pair[1]), s.precision)}" if pair else "-"

    line(gettext("First reading"), lambda s, st: reading(s, st.first))
    line(gettext("Last reading"), lambda s, st: reading(s, st.last))
    line(gettext("Logging interval"), lambda s, st: duration_text(st.interval_s or subject.device.interval_s))
    first = 40 * mm
    rest = (FRAME_WIDTH - first) / max(1, len(subject.sensors))
    return report.table(rows, [first] + [rest] * len(subject.sensors))


def readings_table(report: Report, subject: Subject, every, buckets: dict[int, dict]):
    units, local = report.p.units, report.p.local_time.with_offset
    sensors = subject.sensors
    if not buckets:
        return Paragraph(gettext("No data in this range"), report.styles["body"])
    time_width = 36 * mm
    if every is not None:
        value_width = 15 * mm
        header = [gettext("Time")] + [f"{s.name} ({units.label(s)})" for s in sensors]
        cells = []
        for ms, values, backfilled, overdue in every:
            row = [local(ms) + (" *" if backfilled else "") + (OVERDUE_SIGN if overdue else "")]
            for s in sensors:
                value = values.get(s.probe)
                row.append(fmt(units.value(s, value), s.precision) if value is not None else "")
            cells.append(row)
        per_sensor = 1
    else:
        value_width = 13 * mm
        header = [gettext("From")]
        lowest, highest = gettext("Minimum"), gettext("Maximum")
        for s in sensors:
            header += [f"{s.name} {lowest} ({units.label(s)})", f"{s.name} {highest} ({units.label(s)})"]
        cells = []
        for start in sorted(buckets):
            bucket = buckets[start]
            row = [local(start) + (" *" if bucket["late"] else "") + (OVERDUE_SIGN if bucket["overdue"] else "")]
            for s in sensors:
                low, high = bucket.get(s.probe, (None, None))
                row.append(fmt(units.value(s, low), s.precision) if low is not None else "")
                row.append(fmt(units.value(s, high), s.precision) if high is not None else "")
            cells.append(row)
        per_sensor = 2
    columns = 1 + per_sensor * len(sensors)
    group_width = time_width + value_width * per_sensor * len(sensors)
    if group_width > FRAME_WIDTH:  # many sensors: squeeze the value columns to the frame
        value_width = (FRAME_WIDTH - time_width) / (per_sensor * len(sensors))
        group_width = FRAME_WIDTH
    groups = max(1, int(FRAME_WIDTH // group_width))
    page_rows = 50
    rows = [[report.cell(h, "head") for h in header] * groups]
    # Fill column-wise a page at a time, so time runs down each column.
    for page_start in range(0, len(cells), page_rows * groups):
        chunk = cells[page_start : page_start + page_rows * groups]
        height = min(page_rows, math.ceil(len(chunk) / groups))
        for r in range(height):
            row = []
            for g in range(groups):
                index = g * height + r
                row += chunk[index] if index < len(chunk) else [""] * columns
            rows.append(row)
    widths = ([time_width] + [value_width] * (columns - 1)) * groups
    return report.table(rows, widths, size=6)


def signature_block(report: Report, subject: Subject) -> list:
    """A report kind's executed signatures (the FDA area's steps: each manifestation, or pending);
    otherwise a form for signing the printed report by hand."""
    signatures = subject.extra.get("signatures")
    if signatures is not None:
        header = [
            gettext("Step"),
            gettext("Printed name"),
            gettext("Account"),
            gettext("Signed at"),
            gettext("Meaning"),
        ]
        rows = [header] + [[s["step"], s["printedName"], s["account"], s["signedAt"], s["meaning"]] for s in signatures]
        widths = [30 * mm, 36 * mm, 36 * mm, 48 * mm, 30 * mm]
        table = report.table([[report.cell(str(text)) for text in row] for row in rows], widths)
        return [Paragraph(gettext("Signatures"), report.styles["h2"]), table]
    rows = [
        [gettext("Prepared by"), "", gettext("Date"), ""],
        [gettext("Reviewed by"), "", gettext("Date"), ""],
        [gettext("Approved by"), "", gettext("Date"), ""],
    ]
    table = Table(rows, colWidths=[30 * mm, 70 * mm, 20 * mm, 60 * mm], rowHeights=[11 * mm] * 3)
    table.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), report.font),
                ("FONTSIZE", (0, 0), (-1, -1), 9),
                ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
                ("LINEBELOW", (1, 0), (1, -1), 0.5, colors.black),
                ("LINEBELOW", (3, 0), (3, -1), 0.5, colors.black),
            ]
        )
    )
    return [Paragraph(gettext("Signatures"), report.styles["h2"]), table]
