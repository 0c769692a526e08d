"""The calibration certificate as PDF (reportlab), generated from the recorded results: lab, customer,
instrument, the points table (reference, reading, error, expanded uncertainty, result), the
traceability statement, dates, the signature block and a QR code opening the public verification page.
One certificate per instrument; an order's file holds its certificates one after the other.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from xml.sax.saxutils import escape

from flask_babel import gettext
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from api.calibration.models import Application, ApplicationItem, CalibrationLab, Certificate, ServiceLevel
from api.extensions.i18n import N_, caller_zone
from api.identity.models import Account
from api.report.pdf import font_name, qr_drawing

FRAME_WIDTH = A4[0] - 36 * mm
DEFAULT_LAB = "Calibration Laboratory"
LEVEL_NAMES = {
    ServiceLevel.STANDARD: N_("Standard"),
    ServiceLevel.EXPRESS: N_("Express"),
    ServiceLevel.ACCREDITED: N_("Accredited (ISO/IEC 17025)"),
}


def number(value: float) -> str:
    return f"{value:.3f}"


def _styles() -> dict[str, ParagraphStyle]:
    font = font_name()
    return {
        "title": ParagraphStyle("title", fontName=font, fontSize=16, leading=20, alignment=1, spaceAfter=4),
        "sub": ParagraphStyle("sub", fontName=font, fontSize=9, leading=12, alignment=1, textColor=colors.grey),
        "h": ParagraphStyle("h", fontName=font, fontSize=10.5, leading=14, spaceBefore=8, spaceAfter=3),
        "cell": ParagraphStyle("cell", fontName=font, fontSize=8.5, leading=11),
        "small": ParagraphStyle("small", fontName=font, fontSize=8, leading=10.5, textColor=colors.HexColor("#444444")),
    }


def points_rows(item: ApplicationItem) -> list[list[str]]:
    """The points table exactly as printed: header, then one row per recorded point in point order."""
    header = [
        gettext("No."),
        gettext("Reference (%(u)s)", u=item.unit),
        gettext("Reading (%(u)s)", u=item.unit),
        gettext("Error (%(u)s)", u=item.unit),
        gettext("U, k=2 (%(u)s)", u=item.unit),
        gettext("Result"),
    ]
    rows = [header]
    for r in sorted(item.results, key=lambda r: r.point_no):
        rows.append(
            [
                str(r.point_no),
                number(r.reference),
                number(r.reading),
                number(r.error),
                number(r.uncertainty),
                gettext("Pass") if r.passed else gettext("Fail"),
            ]
        )
    return rows


def _certificate(
    cert: Certificate,
    item: ApplicationItem,
    application: Application,
    lab: CalibrationLab | None,
    owner: Account | None,
    link: str,
    styles: dict,
) -> list:
    zone = caller_zone()
    lab_name = lab.name if lab else DEFAULT_LAB
    story: list = [
        Paragraph(escape(lab_name), styles["title"]),
        Paragraph(
            escape(" · ".join(x for x in (lab.address if lab else None, lab.accreditation if lab else None) if x)),
            styles["sub"],
        ),
        Spacer(1, 4 * mm),
        Paragraph(gettext("Calibration Certificate"), styles["title"]),
        Paragraph(escape(gettext("Certificate No. %(n)s", n=cert.number)), styles["sub"]),
        Spacer(1, 4 * mm),
    ]
    info = [
        [gettext("Customer"), application.company, gettext("Order No."), application.order_no],
        [gettext("Contact"), application.contact, gettext("Account"), owner.user_name if owner else ""],
        [gettext("Instrument"), item.device_model, gettext("Serial / GUID"), item.serial],
        [gettext("Measuring range"), item.range_text or "", gettext("Service level"), gettext(LEVEL_NAMES[item.level])],
        [
            gettext("Date of calibration"),
            cert.issued_at.astimezone(zone).strftime("%Y-%m-%d"),
            gettext("Next calibration due"),
            cert.next_due_at.astimezone(zone).strftime("%Y-%m-%d"),
        ],
    ]
    cell = styles["cell"]
    info_table = Table(
        [[Paragraph(escape(str(v)), cell) for v in row] for row in info],
        colWidths=[FRAME_WIDTH * w for w in (0.18, 0.32, 0.2, 0.3)],
    )
    info_table.setStyle(
        TableStyle(
            [
                ("GRID", (0, 0), (-1, -1), 0.4, colors.HexColor("#bbbbbb")),
                ("BACKGROUND", (0, 0), (0, -1), colors.HexColor("#f2f4f7")),
                ("BACKGROUND", (2, 0), (2, -1), colors.HexColor("#f2f4f7")),
            ]
        )
    )
    story += [info_table, Paragraph(gettext("Results"), styles["h"])]
    rows = points_rows(item)
    table = Table(
        [[Paragraph(escape(v), cell) for v in row] for row in rows],
        colWidths=[FRAME_WIDTH * w for w in (0.08, 0.19, 0.19, 0.18, 0.2, 0.16)],
        repeatRows=1,
    )
    style = [
        ("GRID", (0, 0), (-1, -1), 0.4, colors.HexColor("#bbbbbb")),
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e6ecf5")),
    ]
    for i, r in enumerate(sorted(item.results, key=lambda r: r.point_no), start=1):
        if not r.passed:
            style.append(("TEXTCOLOR", (5, i), (5, i), colors.HexColor("#c62828")))
    table.setStyle(TableStyle(style))
    story.append(table)
    verdict = gettext("Conforms at every point.") if cert.passed else gettext("Does not conform at every point.")
    story += [
        Spacer(1, 2 * mm),
        Paragraph(escape(verdict), cell),
        Paragraph(gettext("Traceability"), styles["h"]),
        Paragraph(
            escape(
                gettext(
                    "The reference standards used are traceable to national measurement standards (SI units) "
                    "through an unbroken chain of calibrations. Error = reading - reference value. The expanded "
                    "uncertainty U is stated at a coverage factor k = 2, a coverage probability of about 95 per cent. "
                    "The results relate only to the instrument calibrated. This certificate shall not be "
                    "reproduced except in full without the written approval of the laboratory."
                )
            ),
            styles["small"],
        ),
        Spacer(1, 6 * mm),
    ]
    signature = Table(
        [
            [
                Paragraph(escape(gettext("Calibrated by")), cell),
                Paragraph(escape(gettext("Approved signatory")), cell),
                qr_drawing(link, 26 * mm),
            ],
            [
                Paragraph("______________________", cell),
                Paragraph(escape(lab.signatory if lab and lab.signatory else "______________________"), cell),
                Paragraph(escape(gettext("Scan to verify")), styles["small"]),
            ],
        ],
        colWidths=[FRAME_WIDTH * 0.36, FRAME_WIDTH * 0.36, FRAME_WIDTH * 0.28],
    )
    signature.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"), ("SPAN", (2, 0), (2, 0))]))
    story += [signature, Paragraph(escape(link), styles["small"])]
    return story


def build(
    certificates: list[tuple[Certificate, ApplicationItem]],
    application: Application,
    lab: CalibrationLab | None,
    owner: Account | None,
    verify_url: Callable[[str], str],
) -> bytes:
    styles = _styles()
    story: list = []
    for i, (cert, item) in enumerate(certificates):
        if i:
            story.append(PageBreak())
        story += _certificate(cert, item, application, lab, owner, verify_url(cert.verify_code), styles)
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(
        buffer,
        pagesize=A4,
        leftMargin=18 * mm,
        rightMargin=18 * mm,
        topMargin=16 * mm,
        bottomMargin=16 * mm,
        title=gettext("Calibration Certificate"),
        author=lab.name if lab else DEFAULT_LAB,
        invariant=1,
    )
    doc.build(story)
    return buffer.getvalue()
