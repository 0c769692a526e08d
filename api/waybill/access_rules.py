"""The waybill area's object kinds, registered with the access layer's gate: a waybill (and each of
its share links) is reached through its logger, so reach and share templates are the device's."""

from __future__ import annotations

from sqlalchemy import select

from api.access.gate import register_kind
from api.device.access_rules import load_device
from api.extensions.db import db
from api.tenancy import data_platform_id
from api.waybill.models import Waybill, WaybillShare


def load_waybill(waybill_id: int) -> Waybill | None:
    return db.session.scalar(select(Waybill).where(Waybill.id == waybill_id, Waybill.platform_id == data_platform_id()))


def _load_share(share_id: int) -> WaybillShare | None:
    return db.session.get(WaybillShare, share_id)


def _device_of_share(share: WaybillShare):
    waybill = load_waybill(share.waybill_id)
    return load_device(waybill.device_id) if waybill is not None else None


def register() -> None:
    register_kind("waybill", load_waybill, device_of=lambda waybill: load_device(waybill.device_id))
    register_kind("waybillShare", _load_share, device_of=_device_of_share)
