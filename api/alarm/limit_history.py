"""The history of sensor limits: every change of a `SensorLimit` (saved by its owner, armed by a
waybill, restored when the waybill completes, seeded by the demo) closes the period in force
(valid_to) and opens a new one (a sensor's first limits: valid since ever), with who changed it and
why (the request's reason, api/audit). Written in the same flush as the change, whatever path made
it, so no change goes unrecorded; reports apply the limits in force at each reading's time
(`schedule`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from flask import g, has_request_context
from sqlalchemy import inspect, select
from sqlalchemy.orm import Session

from api.alarm.models import SensorLimit, SensorLimitHistory
from api.extensions.db import db, utcnow
from api.extensions.reasons import change_reason
from api.identity.models import Account

FIELDS = ("upper", "lower", "delay_minutes", "enabled")
# A sensor's first limits apply to its earlier readings too (nothing else was ever in force; the
# migration seeded the limits of the time the same way); every later change applies from its time.
SINCE_EVER = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class LimitPeriod:
    """Limits in force from `start` (UTC) on: None where the limit is off (or disabled)."""

    start: datetime
    lower: float | None
    upper: float | None
    delay_minutes: int
    changed_by: str | None = None
    reason: str | None = None


def _who_and_why() -> tuple[int | None, str | None]:
    if not has_request_context():
        return None, None
    account = g.get("account")
    return (account.id if account is not None else None), change_reason()


def _changed(session: Session, limit: SensorLimit) -> bool:
    state = inspect(limit)
    return any(state.attrs[name].history.has_changes() for name in FIELDS)


def record_history(session: Session, _context, _instances) -> None:
    touched: list[tuple[SensorLimit, bool]] = [(x, False) for x in session.new if isinstance(x, SensorLimit)]
    touched += [(x, False) for x in session.dirty if isinstance(x, SensorLimit) and _changed(session, x)]
    touched += [(x, True) for x in session.deleted if isinstance(x, SensorLimit)]
    if not touched:
        return
    now = utcnow()
    who, why = _who_and_why()
    with session.no_autoflush:
        for limit, gone in touched:
            if limit.device_id is None or limit.sensor is None:
                continue
            open_rows = session.scalars(
                select(SensorLimitHistory).where(
                    SensorLimitHistory.device_id == limit.device_id,
                    SensorLimitHistory.sensor == limit.sensor,
                    SensorLimitHistory.valid_to.is_(None),
                )
            )
            closed = 0
            for row in open_rows:
                row.valid_to = now
                closed += 1
            known = closed or session.scalar(
                select(SensorLimitHistory.id).where(
                    SensorLimitHistory.device_id == limit.device_id, SensorLimitHistory.sensor == limit.sensor
                )
            )
            session.add(
                SensorLimitHistory(
                    device_id=limit.device_id,
                    sensor=limit.sensor,
                    upper=None if gone else limit.upper,
                    lower=None if gone else limit.lower,
                    delay_minutes=0 if gone else (limit.delay_minutes or 0),
                    enabled=False if gone else (limit.enabled is not False),
                    valid_from=now if known else SINCE_EVER,
                    changed_by=who,
                    reason=why,
                )
            )


def schedule(device_id: int, sensor: int, start: datetime, end: datetime) -> list[LimitPeriod] | None:
    """The limits in force over [start, end): the period in force at `start` first, then each change
    inside the range; None when the sensor has no history (its current limits then apply)."""
    rows = db.session.execute(
        select(SensorLimitHistory, Account.user_name)
        .outerjoin(Account, Account.id == SensorLimitHistory.changed_by)
        .where(
            SensorLimitHistory.device_id == device_id,
            SensorLimitHistory.sensor == sensor,
            SensorLimitHistory.valid_from < end,
            (SensorLimitHistory.valid_to.is_(None)) | (SensorLimitHistory.valid_to > start),
        )
        .order_by(SensorLimitHistory.valid_from, SensorLimitHistory.id)
    ).all()
    if not rows:
        earlier = db.session.scalar(
            select(SensorLimitHistory.id).where(
                SensorLimitHistory.device_id == device_id, SensorLimitHistory.sensor == sensor
            )
        )
        return None if earlier is None else [LimitPeriod(start, None, None, 0)]
    periods = []
    for row, user_name in rows:
        on = row.enabled
        periods.append(
            LimitPeriod(
                max(row.valid_from, start),
                row.lower if on else None,
                row.upper if on else None,
                row.delay_minutes if on else 0,
                user_name,
                row.reason,
            )
        )
    if periods[0].start > start:  # no limit in force before the first period: none applied
        periods.insert(0, LimitPeriod(start, None, None, 0))
    return periods


def limit_periods(device_id: int) -> list[dict]:
    """Every period of a device's limits, newest first, with the name of who changed them."""
    rows = db.session.execute(
        select(SensorLimitHistory, Account.user_name)
        .outerjoin(Account, Account.id == SensorLimitHistory.changed_by)
        .where(SensorLimitHistory.device_id == device_id)
        .order_by(SensorLimitHistory.valid_from.desc(), SensorLimitHistory.id.desc())
    ).all()
    return [
        {
            "sensor": row.sensor,
            "upper": row.upper,
            "lower": row.lower,
            "delay_minutes": row.delay_minutes,
            "enabled": row.enabled,
            "valid_from": row.valid_from,
            "valid_to": row.valid_to,
            "changed_by_name": user_name,
            "reason": row.reason,
        }
        for row, user_name in rows
    ]
