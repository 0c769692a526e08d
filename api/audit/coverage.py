"""Changes that must each be named by an entry of the trail. The chain proves that no entry was
removed or changed; it cannot see an entry that was never written. Where a change leaves a journal
of its own, `flask audit verify` looks for it on the trail: every device event written by a
signed-in call (the device's own log: added, edited, enabled, disabled, scrapped, deleted, a
maintenance record, parameters sent, a waybill started or stopped) since the chain began must be
named by an entry (its row, `device_event#id`, in the entry's "after"). Events written by the
platform itself (a settled order's recharge, an over-the-air upgrade) are not signed-in calls.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select

from api.device.models import Device, DeviceEvent
from api.extensions.db import db

# The actions api.device.services.log_event writes, only ever inside a signed-in mutating call.
SIGNED_IN_DEVICE_ACTIONS = (
    "add",
    "edit",
    "enable",
    "stopUsing",
    "scrap",
    "delete",
    "record",
    "setParams",
    "waybillStartRequested",
    "waybillStart",
    "waybillStop",
)


def named_rows(entry, into: dict[str, set[str]]) -> None:
    """Note the journal rows an entry names."""
    for item in entry.after or []:
        if isinstance(item, dict) and item.get("table") == DeviceEvent.__tablename__:
            into.setdefault(DeviceEvent.__tablename__, set()).add(str(item.get("id")))


def first_unlogged(platform_id: int, since: datetime, named: dict[str, set[str]]) -> DeviceEvent | None:
    """The oldest device event of a signed-in call since `since` that no entry names."""
    known = named.get(DeviceEvent.__tablename__, set())
    rows = db.session.execute(
        select(DeviceEvent.id, DeviceEvent.created_at)
        .join(Device, Device.id == DeviceEvent.device_id)
        .where(
            Device.platform_id == platform_id,
            DeviceEvent.created_at >= since,
            DeviceEvent.action.in_(SIGNED_IN_DEVICE_ACTIONS),
        )
        .order_by(DeviceEvent.id)
        .execution_options(yield_per=5000)
    )
    for event_id, _ in rows:
        if str(event_id) not in known:
            return db.session.get(DeviceEvent, event_id)
    return None
