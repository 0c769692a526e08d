"""The IQ/OQ document as PDF, in the audit trail's house style (api/audit/pdf.py): the system's
identification, the installation qualification, per clause the tests that prove it with their results
(operational qualification), a summary and the hash of the results file. Written in English, the
language of the regulations it quotes."""

from __future__ import annotations

import io
from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from api.extensions.pdf_fonts import font_name
from api.validation.installation import Item
from api.validation.results import ClauseResult, Outcome, Verdict

PAGE = landscape(A4)
MARGIN = 12 * mm
TITLE = "Validation report (IQ/OQ): 21 CFR Part 11 and EU GMP Annex 11"
VERDICT_COLOURS = {Verdict.MET: "#1a7f37", Verdict.NOT_MET: "#cf222e", Verdict.PROCEDURAL: "#57606a"}


@dataclass(frozen=True)
class Evidence:
    """Everything the document prints."""

    identification: list[Item]
    installation: list[Item]
    clauses: list[ClauseResult]
    results_name: str
    results_sha256: str
    run_totals: Counter
    generated: datetime


class _Styles:
    def __init__(self):
        font = font_name()
        self.title = ParagraphStyle("title", fontName=font, fontSize=15, leading=19, spaceAfter=4)
        self.heading = ParagraphStyle(
            "heading", fontName=font, fontSize=11, leading=14, spaceBefore=6, spaceAfter=3, keepWithNext=1
        )
        self.body = ParagraphStyle("body", fontName=font, fontSize=8.5, leading=11)
        self.cell = ParagraphStyle("cell", fontName=font, fontSize=7, leading=8.5, wordWrap="CJK")


def _table(rows: list[list[str]], widths_mm: tuple[float, ...], styles: _Styles, header: bool = True) -> Table:
    grid = [("GRID", (0, 0), (-1, -1), 0.25, colors.grey), ("VALIGN", (0, 0), (-1, -1), "TOP")]
    if header:
        grid.append(("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#f0f0f0")))
    cells = [[Paragraph(escape(text), styles.cell) for text in row] for row in rows]
    return Table(cells, colWidths=[w * mm for w in widths_mm], style=TableStyle(grid), repeatRows=int(header))


def _items(items: list[Item], styles: _Styles) -> Table:
    rows = [["Item", "Value", "Check"]] + [[i.name, i.value, "ok" if i.ok else "ATTENTION"] for i in items]
    return _table(rows, (70, 180, 23), styles)


def _clause(result: ClauseResult, styles: _Styles) -> list:
    clause = result.clause
    colour = VERDICT_COLOURS[result.verdict]
    heading = (
        f'{escape(clause.label)}: {escape(clause.title)} <font color="{colour}">[{escape(result.verdict.value)}]</font>'
    )
    flowables = [Paragraph(heading, styles.heading)]
    if result.verdict is Verdict.PROCEDURAL:
        flowables.append(Paragraph(escape(f"Procedural control: {clause.procedural}"), styles.body))
    elif not result.tests:
        flowables.append(Paragraph("No test is mapped to this clause.", styles.body))
    else:
        rows = [["Test (pytest node id)", "Result", "Cases", "Duration (s)"]]
        rows += [[t.node_id, t.outcome.value, str(t.cases), f"{t.seconds:.2f}"] for t in result.tests]
        flowables.append(_table(rows, (200, 25, 18, 30), styles))
    return flowables


def _summary(evidence: Evidence, styles: _Styles) -> list:
    verdicts = Counter(result.verdict for result in evidence.clauses)
    # A test that proves several clauses counts once.
    distinct = {test.node_id: test.outcome for result in evidence.clauses for test in result.tests}
    mapped = Counter(distinct.values())
    unmet = [result.clause.label for result in evidence.clauses if result.verdict is Verdict.NOT_MET]
    totals = evidence.run_totals
    lines = [
        f"Clauses: {len(evidence.clauses)}; met: {verdicts[Verdict.MET]}; not met: {verdicts[Verdict.NOT_MET]}; "
        f"procedural: {verdicts[Verdict.PROCEDURAL]}.",
        "Mapped tests: " + "; ".join(f"{outcome.value}: {mapped[outcome]}" for outcome in Outcome) + ".",
        f"The whole run: {sum(totals.values())} test cases; "
        + "; ".join(
            f"{outcome.value}: {totals[outcome]}" for outcome in (Outcome.PASSED, Outcome.FAILED, Outcome.SKIPPED)
        )
        + ".",
        "Conclusion: every clause is met by passing tests or is procedural."
        if not unmet
        else f"Conclusion: NOT MET: {', '.join(unmet)}.",
        f"Results file: {evidence.results_name}",
        f"SHA-256 of the results file: {evidence.results_sha256}",
    ]
    return [Paragraph(escape(line), styles.body) for line in lines]


def _story(evidence: Evidence) -> list:
    styles = _Styles()
    story = [
        Paragraph(escape(TITLE), styles.title),
        Paragraph(escape(f"Generated {evidence.generated.isoformat(timespec='seconds')}"), styles.body),
        Paragraph(
            escape(
                "Each clause lists the automated tests that prove it (docs/validation/part11.yaml) and their "
                "results in this run. A clause is met when each of its tests ran, none failed and one passed."
            ),
            styles.body,
        ),
        Paragraph("1. System identification", styles.heading),
        _items(evidence.identification, styles),
        Paragraph("2. Installation qualification (IQ)", styles.heading),
        _items(evidence.installation, styles),
        Paragraph("3. Operational qualification (OQ)", styles.heading),
    ]
    for result in evidence.clauses:
        story += _clause(result, styles)
    story += [Paragraph("4. Summary", styles.heading), *_summary(evidence, styles), Spacer(1, 4 * mm)]
    return story


def report_pdf(evidence: Evidence) -> bytes:
    """Laid out twice: the first pass counts the pages, the second prints "page n of m"."""
    footer = f"{TITLE} · results SHA-256 {evidence.results_sha256[:16]}…"

    def build(pages: int | None) -> tuple[bytes, int]:
        out = io.BytesIO()

        def draw_footer(canvas, doc) -> None:
            canvas.saveState()
            canvas.setFont(font_name(), 7)
            canvas.drawRightString(PAGE[0] - MARGIN, 7 * mm, f"{footer} · page {doc.page} of {pages or '?'}")
            canvas.restoreState()

        doc = SimpleDocTemplate(
            out,
            pagesize=PAGE,
            leftMargin=MARGIN,
            rightMargin=MARGIN,
            topMargin=MARGIN,
            bottomMargin=14 * mm,
            title=TITLE,
            invariant=1,
        )
        doc.build(_story(evidence), onFirstPage=draw_footer, onLaterPages=draw_footer)
        return out.getvalue(), doc.page

    _content, pages = build(None)
    return build(pages)[0]
