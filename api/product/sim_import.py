"""Importing SIM cards from an XLSX sheet, and its template (/operation/sim/list, issue 47).

Columns are found by their header, in either language or as the field's name ("余额（元）",
"Balance (yuan)", "balance"), in any order; unknown columns are ignored. Money is read as written, in
yuan (20 is 20.00, 5.5 is 5.50; stored as integer cents); dates may be spreadsheet dates or text in the
common forms (2026-01-05, 2026/1/5, 2026.01.05, 20260105, 2026年1月5日, with an optional time), read
in the caller's time zone. Each row is added or reported with its row number and the first field's
message; nothing half-written."""

from __future__ import annotations

import io
import re
from datetime import UTC, date, datetime, time
from decimal import Decimal, InvalidOperation

from flask import send_file
from flask_babel import force_locale, gettext, lazy_gettext
from marshmallow import ValidationError
from openpyxl import Workbook, load_workbook
from sqlalchemy.exc import IntegrityError

from api.extensions import uploads
from api.extensions.db import db
from api.extensions.i18n import caller_zone
from api.extensions.offload import cpu_bound
from api.extensions.smorest import ApiError
from api.product.fleet import apply_sim, check_sim
from api.product.fleet_schemas import SimCardInputSchema
from api.product.models import SimCard
from api.product.services import field_error, operator

# The sheet's columns: field, its header (translated), an example value of the template.
COLUMNS = (
    ("cardNum", lazy_gettext("Card number"), "148600000000001"),
    ("iccId", lazy_gettext("ICCID"), "89860400000000000011"),
    ("operator", lazy_gettext("Carrier"), "China Mobile"),
    ("openTime", lazy_gettext("Opened on"), "2026-01-05"),
    ("activeTime", lazy_gettext("Activated on"), "2026/1/6"),
    ("expiredTime", lazy_gettext("Expires on"), "2027-01-05"),
    ("balance", lazy_gettext("Balance (yuan)"), "20.5"),
    ("remark", lazy_gettext("Remark"), ""),
)
REQUIRED = ("cardNum", "iccId")
DATES = ("openTime", "activeTime", "expiredTime")
LOCALES = ("zh_Hans_CN", "en_US")
DATE_FORMATS = ("%Y-%m-%d", "%Y/%m/%d", "%Y.%m.%d", "%Y%m%d", "%d/%m/%Y")
TIME_FORMATS = ("", " %H:%M", " %H:%M:%S", "T%H:%M", "T%H:%M:%S")


def _key(text: object) -> str:
    """A header as compared: no parenthesised unit, no spaces, underscores or case."""
    text = re.sub(r"[(（][^)）]*[)）]", "", str(text or ""))
    return re.sub(r"[\s_\-]+", "", text).casefold()


def _aliases() -> dict[str, str]:
    aliases = {_key(field): field for field, _label, _example in COLUMNS}
    for locale in LOCALES:
        with force_locale(locale):
            aliases.update({_key(str(label)): field for field, label, _example in COLUMNS})
    return aliases


def column_map(header: tuple) -> dict[int, str]:
    """Column index -> field, from the header row; refuses a sheet without the required columns."""
    aliases, found = _aliases(), {}
    for index, cell in enumerate(header):
        field = aliases.get(_key(cell))
        if field is not None and field not in found.values():
            found[index] = field
    missing = [str(label) for field, label, _example in COLUMNS if field in REQUIRED and field not in found.values()]
    if missing:
        message = gettext("The sheet has no column %(columns)s; download the template.", columns=", ".join(missing))
        raise uploads.import_refused("file", message, 422)
    return found


def money_cents(value: object) -> int:
    """Yuan as written -> cents: 20 -> 2000, 5.5 -> 550, "¥1,234.50" -> 123450."""
    text = str(value).strip().replace(",", "").replace("，", "").lstrip("¥￥").removesuffix("元").strip()
    try:
        amount = Decimal(text)
    except InvalidOperation:
        raise ValueError(gettext("Enter an amount in yuan, such as 20 or 5.50.")) from None
    if not amount.is_finite() or amount < 0 or amount != amount.quantize(Decimal("0.01")):
        raise ValueError(gettext("Enter an amount in yuan of at most two decimals, not negative."))
    return int(amount * 100)


