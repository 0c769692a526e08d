"""The font every generated PDF uses: one with Chinese glyphs (reports, certificates, audit trails)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfbase.ttfonts import TTFont

TTF_CANDIDATES = (
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/wqy-microhei/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
)


@cache
def font_name() -> str:
    """WenQuanYi when installed, else reportlab's built-in CID font."""
    for candidate in TTF_CANDIDATES:
        if Path(candidate).exists():
            pdfmetrics.registerFont(TTFont("ReportSans", candidate, subfontIndex=0))
            return "ReportSans"
    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    return "STSong-Light"
