"""The audit trail as PDF for an inspector (21 CFR 11.10(b): accurate and complete copies in human-
readable form): every entry of the filter with its old and new values, reason and chain hashes, each
page numbered "page n of m" and headed with what was filtered, so a printed copy stands on its own."""

from __future__ import annotations

import io
import json
from datetime import datetime, tzinfo
from xml.sax.saxutils import escape

from flask_babel import gettext
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from api.audit.models import OperationLog
from api.audit.redaction import redact
from api.extensions.pdf_fonts import font_name

PAGE = landscape(A4)
MARGIN = 12 * mm
# Entry, time, user, what (summary, call, target), reason, hashes; old and new values follow each entry
ENTRY_COLUMNS_MM = (14, 32, 30, 100, 50, 47)


def _styles() -> tuple[ParagraphStyle, ParagraphStyle, ParagraphStyle]:
    font = font_name()
    title = ParagraphStyle("title", fontName=font, fontSize=14, leading=18, spaceAfter=4)
    body = ParagraphStyle("body", fontName=font, fontSize=8.5, leading=11)
    cell = ParagraphStyle("cell", fontName=font, fontSize=6.5, leading=8, wordWrap="CJK")
    return title, body, cell


def named(user_name: str, account_id: int | None) -> str:
    """A person as every trail entry prints them: the user name and the account id that never changes
    nor passes to anyone else (21 CFR 11.100(a))."""
    return f"{user_name} (#{account_id})" if account_id is not None else user_name


def _values(rows: list[dict]) -> str:
    """Old or new values, never a secret (entries written before secrets were redacted at any depth
    are redacted as they are printed)."""
    return "\n".join(json.dumps(row, ensure_ascii=False, sort_keys=True) for row in redact(rows)) if rows else "-"


def _cell(text: str, style: ParagraphStyle) -> Paragraph:
    return Paragraph(escape(text).replace("\n", "<br/>"), style)


class _NumberedDoc(SimpleDocTemplate):
    """Two passes: the first counts the pages, the second prints "page n of m"."""

    def __init__(self, *args, footer: str, progress=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.footer, self.page_count, self.progress = footer, 0, progress

    def afterFlowable(self, flowable) -> None:  # noqa: N802 - reportlab's hook
        if self.progress is not None:
            self.progress.tick(1)

    def draw_footer(self, canvas, doc) -> None:
        canvas.saveState()
        canvas.setFont(font_name(), 7)
        pages = self.page_count or "?"
        text = gettext("%(footer)s · page %(page)s of %(pages)s", footer=self.footer, page=doc.page, pages=pages)
        canvas.drawRightString(PAGE[0] - MARGIN, 7 * mm, text)
        canvas.restoreState()


def _story(entries: list[OperationLog], *, account: str, filters: str, zone: tzinfo, generated: str) -> list:
    """A header row per entry (entry, time, user, what, reason, hashes), then its old and new values as
    paragraphs, which may run over pages: one entry can hold hundreds of changed rows."""
    title, body, cell = _styles()
    header = [
        gettext("Entry"),
        gettext("Time"),
        gettext("User"),
        gettext("What"),
        gettext("Reason"),
        gettext("Chain hashes"),
    ]
    widths = [w * mm for w in ENTRY_COLUMNS_MM]
    grid = [("GRID", (0, 0), (-1, -1), 0.25, colors.grey), ("VALIGN", (0, 0), (-1, -1), "TOP")]
    style = TableStyle(grid)
    story = [
        Paragraph(escape(gettext("Audit trail")), title),
        Paragraph(escape(gettext("Account: %(account)s", account=account)), body),
        Paragraph(escape(gettext("Filter: %(filters)s", filters=filters)), body),
        Paragraph(escape(gettext("Generated: %(time)s · %(count)s entries", time=generated, count=len(entries))), body),
        Paragraph(
            escape(
                gettext("Entries are hash-chained: `flask audit verify` checks the chain the hashes here come from.")
            ),
            body,
        ),
        Spacer(1, 4 * mm),
        Table(
            [[_cell(text, cell) for text in header]],
            colWidths=widths,
            style=TableStyle([*grid, ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#f0f0f0"))]),
        ),
    ]
    for entry in entries:
        what = "\n".join(part for part in (entry.summary, f"{entry.method} {entry.path}", entry.target or "") if part)
        row = [
            str(entry.seq or ""),
            entry.created_at.astimezone(zone).isoformat(timespec="seconds"),
            named(entry.user_name, entry.account_id) + (f"\n{entry.ip}" if entry.ip else ""),
            what,
            entry.reason or "-",
            f"{entry.prev_hash or '-'}\n{entry.entry_hash or '-'}",
        ]
        story.append(Table([[_cell(text, cell) for text in row]], colWidths=widths, style=style))
        for label, rows in ((gettext("Before"), entry.before), (gettext("After"), entry.after)):
            if rows:
                story.append(_cell(f"{label}: {_values(rows)}", cell))
        story.append(Spacer(1, 2 * mm))
    return story


def trail_pdf(
    entries: list[OperationLog], *, account: str, filters: str, zone: tzinfo, now: datetime, progress=None
) -> bytes:
    """The PDF; `progress` (api.report.formats.Progress) is told of every flowable laid out (two passes)."""
    generated = now.astimezone(zone).isoformat(timespec="seconds")
    footer = gettext("Audit trail of %(account)s, generated %(time)s", account=account, time=generated)

    def build(page_count: int) -> tuple[bytes, int]:
        out = io.BytesIO()
        doc = _NumberedDoc(
            out,
            pagesize=PAGE,
            leftMargin=MARGIN,
            rightMargin=MARGIN,
            topMargin=MARGIN,
            bottomMargin=14 * mm,
            footer=footer,
            title=gettext("Audit trail"),
            progress=progress,
        )
        doc.page_count = page_count
        story = _story(entries, account=account, filters=filters, zone=zone, generated=generated)
        if progress is not None:
            progress.total = max(2 * len(story), 1)
        doc.build(story, onFirstPage=doc.draw_footer, onLaterPages=doc.draw_footer)
        return out.getvalue(), doc.page

    _, pages = build(0)  # counts the pages
    pdf, _ = build(pages)
    return pdf