def parse_date(value: object) -> datetime:
    """A spreadsheet date or a date written as text -> an aware datetime in the caller's zone."""
    if isinstance(value, datetime):
        moment = value
    elif isinstance(value, date):
        moment = datetime.combine(value, time())
    else:
        text = str(value).strip()
        text = re.sub(r"(\d+)年(\d+)月(\d+)日?", r"\1-\2-\3", text)
        moment = None
        for day in DATE_FORMATS:
            for clock in TIME_FORMATS:
                try:
                    moment = datetime.strptime(text, day + clock)
                except ValueError:
                    continue
                break
            if moment is not None:
                break
        if moment is None:
            raise ValueError(gettext("Enter a date such as 2026-01-05 or 2026/1/5."))
    return moment if moment.tzinfo else moment.replace(tzinfo=caller_zone())


def _text(value: object) -> str | None:
    if value is None or value == "":
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip() or None


def row_input(line: tuple, columns: dict[int, str]) -> dict:
    """One sheet row as the card's input (raising a field error for a value it cannot read)."""
    raw: dict = {}
    for index, field in columns.items():
        value = line[index] if index < len(line) else None
        if value is None or (isinstance(value, str) and not value.strip()):
            continue
        try:
            if field == "balance":
                raw[field] = money_cents(value)
            elif field in DATES:
                raw[field] = parse_date(value).astimezone(UTC).isoformat()
            else:
                raw[field] = _text(value)
        except ValueError as exc:
            raise ValidationError({field: [str(exc)]}) from None
    return {k: v for k, v in raw.items() if v is not None}


def _sheet_rows(content: bytes, max_row: int) -> list[tuple]:
    """The first sheet's rows as values (off the event loop: parsing a workbook is CPU-bound)."""
    sheet = load_workbook(io.BytesIO(content), read_only=True, data_only=True).worksheets[0]
    return list(sheet.iter_rows(values_only=True, max_row=max_row))


def import_sims(upload) -> dict:
    operator()
    # Size, and the workbook's zip directory (unpacked size, ratio), before openpyxl reads anything.
    content = uploads.read_import(upload, "xlsx")
    limit = uploads.IMPORTS["xlsx"].max_rows
    try:
        lines = cpu_bound(_sheet_rows, content, limit + 2)  # the header and one too many
    except Exception:  # any unreadable workbook is the same "file error" to the user
        raise uploads.import_refused("file", gettext("file error"), 415) from None
    if not lines:
        raise uploads.import_refused("file", gettext("file error"), 415)
    columns = column_map(lines[0])
    uploads.check_rows(len(lines) - 1, "xlsx")
    schema, results, imported, seen = SimCardInputSchema(), [], 0, set()
    for number, line in enumerate(lines[1:], start=2):
        if not any(cell not in (None, "") for cell in line):
            continue
        raw: dict = {}
        try:
            raw = row_input(line, columns)
            args = schema.load(raw)
            if args["iccId"] in seen:
                raise field_error("iccId", gettext("This ICCID is already registered."))
            with db.session.begin_nested():
                check_sim(args, None)
                sim = SimCard()
                apply_sim(sim, args)
                db.session.add(sim)
                db.session.flush()
        except ValidationError as exc:
            field, messages = next(iter(exc.normalized_messages().items()))
            results.append(
                {"row": number, "iccId": raw.get("iccId"), "ok": False, "message": f"{field}: {messages[0]}"}
            )
            continue
        except (ApiError, IntegrityError) as exc:
            message = exc.msg if isinstance(exc, ApiError) else gettext("This ICCID is already registered.")
            results.append({"row": number, "iccId": raw.get("iccId"), "ok": False, "message": message})
            continue
        seen.add(args["iccId"])
        imported += 1
        results.append({"row": number, "iccId": args["iccId"], "ok": True, "message": None})
    db.session.commit()
    return {"imported": imported, "rows": results}


def template():
    """The import sheet: headers in the caller's language and one example row."""
    operator()
    book = Workbook()
    sheet = book.active
    sheet.title = "SIM"
    sheet.append([str(label) for _field, label, _example in COLUMNS])
    sheet.append([example for _field, _label, example in COLUMNS])
    for index, width in enumerate((18, 24, 16, 14, 14, 14, 14, 20)):
        sheet.column_dimensions[chr(ord("A") + index)].width = width
    buffer = io.BytesIO()
    book.save(buffer)
    buffer.seek(0)
    return send_file(
        buffer,
        mimetype="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        as_attachment=True,
        download_name="sim-import-template.xlsx",
    )
