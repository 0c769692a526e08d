"""Cold storages, freezers and virtual storages: rooms built from the probes of one or more devices,
their cloud control through the device downlink, and the rolling-MKT alarm."""

from __future__ import annotations

from api.storage.report import register as register_report_kind


def register() -> None:
    """Plug into the report machinery (idempotent): the storage report kind."""
    register_report_kind()
