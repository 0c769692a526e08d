"""The stability budget printed on the trip report and the storage report: registered with their
areas' section lists (api/waybill/report.TRIP_SECTIONS, api/storage/report.STORAGE_SECTIONS), so
neither area knows this one. The budget is the one at the report's end; the disposition the one
recorded."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from flask_babel import gettext
from sqlalchemy import select

from api.budget.models import StabilityProfile, StorageLot, WaybillBudget
from api.budget.services import lot_figures, waybill_figures
from api.extensions.db import db
from api.extensions.i18n import local_text
from api.storage import report as storage_report
from api.storage.models import ColdStorage
from api.waybill import report as trip_report
from api.waybill.models import Waybill

Section = tuple[str, list[list[str]], bool]


def band_label(band: dict, range_high: float) -> str:
    low, high = band["low"], band["high"]
    if low is not None and low >= range_high:
        return f"> {low:g} °C" if high is None else f"{low:g} < t ≤ {high:g} °C"
    return f"< {high:g} °C" if low is None else f"{low:g} ≤ t < {high:g} °C"


def _duration(seconds: int) -> str:
    return trip_report.duration_text(round(seconds / 60))


def disposition_text(value: str | None) -> str:
    return {
        "released": gettext("Released"),
        "quarantined": gettext("Quarantined"),
        "rejected": gettext("Rejected"),
    }.get(value or "", gettext("Not recorded"))


def _band_rows(profile: StabilityProfile, figures: dict) -> list[list[str]]:
    rows = [[gettext("Band"), gettext("Allowed"), gettext("Used"), gettext("Remaining")]]
    for band in figures["bands"]:
        used = f"{_duration(band['usedSeconds'])} ({band['usedPercent']:g} %)"
        if band["exhausted"]:
            used += " " + gettext("exhausted")
        rows.append(
            [
                band_label(band, profile.range_high),
                _duration(band["allowedSeconds"]),
                used,
                _duration(band["remainingSeconds"]),
            ]
        )
    return rows


def _mkt_text(figures: dict) -> str:
    mkt = "-" if figures["mkt"] is None else f"{figures['mkt']:.2f} °C"
    if figures["mktLimit"] is None:
        return mkt
    return f"{mkt} / {figures['mktLimit']:g} °C"


def trip_sections(waybill: Waybill, end: datetime, zone: ZoneInfo) -> list[Section]:
    assignment = db.session.scalar(select(WaybillBudget).where(WaybillBudget.waybill_id == waybill.id))
    if assignment is None:
        return []
    profile = db.session.get(StabilityProfile, assignment.profile_id)
    _window, figures = waybill_figures(waybill, profile, end)
    if figures is None:
        return []
    summary = [
        [gettext("Stability profile"), profile.name, gettext("MKT / limit"), _mkt_text(figures)],
        [
            gettext("Unknown (gaps)"),
            _duration(figures["unknownSeconds"]),
            gettext("Disposition"),
            disposition_text(waybill.disposition.value if waybill.disposition else None),
        ],
    ]
    return [
        (gettext("Stability budget"), summary, False),
        (gettext("Stability bands"), _band_rows(profile, figures), True),
    ]


def storage_sections(storage: ColdStorage, start: datetime, end: datetime, zone: ZoneInfo) -> list[Section]:
    lots = db.session.scalars(
        select(StorageLot)
        .where(
            StorageLot.storage_id == storage.id,
            StorageLot.placed_at < end,
            (StorageLot.removed_at.is_(None)) | (StorageLot.removed_at >= start),
        )
        .order_by(StorageLot.placed_at, StorageLot.id)
    ).all()
    if not lots:
        return []
    rows = [[gettext("Lot"), gettext("Placed"), gettext("Budget"), gettext("Disposition")]]
    for lot in lots:
        name = f"{lot.product} {lot.lot_number or ''} × {lot.quantity}".replace("  ", " ")
        placed = local_text(lot.placed_at, zone, seconds=False)
        budget = gettext("No profile")
        if lot.profile_id is not None:
            profile = db.session.get(StabilityProfile, lot.profile_id)
            _window, figures, _probes = lot_figures(lot, profile, end)
            if figures is not None:
                budget = "; ".join(
                    f"{band_label(b, profile.range_high)}: {_duration(b['usedSeconds'])} / "
                    f"{_duration(b['allowedSeconds'])}"
                    for b in figures["bands"]
                )
                budget = f"{profile.name}: {budget}; MKT {_mkt_text(figures)}"
        disposition = disposition_text(lot.disposition.value if lot.disposition else None)
        if lot.disposition_reason:
            disposition += f" ({lot.disposition_reason})"
        rows.append([name, placed, budget, disposition])
    return [(gettext("Lots and stability budgets"), rows, True)]


def install() -> None:
    for registry, contributor in (
        (trip_report.TRIP_SECTIONS, trip_sections),
        (storage_report.STORAGE_SECTIONS, storage_sections),
    ):
        if contributor not in registry:
            registry.append(contributor)
