"""The alarm lifecycle: a breach starts (delaying), becomes an alarm after the rule's delay (open,
with a message for the owner and its first notifications in the same transaction), is updated
while it lasts (peak, last value) and closes on recovery. A breach that recovers within its delay
leaves nothing behind."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import exists, select

from api.alarm.escalation import plan_back_in_range, plan_sends, push_settings
from api.alarm.holds import held
from api.alarm.models import Alarm, AlarmKind, AlarmStatus, CloseReason, Message, MessageType
from api.device.models import Device, DeviceState
from api.extensions.db import db, insert_rows, utcnow
from api.telemetry.device_auth import IngestedDevice

# A device as ingestion hands it over (a plain row) or as the sweeps load it: the ids are what is read.
AlarmedDevice = Device | IngestedDevice

ACTIVE = (AlarmStatus.DELAYING, AlarmStatus.OPEN)
Key = tuple[AlarmKind, int | None]


def active_alarms(device_id: int) -> dict[Key, Alarm]:
    rows = db.session.scalars(select(Alarm).where(Alarm.device_id == device_id, Alarm.status.in_(ACTIVE)))
    return {(alarm.kind, alarm.sensor): alarm for alarm in rows}


def _worse(kind: AlarmKind, old: float | None, new: float | None) -> float | None:
    if old is None or new is None:
        return new if old is None else old
    return max(old, new) if kind == AlarmKind.UPPER else min(old, new)


def breach(
    device: AlarmedDevice,
    active: dict[Key, Alarm],
    kind: AlarmKind,
    sensor: int | None,
    value: float | None,
    ts: datetime,
    now: datetime,
    *,
    limit: float | None = None,
    delay_minutes: int = 0,
) -> Alarm:
    """The breach goes on (or starts); past its delay it is an alarm."""
    alarm = active.get((kind, sensor))
    if alarm is None:
        alarm = _new_alarm(device, kind, sensor, value, ts, limit)
        db.session.add(alarm)
        active[(kind, sensor)] = alarm
    elif ts >= alarm.last_seen_at:
        alarm.peak_value = _worse(kind, alarm.peak_value, value)
        alarm.last_value = value
        alarm.last_seen_at = ts
        if limit is not None:
            alarm.limit_value = limit
    if (
        alarm.status == AlarmStatus.DELAYING
        and alarm.last_seen_at - alarm.breach_started_at >= timedelta(minutes=delay_minutes)
        and not (kind in (AlarmKind.UPPER, AlarmKind.LOWER) and held(device.id, sensor, now))
    ):
        open_alarm(device, alarm, now)
    return alarm


def _new_alarm(
    device: AlarmedDevice, kind: AlarmKind, sensor: int | None, value: float | None, ts: datetime, limit: float | None
) -> Alarm:
    return Alarm(
        platform_id=device.platform_id,
        owner_account_id=device.owner_account_id,
        device_id=device.id,
        kind=kind,
        sensor=sensor,
        status=AlarmStatus.DELAYING,
        breach_started_at=ts,
        last_seen_at=ts,
        limit_value=limit,
        first_value=value,
        peak_value=value,
        last_value=value,
        level_reached=0,
    )


def _mark_open(alarm: Alarm, now: datetime) -> None:
    alarm.status = AlarmStatus.OPEN
    # When the excursion became an alarm in the data's own time (for live data that is now): a
    # back-filled excursion is dated when it happened, and its recovery can never precede it.
    alarm.opened_at = min(now, alarm.last_seen_at)


def open_alarm(device: AlarmedDevice, alarm: Alarm, now: datetime) -> None:
    """The breach is an alarm now (added to the session): the owner's message, the device's alarm
    flag and the first notifications, in this transaction (the outbox rows are dispatched after
    commit)."""
    _mark_open(alarm, now)
    db.session.flush()  # the alarm's id, for its message
    opened = [(device, alarm)]
    db.session.add_all(_messages(opened, now))
    _flag_and_plan(opened, now)


@dataclass(frozen=True)
class Opening:
    """An alarm that opens on the spot, on a device with no active alarm of its kind (what the
    offline and battery sweeps find): its breach started at `ts`, when the alarm is dated (now, if `ts`
    is later), and its last data in the breach was at `last_seen_at` (default: `ts`)."""

    device: AlarmedDevice
    kind: AlarmKind
    value: float | None
    ts: datetime
    last_seen_at: datetime | None = None
    limit: float | None = None


def open_at_once(openings: list[Opening], now: datetime) -> int:
    """The openings' alarms, opened as `open_alarm` opens one; the alarms and their messages each written
    by one statement (`insert_rows`), not by the ORM's flush: a sweep opens hundreds at once. Returns
    how many opened."""
    if not openings:
        return 0
    opened = []
    for opening in openings:
        alarm = _new_alarm(opening.device, opening.kind, None, opening.value, opening.ts, opening.limit)
        _mark_open(alarm, now)
        if opening.last_seen_at is not None:
            alarm.last_seen_at = opening.last_seen_at
        opened.append((opening.device, alarm))
    insert_rows([alarm for _device, alarm in opened])
    insert_rows(_messages(opened, now))
    _flag_and_plan(opened, now)
    return len(opened)


def _messages(opened: list[tuple[AlarmedDevice, Alarm]], now: datetime) -> list[Message]:
    """The owners' message-centre rows of alarms that just opened (the alarms have their ids)."""
    return [
        Message(
            platform_id=alarm.platform_id,
            owner_account_id=alarm.owner_account_id,
            type=MessageType.ALARM,
            alarm_id=alarm.id,
            device_id=device.id,
            code=f"alarm.{alarm.kind.value}",
            params={},
            created_at=now,
        )
        for device, alarm in opened
        if alarm.owner_account_id is not None
    ]


