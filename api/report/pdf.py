"""The PDF report (reportlab, drawn on the server: no browser involved).

Per subject: the platform's branding and filing info, device (its names and zones as they were over
the range, and their changes: evidence.py), GUID, range, time zone, the chart (pdf_chart.py: one axis
per unit, labelled limit lines in force at each time, gaps shaded and not bridged), statistics per
sensor (min, max, average, MKT, time above / below limits, excursions and the longest, first and last
reading, logging interval, data completeness), the probes' calibration, the gaps, the alarm list with
every processing decision, the conflicting values received, the readings table and a signature block
(pdf_tables.py, pdf_evidence.py); every page says "Page N of M". Every time carries its UTC offset.
The readings table prints every reading when they fit (MAX_TABLE_ROWS), else per print interval the
minimum and the maximum of each sensor, so no extreme is ever hidden; back-filled readings are marked.
Every table is sized to the frame (wrapped cells), so nothing runs past the margins.
"""

from __future__ import annotations

import math
from functools import partial
from xml.sax.saxutils import escape

from flask_babel import gettext
from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import KeepTogether, PageBreak, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from api.device.catalogue import catalogue_text
from api.extensions.db import utcnow
from api.extensions.pdf_fonts import font_name
from api.report.calibration_marks import correction_note, corrections_of, corrects, marks_of
from api.report.evidence import Identity, identity
from api.report.formats import TICK_READINGS, Presentation, Progress, series_stats, stream_options
from api.report.kinds import Subject, alarm_records
from api.report.pdf_chart import chart_drawings
from api.report.pdf_evidence import calibration_section, conflict_section, identity_section
from api.report.pdf_tables import (
    ALARM_WIDTHS,
    OVERDUE_NOTE,
    alarm_rows,
    gap_rows,
    limit_change_rows,
    readings_table,
    signature_block,
    stats_table,
)
from api.report.stats import SeriesStats
from api.telemetry.queries import stream_rows

MAX_TABLE_ROWS = 1440
PRINT_STEPS_MIN = (1, 2, 5, 10, 15, 30, 60, 120, 180, 240, 360, 720, 1440)


def print_step_s(span_s: float, interval_s: int | None) -> int:
    wanted = max(interval_s or 60, span_s / MAX_TABLE_ROWS)
    for minutes in PRINT_STEPS_MIN:
        if minutes * 60 >= wanted:
            return minutes * 60
    return math.ceil(wanted / 86_400) * 86_400


