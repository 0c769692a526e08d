"""The PDF report (reportlab, drawn on the server: no browser involved).

Per subject: the platform's branding and filing info, device, GUID, range, time zone, the chart
(limit lines from the alarm limits, gaps shaded and not bridged), statistics per sensor (min, max,
average, MKT, time above / below limits, excursions and the longest, first and last reading, logging
interval, data completeness), the gaps, the alarm list with every processing decision, the readings
table and a signature block. Every time carries its UTC offset.
The readings table prints every reading when they fit (MAX_TABLE_ROWS), else per print interval the
minimum and the maximum of each sensor, so no extreme is ever hidden; back-filled readings are marked.
Every table is sized to the frame (wrapped cells), so nothing runs past the margins.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from flask_babel import gettext
from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import Drawing, Line, Rect, String
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import KeepTogether, PageBreak, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from api.alarm.models import AlarmKind, ProcessState
from api.device.catalogue import catalogue_text
from api.extensions.db import utcnow
from api.extensions.i18n import N_
from api.extensions.pdf_fonts import font_name
from api.report.formats import (
    TICK_READINGS,
    Presentation,
    Progress,
    expected_readings,
    series_stats,
    stream_options,
)
from api.report.kinds import Subject, alarm_records, disposition_history
from api.report.stats import SeriesStats
from api.telemetry.queries import chart, stream_rows

# Labels of the alarm list (translated when the report is drawn, in the requester's language).
ALARM_KINDS = {
    AlarmKind.UPPER: N_("Above the upper limit"),
    AlarmKind.LOWER: N_("Below the lower limit"),
    AlarmKind.OFFLINE: N_("Offline"),
    AlarmKind.BATTERY: N_("Low battery"),
    AlarmKind.FAULT: N_("Probe fault"),
    AlarmKind.FENCE: N_("Electric fence crossed"),
}
PROCESS_STATES = {
    ProcessState.PENDING: N_("Pending"),
    ProcessState.AGREED: N_("Agreed"),
    ProcessState.REJECTED: N_("Rejected"),
    ProcessState.ON_HOLD: N_("On hold"),
}
MAX_TABLE_ROWS = 1440
FRAME_WIDTH = A4[0] - 30 * mm  # 15 mm margins on both sides
MAX_GAP_ROWS = 100
PRINT_STEPS_MIN = (1, 2, 5, 10, 15, 30, 60, 120, 180, 240, 360, 720, 1440)
CHART_COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b")


def print_step_s(span_s: float, interval_s: int | None) -> int:
    wanted = max(interval_s or 60, span_s / MAX_TABLE_ROWS)
    for minutes in PRINT_STEPS_MIN:
        if minutes * 60 >= wanted:
            return minutes * 60
    return math.ceil(wanted / 86_400) * 86_400


def duration_text(seconds: float) -> str:
    """1 h 5 min; 5 min 30 s; 10 s (a ten-second logging interval is not "0 h 0 min")."""
    seconds = round(seconds)
    if seconds < 60:
        return gettext("%(s)s s", s=seconds)
    if seconds < 3600:
        minutes, rest = divmod(seconds, 60)
        return gettext("%(m)s min %(s)s s", m=minutes, s=rest) if rest else gettext("%(m)s min", m=minutes)
    minutes = round(seconds / 60)
    hours, minutes = divmod(minutes, 60)
    return gettext("%(h)s h %(m)s min", h=hours, m=minutes)


def completeness(received: int, expected: int) -> str:
    percent = f"{min(100.0, received * 100 / expected):.1f}" if expected else "-"
    return gettext(
        "%(received)s of %(expected)s expected (%(percent)s %%)", received=received, expected=expected, percent=percent
    )


def fmt(value: float | None, digits: int) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


class Report:
    def __init__(self, presentation: Presentation, progress: Progress):
        self.p = presentation
        self.progress = progress
        font = font_name()
        self.font = font
        accent = getattr(presentation.platform, "theme_color", None) or "#547DF2"
        self.accent = colors.HexColor(accent)
        self.styles = {
            "title": ParagraphStyle("title", fontName=font, fontSize=16, leading=20, spaceAfter=4),
            "h2": ParagraphStyle(
                "h2", fontName=font, fontSize=11.5, leading=15, spaceBefore=8, spaceAfter=4, textColor=self.accent
            ),
            "body": ParagraphStyle("body", fontName=font, fontSize=8.5, leading=11),
            "small": ParagraphStyle("small", fontName=font, fontSize=7, leading=9, textColor=colors.grey),
            "cell": ParagraphStyle("cell", fontName=font, fontSize=6.5, leading=8, wordWrap="CJK"),
            "head": ParagraphStyle("head", fontName=font, fontSize=6.5, leading=8, wordWrap="CJK"),
        }

    def table(self, rows, widths=None, header=True, size=8):
        table = Table(rows, colWidths=widths, repeatRows=1 if header else 0)
        style = [
            ("FONTNAME", (0, 0), (-1, -1), self.font),
            ("FONTSIZE", (0, 0), (-1, -1), size),
            ("LEADING", (0, 0), (-1, -1), size + 2),
            ("GRID", (0, 0), (-1, -1), 0.25, colors.HexColor("#c8c8c8")),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("TOPPADDING", (0, 0), (-1, -1), 1.5),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
        ]
        if header:
            style.append(("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#eef1f6")))
        table.setStyle(TableStyle(style))
        return table

    # ---- one subject ---------------------------------------------------------------------------------

    def cell(self, text: str, style: str = "cell") -> Paragraph:
        """A table cell that wraps inside its column instead of running over the next one."""
        return Paragraph(escape(text), self.styles[style])

    def local(self, moment) -> str:
        """A time in the report's zone with its UTC offset."""
        return self.p.local_time.with_offset(int(moment.timestamp() * 1000))

    def subject(self, subject: Subject) -> list:
        p, units, device = self.p, self.p.units, subject.device
        span = (subject.end - subject.start).total_seconds()
        stats = {s.probe: series_stats(subject, s) for s in subject.sensors}
        sensors = {s.probe: s for s in subject.sensors}
        step_ms = print_step_s(span, device.interval_s) * 1000
        # Every reading while they fit; beyond, per print interval the min and max of each sensor.
        every: list[tuple[int, dict, bool]] | None = []
        buckets: dict[int, dict] = {}
        pending = 0
        for ms, values, backfilled in stream_rows(
            device.id, list(sensors), subject.start, subject.end, **stream_options(subject)
        ):
            bucket = buckets.setdefault(ms // step_ms * step_ms, {"late": False})
            bucket["late"] = bucket["late"] or backfilled
            for probe, value in values.items():
                if value is None:
                    continue
                stats[probe].add(ms, value)
                low, high = bucket.get(probe, (value, value))
                bucket[probe] = (min(low, value), max(high, value))
            if every is not None:
                every.append((ms, values, backfilled))
                if len(every) > MAX_TABLE_ROWS:
                    every = None
            pending += len(values)
            if pending >= TICK_READINGS:
                self.progress.tick(pending)
                pending = 0
        self.progress.tick(pending)
        for stat in stats.values():
            stat.finish()

        story: list = [Paragraph(subject.title or gettext("Temperature data report"), self.styles["title"])]
        local = p.local_time.with_offset
        generated = p.generated_at or utcnow()
        info = [
            [gettext("Device name"), device.name or "", gettext("GUID"), device.guid],
            [gettext("Device model"), catalogue_text(device.device_type.type_name), gettext("Time zone"), p.zone.key],
            [
                gettext("Range"),
                f"{local(int(subject.start.timestamp() * 1000))} - {local(int(subject.end.timestamp() * 1000))}",
                gettext("Temperature unit"),
                "°F" if units.fahrenheit else "°C",
            ],
            [
                gettext("Generated at"),
                local(int(generated.timestamp() * 1000)),
                gettext("Requested by"),
                getattr(p.requester, "real_name", None) or getattr(p.requester, "user_name", ""),
            ],
        ]
        info = [[self.cell(text) for text in row] for row in info]
        story.append(self.table(info, [26 * mm, 64 * mm, 26 * mm, 64 * mm], header=False))
        for heading, rows, header in subject.extra.get("sections", []):  # a report kind's own sections (waybill)
            story.append(Paragraph(heading, self.styles["h2"]))
            story.append(self.table([[self.cell(str(text)) for text in row] for row in rows], header=header))
        if subject.extra.get("qr"):  # a link to check the document (the FDA area's verification page)
            story.append(qr_drawing(subject.extra["qr"]))
        story.append(Paragraph(gettext("Chart"), self.styles["h2"]))
        story.append(self.chart(subject))
        story.append(Paragraph(gettext("Statistics"), self.styles["h2"]))
        story.append(self.stats_table(subject, stats))
        story.append(
            Paragraph(
                gettext(
                    "Mean kinetic temperature (MKT) with ΔH/R = 10,000 K (ΔH = 83.144 kJ/mol); time above or below "
                    "a limit counts from an out-of-range reading to the next one. Limits are the alarm limits; an "
                    "excursion lasted at least the alarm delay."
                ),
                self.styles["small"],
            )
        )
        gaps = self.gap_rows(subject, stats)
        if gaps:
            story.append(Paragraph(gettext("Gaps (no data)"), self.styles["h2"]))
            story.append(self.table(gaps, [60 * mm, 60 * mm, 30 * mm, 30 * mm]))
        story.append(Paragraph(gettext("Alarms"), self.styles["h2"]))
        alarms = alarm_records(device.id, subject.start, subject.end)
        if alarms:
            widths = [27 * mm, 27 * mm, 20 * mm, 22 * mm, 14 * mm, 18 * mm, 52 * mm]
            story.append(self.table(self.alarm_rows(subject, alarms), widths))
        else:
            story.append(Paragraph(gettext("No alarms in this period."), self.styles["body"]))
        story.append(Paragraph(gettext("Readings"), self.styles["h2"]))
        if every is not None:
            note = gettext("Every reading is printed; * marks a back-filled reading (received long after its time).")
        else:
            note = gettext(
                "Per %(minutes)s min the lowest and highest reading of each sensor is printed; * marks an interval "
                "with back-filled readings. The complete data is in the CSV or XLSX export.",
                minutes=step_ms // 60_000,
            )
        story.append(Paragraph(note, self.styles["small"]))
        story.append(self.readings_table(subject, every, buckets))
        story.append(Spacer(1, 6 * mm))
        story.append(KeepTogether(self.signature_block()))
        return story

    def gap_rows(self, subject: Subject, stats: dict[int, SeriesStats]) -> list[list]:
        local = self.p.local_time.with_offset
        seen: dict[tuple[int, int], list[str]] = {}
        for sensor in subject.sensors:
            for start, end in stats[sensor.probe].gaps:
                seen.setdefault((start, end), []).append(sensor.name)
        if not seen:
            return []
        header = [
            gettext("Last reading before"),
            gettext("First reading after"),
            gettext("Duration"),
            gettext("Sensor"),
        ]
        rows = [[self.cell(h, "head") for h in header]]
        for (start, end), names in sorted(seen.items())[:MAX_GAP_ROWS]:
            cells = [local(start), local(end), duration_text((end - start) / 1000), ", ".join(names)]
            rows.append([self.cell(text) for text in cells])
        return rows

    def alarm_rows(self, subject: Subject, alarms) -> list[list]:
        """Opened, closed, sensor, kind, peak, duration and every processing decision (who, when,
        what, comment; the latest one is the alarm's state)."""
        units = self.p.units
        sensors = {s.probe: s for s in subject.sensors}
        history = disposition_history([alarm.id for alarm, _handler in alarms])
        header = [
            gettext("Opened"),
            gettext("Closed"),
            gettext("Sensor"),
            gettext("Alarm"),
            gettext("Peak"),
            gettext("Duration"),
            gettext("Processing"),
        ]
        rows = [[self.cell(h, "head") for h in header]]
        for alarm, _handler in alarms:
            sensor = sensors.get(alarm.sensor)
            peak = (
                fmt(units.value(sensor, alarm.peak_value), sensor.precision)
                if sensor and alarm.peak_value is not None
                else ""
            )
            decisions = []
            for disposition, name in history.get(alarm.id, []):
                parts = [self.local(disposition.created_at), name or "", gettext(PROCESS_STATES[disposition.state])]
                if disposition.result:
                    parts.append(disposition.result)
                decisions.append(" ".join(x for x in parts if x))
            processing = "\n".join(decisions) or gettext(PROCESS_STATES[alarm.process_state])
            end = alarm.closed_at
            duration = duration_text((end - alarm.breach_started_at).total_seconds()) if end else ""
            cells = [
                self.local(alarm.opened_at),
                self.local(alarm.closed_at) if alarm.closed_at else gettext("still open"),
                sensor.name if sensor else "",
                gettext(ALARM_KINDS[alarm.kind]),
                peak,
                duration,
            ]
            rows.append(
                [self.cell(text) for text in cells]
                + [Paragraph(escape(processing).replace("\n", "<br/>"), self.styles["cell"])]
            )
        return rows

    def chart(self, subject: Subject) -> Drawing:
        units, local = self.p.units, self.p.local_time
        width, height = FRAME_WIDTH, 62 * mm
        drawing = Drawing(width, height)
        data = chart(
            subject.device.id,
            [s.probe for s in subject.sensors],
            subject.start,
            subject.end,
            subject.device.interval_s,
        )
        start_s, end_s = subject.start.timestamp(), subject.end.timestamp()
        # One line per run of data: a gap (a null point) ends a line, so nothing is drawn across it.
        lines, line_sensor, names = [], [], []
        for sensor in subject.sensors:
            runs, current = [], []
            for point in data["series"].get(sensor.probe, []):
                t = point["t"]
                seconds = t / 1000 if isinstance(t, int | float) else t.timestamp()
                if point["v"] is None:
                    if current:
                        runs.append(current)
                    current = []
                    continue
                current.append((seconds, units.value(sensor, point["v"])))
            if current:
                runs.append(current)
            if runs:
                names.append(sensor)
                for run in runs:
                    lines.append(run if len(run) > 1 else [run[0], run[0]])
                    line_sensor.append(len(names) - 1)
        plot = LinePlot()
        # Room on the right for the last time label, centred on the axis' end: nothing past the margin.
        plot.x, plot.y, plot.width, plot.height = 12 * mm, 10 * mm, width - 24 * mm, height - 16 * mm
        if not lines:
            drawing.add(
                String(
                    width / 2,
                    height / 2,
                    gettext("No data in this range"),
                    fontName=self.font,
                    fontSize=9,
                    textAnchor="middle",
                )
            )
            return drawing
        plot.data = lines
        values = [v for line in lines for _, v in line]
        limits = [units.value(s, x) for s in names for x in (s.lower, s.upper) if x is not None]
        low, high = min(values + limits), max(values + limits)
        pad = max((high - low) * 0.08, 0.5)
        plot.yValueAxis.valueMin, plot.yValueAxis.valueMax = low - pad, high + pad
        plot.xValueAxis.valueMin, plot.xValueAxis.valueMax = start_s, end_s
        ticks = [start_s + (end_s - start_s) * i / 5 for i in range(6)]
        plot.xValueAxis.valueSteps = ticks
        plot.xValueAxis.labelTextFormat = lambda s: local(int(s * 1000))[5:16]
        for axis in (plot.xValueAxis, plot.yValueAxis):
            axis.labels.fontName = self.font
            axis.labels.fontSize = 6.5
        for i, owner in enumerate(line_sensor):
            plot.lines[i].strokeColor = colors.HexColor(CHART_COLOURS[owner % len(CHART_COLOURS)])
            plot.lines[i].strokeWidth = 0.8
        x_scale = plot.width / (end_s - start_s)
        for sensor_gaps in data["gaps"].values():  # shaded: nobody measured there
            for gap in sensor_gaps:
                x0 = plot.x + max(0.0, gap["start"] / 1000 - start_s) * x_scale
                x1 = plot.x + min(end_s - start_s, gap["end"] / 1000 - start_s) * x_scale
                if x1 > x0:
                    drawing.add(
                        Rect(x0, plot.y, x1 - x0, plot.height, fillColor=colors.HexColor("#eeeeee"), strokeColor=None)
                    )
        drawing.add(plot)
        y_scale = plot.height / (plot.yValueAxis.valueMax - plot.yValueAxis.valueMin)
        for limit in limits:
            y = plot.y + (limit - plot.yValueAxis.valueMin) * y_scale
            drawing.add(
                Line(plot.x, y, plot.x + plot.width, y, strokeColor=colors.red, strokeWidth=0.6, strokeDashArray=[3, 2])
            )
        for i, sensor in enumerate(names):
            drawing.add(
                String(
                    plot.x + 4 + i * 45 * mm,
                    height - 5 * mm,
                    f"— {sensor.name} ({units.label(sensor)})",
                    fontName=self.font,
                    fontSize=7,
                    fillColor=colors.HexColor(CHART_COLOURS[i % len(CHART_COLOURS)]),
                )
            )
        return drawing

    def stats_table(self, subject: Subject, stats: dict[int, SeriesStats]):
        units, local = self.p.units, self.p.local_time.with_offset
        rows = [
            [self.cell(gettext("Sensor"), "head")]
            + [self.cell(f"{s.name} ({units.label(s)})", "head") for s in subject.sensors]
        ]

        def line(label, fn):
            rows.append([self.cell(label)] + [self.cell(fn(s, stats[s.probe])) for s in subject.sensors])

        line(gettext("Readings"), lambda s, st: str(st.count))
        line(
            gettext("Data completeness"),
            lambda s, st: completeness(st.count, expected_readings(subject, st)),
        )
        line(gettext("Minimum"), lambda s, st: fmt(units.value(s, st.minimum), s.precision))
        line(gettext("Maximum"), lambda s, st: fmt(units.value(s, st.maximum), s.precision))
        line(gettext("Average"), lambda s, st: fmt(units.value(s, st.mean), s.precision + 1))
        line(gettext("Mean kinetic temperature"), lambda s, st: fmt(units.value(s, st.mkt), 2))
        line(gettext("Lower limit"), lambda s, st: fmt(units.value(s, s.lower), s.precision))
        line(gettext("Upper limit"), lambda s, st: fmt(units.value(s, s.upper), s.precision))
        line(
            gettext("Time above upper limit"),
            lambda s, st: duration_text(st.seconds_above) if s.upper is not None else "-",
        )
        line(
            gettext("Time below lower limit"),
            lambda s, st: duration_text(st.seconds_below) if s.lower is not None else "-",
        )
        line(gettext("Excursions"), lambda s, st: str(st.excursions))
        line(
            gettext("Longest excursion"),
            lambda s, st: duration_text(st.longest_excursion_s) if st.excursions else "-",
        )
        line(gettext("Gaps"), lambda s, st: str(len(st.gaps)))

        def reading(s, pair):
            return f"{local(pair[0])}  {fmt(units.value(s, pair[1]), s.precision)}" if pair else "-"

        line(gettext("First reading"), lambda s, st: reading(s, st.first))
        line(gettext("Last reading"), lambda s, st: reading(s, st.last))
        line(
            gettext("Logging interval"),
            lambda s, st: duration_text(st.interval_s or subject.device.interval_s),
        )
        first = 40 * mm
        rest = (FRAME_WIDTH - first) / max(1, len(subject.sensors))
        return self.table(rows, [first] + [rest] * len(subject.sensors))

    def readings_table(self, subject: Subject, every, buckets: dict[int, dict]):
        units, local = self.p.units, self.p.local_time.with_offset
        sensors = subject.sensors
        if not buckets:
            return Paragraph(gettext("No data in this range"), self.styles["body"])
        time_width = 36 * mm
        if every is not None:
            value_width = 15 * mm
            header = [gettext("Time")] + [f"{s.name} ({units.label(s)})" for s in sensors]
            cells = []
            for ms, values, backfilled in every:
                row = [local(ms) + (" *" if backfilled else "")]
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
                row = [local(start) + (" *" if bucket["late"] else "")]
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
        rows = [[self.cell(h, "head") for h in header] * groups]
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
        return self.table(rows, widths, size=6)

    def signature_block(self):
        rows = [
            [gettext("Prepared by"), "", gettext("Date"), ""],
            [gettext("Reviewed by"), "", gettext("Date"), ""],
            [gettext("Approved by"), "", gettext("Date"), ""],
        ]
        table = Table(rows, colWidths=[30 * mm, 70 * mm, 20 * mm, 60 * mm], rowHeights=[11 * mm] * 3)
        table.setStyle(
            TableStyle(
                [
                    ("FONTNAME", (0, 0), (-1, -1), self.font),
                    ("FONTSIZE", (0, 0), (-1, -1), 9),
                    ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
                    ("LINEBELOW", (1, 0), (1, -1), 0.5, colors.black),
                    ("LINEBELOW", (3, 0), (3, -1), 0.5, colors.black),
                ]
            )
        )
        return [Paragraph(gettext("Signatures"), self.styles["h2"]), table]

    # ---- page furniture ----------------------------------------------------------------------------------

    def on_page(self, canvas, doc):
        platform = self.p.platform
        title = platform.title_for(self.p.locale) if platform is not None else ""
        canvas.saveState()
        canvas.setFillColor(self.accent)
        canvas.rect(15 * mm, A4[1] - 14 * mm, A4[0] - 30 * mm, 1.2 * mm, stroke=0, fill=1)
        canvas.setFont(self.font, 9)
        canvas.setFillColor(colors.black)
        canvas.drawString(15 * mm, A4[1] - 11 * mm, title)
        canvas.drawRightString(A4[0] - 15 * mm, A4[1] - 11 * mm, platform.enterprise_name if platform else "")
        canvas.setFont(self.font, 7)
        canvas.setFillColor(colors.grey)
        filing = " ".join(x for x in (platform.record_company, platform.record_number) if x) if platform else ""
        canvas.drawString(15 * mm, 9 * mm, filing)
        canvas.drawRightString(A4[0] - 15 * mm, 9 * mm, gettext("Page %(n)s", n=doc.page))
        canvas.restoreState()


def qr_drawing(link: str, size: float = 28 * mm) -> Drawing:
    widget = QrCodeWidget(link)
    left, bottom, right, top = widget.getBounds()
    drawing = Drawing(size, size, transform=[size / (right - left), 0, 0, size / (top - bottom), 0, 0])
    drawing.add(widget)
    return drawing


def write_pdf(path, subjects: list[Subject], presentation: Presentation, progress: Progress) -> None:
    report = Report(presentation, progress)
    story: list = []
    for i, subject in enumerate(subjects):
        if i:
            story.append(PageBreak())
        story += report.subject(subject)
    doc = SimpleDocTemplate(
        str(path),
        pagesize=A4,
        leftMargin=15 * mm,
        rightMargin=15 * mm,
        topMargin=18 * mm,
        bottomMargin=15 * mm,
        title=gettext("Temperature data report"),
        # No creation date or random id inside: the same file regenerated has the same bytes and hash.
        invariant=1,
        author=presentation.platform.enterprise_name if presentation.platform else "",
    )
    doc.build(story, onFirstPage=report.on_page, onLaterPages=report.on_page)