def _flag_and_plan(opened: list[tuple[AlarmedDevice, Alarm]], now: datetime) -> None:
    """The devices' alarm flags, and the first notifications with one query for the push settings."""
    settings = push_settings([device.id for device, _alarm in opened])
    for device, alarm in opened:
        _set_flag(device.id, True)
        plan_sends(alarm, now, setting=settings.get(device.id))


def recover(
    device: AlarmedDevice,
    active: dict[Key, Alarm],
    kind: AlarmKind,
    sensor: int | None,
    ts: datetime,
    value: float | None = None,
) -> None:
    """The breach is over: a delaying one leaves nothing, an open alarm closes (a limit alarm whose
    levels were notified sends its back-in-range notice to them, once)."""
    alarm = active.get((kind, sensor))
    if alarm is None or ts < alarm.last_seen_at:
        return
    del active[(kind, sensor)]
    if alarm.status == AlarmStatus.DELAYING:
        if alarm.id is not None:
            db.session.delete(alarm)
        else:
            db.session.expunge(alarm)
        return
    alarm.status = AlarmStatus.CLOSED
    # Never before it opened: a back-filled recovery can be older than the moment the alarm was raised.
    alarm.closed_at = max(ts, alarm.opened_at) if alarm.opened_at else ts
    alarm.last_seen_at = ts
    db.session.flush()
    refresh_flag(device.id)
    plan_back_in_range(alarm, value, ts)


def refresh_flag(device_id: int) -> None:
    """device_state.alarm_active: does the device have an open alarm (lists and counts read it)."""
    is_open = db.session.scalar(select(exists().where(Alarm.device_id == device_id, Alarm.status == AlarmStatus.OPEN)))
    _set_flag(device_id, bool(is_open))


def _set_flag(device_id: int, value: bool) -> None:
    state = db.session.get(DeviceState, device_id)
    if state is not None and state.alarm_active != value:
        state.alarm_active = value


def close_for(alarm_ids: list[int], reason: CloseReason, ts: datetime) -> int:
    """Close these alarms (the ones still open or delaying) at `ts` for `reason` (shown in the alarm
    record): escalation stops with them and the devices' alarm flags follow. Returns how many closed."""
    if not alarm_ids:
        return 0
    closed, devices = 0, set()
    for alarm in db.session.scalars(select(Alarm).where(Alarm.id.in_(alarm_ids), Alarm.status.in_(ACTIVE))):
        devices.add(alarm.device_id)
        if alarm.status == AlarmStatus.DELAYING:
            db.session.delete(alarm)
            continue
        alarm.status, alarm.close_reason = AlarmStatus.CLOSED, CloseReason(reason).value
        alarm.closed_at = max(ts, alarm.opened_at) if alarm.opened_at else ts
        closed += 1
    db.session.flush()
    for device_id in devices:
        refresh_flag(device_id)
    return closed


def switch_off_alarms(device_ids: list[int], enabled: bool) -> None:
    """An asset's devices were switched off: close their open alarms (escalation stops with them),
    drop pending breaches and clear the devices' alarm flag. Runs in the asset's transaction."""
    if enabled or not device_ids:
        return
    close_device_alarms(device_ids, CloseReason.ASSET_DISABLED)


def close_retired(device_id: int, reason: str) -> None:
    """A device was disabled or scrapped (api/device/hooks): its open alarms close with the reason."""
    close_device_alarms([device_id], CloseReason(reason))


def close_device_alarms(device_ids: list[int], reason: CloseReason) -> None:
    """Close the devices' open alarms with `reason`, drop their pending breaches and clear their alarm
    flag, in the caller's transaction."""
    alarm_ids = db.session.scalars(
        select(Alarm.id).where(Alarm.device_id.in_(device_ids), Alarm.status.in_(ACTIVE))
    ).all()
    close_for(list(alarm_ids), reason, utcnow())
    for device_id in device_ids:
        _set_flag(device_id, False)
