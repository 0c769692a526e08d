"""The history of a device's name and time zone: every change (claimed, renamed, moved to another
zone) closes the period in force (valid_to) and opens a new one (a device's first: valid since
ever), with who changed it and why (the request's reason, api/audit). Written in the same flush as
the change, whatever path made it, so no change goes unrecorded; reports print the name and zone in
force over their period and each change inside it (`identity_periods`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from flask import g, has_request_context
from sqlalchemy import inspect, select
from sqlalchemy.orm import Session

from api.device.models import Device, DeviceHistory
from api.extensions.db import db, utcnow
from api.extensions.reasons import change_reason
from api.identity.models import Account

FIELDS = ("name", "time_zone")
# A device's first name and zone apply to its earlier readings too (nothing else was in force).
SINCE_EVER = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class IdentityPeriod:
    """The name and zone in force from `start` (UTC) to `end` (None: still), who set them and why."""

    start: datetime
    end: datetime | None
    name: str | None
    time_zone: str
    changed_by_id: int | None = None
    changed_by: str | None = None
    reason: str | None = None


def _who_and_why() -> tuple[int | None, str | None]:
    if not has_request_context():
        return None, None
    account = g.get("account")
    return (account.id if account is not None else None), change_reason()


def _changed(device: Device) -> bool:
    state = inspect(device)
    return any(state.attrs[name].history.has_changes() for name in FIELDS)


def record_history(session: Session, _context, _instances) -> None:
    touched = [x for x in session.dirty if isinstance(x, Device) and x.owner_account_id is not None and _changed(x)]
    if not touched:
        return
    now = utcnow()
    who, why = _who_and_why()
    with session.no_autoflush:
        for device in touched:
            closed = 0
            for row in session.scalars(
                select(DeviceHistory).where(DeviceHistory.device_id == device.id, DeviceHistory.valid_to.is_(None))
            ):
                row.valid_to = now
                closed += 1
            known = closed or session.scalar(select(DeviceHistory.id).where(DeviceHistory.device_id == device.id))
            session.add(
                DeviceHistory(
                    device_id=device.id,
                    name=device.name,
                    time_zone=device.time_zone or "UTC",
                    valid_from=now if known else SINCE_EVER,
                    changed_by=who,
                    reason=why,
                )
            )


def identity_periods(device: Device, start: datetime, end: datetime) -> list[IdentityPeriod]:
    """The name and zone in force over [start, end): the one in force at `start` first, then each
    change inside the range. A device without a history has its current name and zone throughout."""
    rows = db.session.execute(
        select(DeviceHistory, Account.user_name)
        .outerjoin(Account, Account.id == DeviceHistory.changed_by)
        .where(
            DeviceHistory.device_id == device.id,
            DeviceHistory.valid_from < end,
            (DeviceHistory.valid_to.is_(None)) | (DeviceHistory.valid_to > start),
        )
        .order_by(DeviceHistory.valid_from, DeviceHistory.id)
    ).all()
    if not rows:
        return [IdentityPeriod(start, None, device.name, device.time_zone)]
    return [
        IdentityPeriod(row.valid_from, row.valid_to, row.name, row.time_zone, row.changed_by, user_name, row.reason)
        for row, user_name in rows
    ]
