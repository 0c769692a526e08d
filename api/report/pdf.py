"""The PDF report (reportlab, drawn on the server: no browser involved).

Per subject: the platform's branding and filing info, device, GUID, range, time zone, the chart,
statistics per sensor (min, max, average, MKT, time above / below limits, excursions, first and last
reading, logging interval), the alarm list, the readings table and a signature block.
The readings table prints one reading per print interval (at most MAX_TABLE_ROWS rows per device;
the interval is stated); the complete data is the CSV / XLSX export of the same range.
"""

from __future__ import annotations

import math
from functools import cache
from pathlib import Path

from flask_babel import gettext
from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import Drawing, Line, String
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import KeepTogether, PageBreak, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from api.alarm.models import AlarmKind, ProcessState
from api.extensions.db import utcnow
from api.extensions.i18n import N_
from api.report.formats import TICK_READINGS, Presentation, Progress
from api.report.kinds import Subject, alarm_records
from api.report.stats import SeriesStats
from api.telemetry.queries import chart, stream_rows

# Labels of the alarm list (translated when the report is drawn, in the requester's language).
ALARM_KINDS = {
    AlarmKind.UPPER: N_("Above the upper limit"),
    AlarmKind.LOWER: N_("Below the lower limit"),
    AlarmKind.OFFLINE: N_("Offline"),
    AlarmKind.BATTERY: N_("Low battery"),
    AlarmKind.FAULT: N_("Probe fault"),
}
PROCESS_STATES = {
    ProcessState.PENDING: N_("Pending"),
    ProcessState.AGREED: N_("Agreed"),
    ProcessState.REJECTED: N_("Rejected"),
    ProcessState.ON_HOLD: N_("On hold"),
}
MAX_TABLE_ROWS = 1440
PRINT_STEPS_MIN = (1, 2, 5, 10, 15, 30, 60, 120, 180, 240, 360, 720, 1440)
CHART_COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b")
TTF_CANDIDATES = (
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/wqy-microhei/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
)


@cache
def font_name() -> str:
    """A font with Chinese glyphs: WenQuanYi when installed, else reportlab's built-in CID font."""
    for candidate in TTF_CANDIDATES:
        if Path(candidate).exists():
            pdfmetrics.registerFont(TTFont("ReportSans", candidate, subfontIndex=0))
            return "ReportSans"
    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    return "STSong-Light"


def print_step_s(span_s: float, interval_s: int | None) -> int:
    wanted = max(interval_s or 60, span_s / MAX_TABLE_ROWS)
    for minutes in PRINT_STEPS_MIN:
        if minutes * 60 >= wanted:
            return minutes * 60
    return math.ceil(wanted / 86_400) * 86_400


