"""Waybills: shipments with their logger, electric fences, public lookup and share links."""

from __future__ import annotations

from api.telemetry.ingest import BATCH_LOOKUPS, READING_HANDLERS
from api.waybill.report import register as register_report_kind
from api.waybill.services import OPEN_WAYBILL_DEVICES, on_readings


def register() -> None:
    """Plug into ingestion (idempotent): fence crossings, first uploads and arming run before the alarm
    evaluation of the same batch."""

    register_report_kind()
    if on_readings not in READING_HANDLERS:
        READING_HANDLERS.insert(0, on_readings)
    if OPEN_WAYBILL_DEVICES not in BATCH_LOOKUPS:
        BATCH_LOOKUPS.append(OPEN_WAYBILL_DEVICES)