class Report:
    def __init__(self, presentation: Presentation, progress: Progress):
        self.p = presentation
        self.progress = progress
        # What each subject printed: (subject, statistics per sensor), read by a frozen record (api/fda).
        self.printed: list[tuple[Subject, dict[int, SeriesStats]]] = []
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

    def collect(self, subject: Subject, stats: dict[int, SeriesStats], step_ms: int):
        """One pass over the readings: the statistics, and every reading while they fit (else None),
        and per print interval the min and max of each sensor."""
        every: list[tuple[int, dict, bool, bool]] | None = []
        buckets: dict[int, dict] = {}
        pending = 0
        device = subject.device
        marks = marks_of(subject, list(stats))
        fixes = corrections_of(subject, list(stats))  # printed corrected; statistics of the raw readings
        for ms, values, backfilled in stream_rows(
            device.id, list(stats), subject.start, subject.end, **stream_options(subject)
        ):
            overdue = marks.advance(ms) if ms >= marks.edge else marks.inside
            if fixes:
                raw, values = values, dict(values)
                for probe, walker in fixes.items():
                    if values.get(probe) is not None and (fix := walker(ms)) is not None:
                        values[probe] = fix(values[probe])
            else:
                raw = values
            bucket = buckets.setdefault(ms // step_ms * step_ms, {"late": False, "overdue": False})
            bucket["late"] = bucket["late"] or backfilled
            bucket["overdue"] = bucket["overdue"] or overdue
            for probe, value in values.items():
                if value is None:
                    continue
                stats[probe].add(ms, raw[probe])
                low, high = bucket.get(probe, (value, value))
                bucket[probe] = (min(low, value), max(high, value))
            if every is not None:
                every.append((ms, values, backfilled, overdue))
                if len(every) > MAX_TABLE_ROWS:
                    every = None
            pending += len(values)
            if pending >= TICK_READINGS:
                self.progress.tick(pending)
                pending = 0
        self.progress.tick(pending)
        for stat in stats.values():
            stat.finish()
        return every, buckets

    def info_table(self, subject: Subject, found: Identity):
        """The device's names and zones as they were over the range (A → B when one changed in it)."""
        p, units, device = self.p, self.p.units, subject.device
        local = p.local_time.with_offset
        generated = p.generated_at or utcnow()
        requester = getattr(p.requester, "real_name", None) or getattr(p.requester, "user_name", "")
        if getattr(p.requester, "id", None):
            requester = f"{requester} (#{p.requester.id})"
        info = [
            [gettext("Device name"), " → ".join(found.names), gettext("GUID"), device.guid],
            [gettext("Device model"), catalogue_text(device.device_type.type_name), gettext("Time zone"), p.zone.key],
            [
                gettext("Range"),
                f"{local(int(subject.start.timestamp() * 1000))} - {local(int(subject.end.timestamp() * 1000))}",
                gettext("Device time zone"),
                " → ".join(found.zones),
            ],
            [
                gettext("Generated at"),
                local(int(generated.timestamp() * 1000)),
                gettext("Temperature unit"),
                "°F" if units.fahrenheit else "°C",
            ],
            [gettext("Requested by"), requester, "", ""],
        ]
        info = [[self.cell(text) for text in row] for row in info]
        return self.table(info, [26 * mm, 64 * mm, 26 * mm, 64 * mm], header=False)

    def subject(self, subject: Subject) -> list:
        device = subject.device
        span = (subject.end - subject.start).total_seconds()
        stats = {s.probe: series_stats(subject, s) for s in subject.sensors}
        step_ms = print_step_s(span, device.interval_s) * 1000
        every, buckets = self.collect(subject, stats, step_ms)
        self.printed.append((subject, stats))
        found = identity(subject)

        story: list = [Paragraph(subject.title or gettext("Temperature data report"), self.styles["title"])]
        story.append(self.info_table(subject, found))
        story += identity_section(self, found)
        for heading, rows, header in subject.extra.get("sections", []):  # a report kind's own sections (waybill)
            story.append(Paragraph(heading, self.styles["h2"]))
            story.append(self.table([[self.cell(str(text)) for text in row] for row in rows], header=header))
        if subject.extra.get("qr"):  # a link to check the document (the FDA area's verification page)
            story.append(qr_drawing(subject.extra["qr"]))
        story.append(Paragraph(gettext("Chart"), self.styles["h2"]))
        story += chart_drawings(self, subject, stats)
        story.append(Paragraph(gettext("Statistics"), self.styles["h2"]))
        story.append(stats_table(self, subject, stats))
        story.append(
            Paragraph(
                gettext(
                    "Mean kinetic temperature (MKT) with ΔH/R = 10,000 K (ΔH = 83.144 kJ/mol); time above or below "
                    "a limit counts from an out-of-range reading to the next one. Limits are the alarm limits in force "
                    "at each reading's time; an excursion lasted at least the alarm delay."
                ),
                self.styles["small"],
            )
        )
        changes = limit_change_rows(self, subject, stats)
        if changes:
            story.append(Paragraph(gettext("Limit changes in this period"), self.styles["h2"]))
            story.append(self.table(changes, [36 * mm, 30 * mm, 20 * mm, 20 * mm, 30 * mm, 44 * mm]))
        story += calibration_section(self, subject)
        gaps = gap_rows(self, subject, stats)
        if gaps:
            story.append(Paragraph(gettext("Gaps (no data)"), self.styles["h2"]))
            story.append(self.table(gaps, [60 * mm, 60 * mm, 30 * mm, 30 * mm]))
        story.append(Paragraph(gettext("Alarms"), self.styles["h2"]))
        alarms = alarm_records(device.id, subject.start, subject.end)
        if alarms:
            story.append(self.table(alarm_rows(self, subject, alarms), ALARM_WIDTHS))
            story.append(
                Paragraph(
                    gettext(
                        "An excursion begins at its first reading out of range; the alarm is raised once it "
                        "lasted the alarm delay; its duration runs from the excursion's beginning to its end."
                    ),
                    self.styles["small"],
                )
            )
        else:
            story.append(Paragraph(gettext("No alarms in this period."), self.styles["body"]))
        story += conflict_section(self, subject)
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
        story.append(Paragraph(gettext(OVERDUE_NOTE), self.styles["small"]))
        if corrects(subject):
            story.append(Paragraph(escape(correction_note(subject, corrections_of(subject))), self.styles["small"]))
        story.append(readings_table(self, subject, every, buckets))
        story.append(Spacer(1, 6 * mm))
        story.append(KeepTogether(signature_block(self, subject)))
        return story

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
        canvas.restoreState()


def qr_drawing(link: str, size: float = 28 * mm) -> Drawing:
    widget = QrCodeWidget(link)
    left, bottom, right, top = widget.getBounds()
    drawing = Drawing(size, size, transform=[size / (right - left), 0, 0, size / (top - bottom), 0, 0])
    drawing.add(widget)
    return drawing


def write_pdf(path, subjects: list[Subject], presentation: Presentation, progress: Progress) -> Report:
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
    doc.build(
        story,
        onFirstPage=report.on_page,
        onLaterPages=report.on_page,
        canvasmaker=partial(NumberedCanvas, font=report.font, page_text=page_of),
    )
    return report


def page_of(number: int, total: int) -> str:
    return gettext("Page %(n)s of %(total)s", n=number, total=total)


class NumberedCanvas(Canvas):
    """ "Page N of M": each page is kept until the document ends, then numbered with the total
    (reportlab's two-pass canvas pattern: nothing is drawn twice, the page count is exact)."""

    def __init__(self, *args, font: str, page_text, **kwargs):
        super().__init__(*args, **kwargs)
        self._pages: list[dict] = []
        self._font, self._page_text = font, page_text

    def showPage(self):  # noqa: N802 - reportlab's name
        self._pages.append(dict(self.__dict__))
        self._startPage()

    def save(self):
        total = len(self._pages)
        for state in self._pages:
            self.__dict__.update(state)
            self.setFont(self._font, 7)
            self.setFillColor(colors.grey)
            self.drawRightString(A4[0] - 15 * mm, 9 * mm, self._page_text(self._pageNumber, total))
            super().showPage()
        super().save()