def duration_text(seconds: float) -> str:
    minutes = round(seconds / 60)
    hours, minutes = divmod(minutes, 60)
    return gettext("%(h)s h %(m)s min", h=hours, m=minutes)


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

    def subject(self, subject: Subject) -> list:
        p, units, device = self.p, self.p.units, subject.device
        span = (subject.end - subject.start).total_seconds()
        stats = {s.probe: SeriesStats(s.lower, s.upper, s.temperature) for s in subject.sensors}
        sensors = {s.probe: s for s in subject.sensors}
        step_ms = print_step_s(span, device.interval_s) * 1000
        printed: list[tuple[int, dict]] = []
        next_print, pending = None, 0
        for ms, values in stream_rows(device.id, list(sensors), subject.start, subject.end):
            for probe, value in values.items():
                if value is not None:
                    stats[probe].add(ms, value)
            if next_print is None or ms >= next_print:
                printed.append((ms, values))
                next_print = (ms // step_ms + 1) * step_ms
            pending += len(values)
            if pending >= TICK_READINGS:
                self.progress.tick(pending)
                pending = 0
        self.progress.tick(pending)
        for stat in stats.values():
            stat.finish()

        story: list = [Paragraph(gettext("Temperature data report"), self.styles["title"])]
        local = p.local_time
        info = [
            [gettext("Device name"), device.name or "", gettext("GUID"), device.guid],
            [gettext("Device model"), device.device_type.type_name, gettext("Time zone"), p.zone.key],
            [
                gettext("Range"),
                f"{local(int(subject.start.timestamp() * 1000))} - {local(int(subject.end.timestamp() * 1000))}",
                gettext("Temperature unit"),
                "°F" if units.fahrenheit else "°C",
            ],
            [
                gettext("Generated at"),
                local(int(utcnow().timestamp() * 1000)),
                gettext("Requested by"),
                getattr(p.requester, "real_name", None) or getattr(p.requester, "user_name", ""),
            ],
        ]
        story.append(self.table(info, [28 * mm, 62 * mm, 28 * mm, 62 * mm], header=False))
        story.append(Paragraph(gettext("Chart"), self.styles["h2"]))
        story.append(self.chart(subject))
        story.append(Paragraph(gettext("Statistics"), self.styles["h2"]))
        story.append(self.stats_table(subject, stats))
        story.append(
            Paragraph(
                gettext(
                    "Mean kinetic temperature (MKT) with ΔH/R = 10,000 K (ΔH = 83.144 kJ/mol); time above or below "
                    "a limit counts from an out-of-range reading to the next one."
                ),
                self.styles["small"],
            )
        )
        story.append(Paragraph(gettext("Alarms"), self.styles["h2"]))
        alarms = alarm_records(device.id, subject.start, subject.end)
        if alarms:
            story.append(self.table(self.alarm_rows(subject, alarms)))
        else:
            story.append(Paragraph(gettext("No alarms in this period."), self.styles["body"]))
        story.append(Paragraph(gettext("Readings"), self.styles["h2"]))
        story.append(
            Paragraph(
                gettext(
                    "One reading every %(minutes)s min is printed; the complete data is in the CSV or XLSX export.",
                    minutes=step_ms // 60_000,
                ),
                self.styles["small"],
            )
        )
        story.append(self.readings_table(subject, printed))
        story.append(Spacer(1, 6 * mm))
        story.append(KeepTogether(self.signature_block()))
        return story

    def alarm_rows(self, subject: Subject, alarms) -> list[list[str]]:
        """Opened, closed, sensor, kind, peak value, and how it was processed (state, result, by whom, when)."""
        units = self.p.units
        sensors = {s.probe: s for s in subject.sensors}

        def local(moment) -> str:
            return self.p.local_time(int(moment.timestamp() * 1000))

        header = [gettext("Opened"), gettext("Closed"), gettext("Sensor"), gettext("Alarm"), gettext("Peak")]
        rows = [[*header, gettext("Processing")]]
        for alarm, handler in alarms:
            sensor = sensors.get(alarm.sensor)
            peak = (
                fmt(units.value(sensor, alarm.peak_value), sensor.precision)
                if sensor and alarm.peak_value is not None
                else ""
            )
            processing = [gettext(PROCESS_STATES[alarm.process_state])]
            if alarm.result:
                processing.append(alarm.result)
            if handler:
                processing.append(f"{handler} {local(alarm.processed_at) if alarm.processed_at else ''}".strip())
            rows.append(
                [
                    local(alarm.opened_at),
                    local(alarm.closed_at) if alarm.closed_at else gettext("still open"),
                    sensor.name if sensor else "",
                    gettext(ALARM_KINDS[alarm.kind]),
                    peak,
                    " / ".join(processing),
                ]
            )
        return rows

    def chart(self, subject: Subject) -> Drawing:
        units, local = self.p.units, self.p.local_time
        width, height = 180 * mm, 62 * mm
        drawing = Drawing(width, height)
        data = chart(
            subject.device.id,
            [s.probe for s in subject.sensors],
            subject.start,
            subject.end,
            subject.device.interval_s,
        )
        start_s, end_s = subject.start.timestamp(), subject.end.timestamp()
        lines, names = [], []
        for sensor in subject.sensors:
            points = []
            for point in data["series"].get(sensor.probe, []):
                t = point["t"]
                seconds = t / 1000 if isinstance(t, int | float) else t.timestamp()
                if point["v"] is not None:
                    points.append((seconds, units.value(sensor, point["v"])))
            if points:
                lines.append(points)
                names.append(sensor)
        plot = LinePlot()
        plot.x, plot.y, plot.width, plot.height = 12 * mm, 10 * mm, width - 16 * mm, height - 16 * mm
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
        for i, _line in enumerate(lines):
            plot.lines[i].strokeColor = colors.HexColor(CHART_COLOURS[i % len(CHART_COLOURS)])
            plot.lines[i].strokeWidth = 0.8
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
        units, local = self.p.units, self.p.local_time
        rows = [[gettext("Sensor")] + [f"{s.name} ({units.label(s)})" for s in subject.sensors]]

        def line(label, fn):
            rows.append([label] + [fn(s, stats[s.probe]) for s in subject.sensors])

        line(gettext("Readings"), lambda s, st: str(st.count))
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

        def reading(s, pair):
            return f"{local(pair[0])}  {fmt(units.value(s, pair[1]), s.precision)}" if pair else "-"

        line(gettext("First reading"), lambda s, st: reading(s, st.first))
        line(gettext("Last reading"), lambda s, st: reading(s, st.last))
        line(gettext("Logging interval"), lambda s, st: duration_text(st.interval_s) if st.interval_s else "-")
        first = 42 * mm
        rest = (180 * mm - first) / max(1, len(subject.sensors))
        return self.table(rows, [first] + [rest] * len(subject.sensors))

    def readings_table(self, subject: Subject, printed: list[tuple[int, dict]]):
        units, local = self.p.units, self.p.local_time
        sensors = subject.sensors
        if not printed:
            return Paragraph(gettext("No data in this range"), self.styles["body"])
        group_width = 31 * mm + 15 * mm * len(sensors)
        groups = max(1, int((180 * mm) // group_width))
        header_one = [gettext("Time")] + [f"{s.name} ({units.label(s)})" for s in sensors]
        cells = []
        for ms, values in printed:
            cell = [local(ms)[:16]]
            for s in sensors:
                value = values.get(s.probe)
                cell.append(fmt(units.value(s, value), s.precision) if value is not None else "")
            cells.append(cell)
        per_column = math.ceil(len(cells) / groups)
        page_rows = 60
        rows = [header_one * groups]
        # Fill column-wise a page at a time, so time runs down each column.
        for page_start in range(0, len(cells), page_rows * groups):
            chunk = cells[page_start : page_start + page_rows * groups]
            height = min(page_rows, math.ceil(len(chunk) / groups)) if per_column else 0
            for r in range(height):
                row = []
                for g in range(groups):
                    index = g * height + r
                    row += chunk[index] if index < len(chunk) else [""] * (1 + len(sensors))
                rows.append(row)
        widths = ([31 * mm] + [15 * mm] * len(sensors)) * groups
        return self.table(rows, widths, size=6.5)

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
        author=presentation.platform.enterprise_name if presentation.platform else "",
    )
    doc.build(story, onFirstPage=report.on_page, onLaterPages=report.on_page)
