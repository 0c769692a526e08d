"""Evaluation: on ingest (limits, probe faults, battery; any data closes an offline alarm) through
the ingestion seam, and on a schedule (offline, battery) by `sweep`."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CompoundSelect, Row, and_, exists, func, null, select, union_all

from api.alarm import lifecycle
from api.alarm.lifecycle import Opening, breach, recover
from api.alarm.models import Alarm, AlarmKind, AlarmRule
from api.alarm.rules import LIMIT_COLUMNS, LOW_BATTERY_PERCENT, enabled_limits_query, limits_of, rules_for_type
from api.device.models import Device, DeviceState
from api.extensions.db import db, one_of, one_of_param, per_dialect, utcnow
from api.telemetry.device_auth import IngestedDevice
from api.telemetry.ingest import REPLAY, BatchLookup, batch_context
from api.telemetry.records import Record


@per_dialect
def _limits_and_active_alarm_ids() -> CompoundSelect:
    """The devices' enabled limits (rows as `enabled_limits` gives them, alarm_id NULL) and the ids of
    their active alarms (the limit columns NULL), in one query."""
    limits = enabled_limits_query().add_columns(null().label("alarm_id"))
    alarms = select(Alarm.device_id, *(null() for _ in LIMIT_COLUMNS[1:]), Alarm.id).where(
        one_of_param(Alarm.device_id, "ids"), Alarm.status.in_(lifecycle.ACTIVE)
    )
    return union_all(limits, alarms)


def take_limits_and_active_alarms(rows: list, devices: list[IngestedDevice]) -> None:
    """Registered in BATCH_LOOKUPS with `_limits_and_active_alarm_ids`: the limits and active alarms
    of a batch's devices, not two queries per device (on_readings takes each device's share once;
    rules are snapshots). The lookup finds the limits and which alarms are active; the alarms
    themselves are loaded only if there are any (most uploads come from devices within their
    limits: no query of their own, no ORM load)."""
    limits: dict[int, dict[int, Row]] = {device.id: {} for device in devices if device.owner_account_id is not None}
    alarm_ids = []
    for row in rows:
        if row.device_id not in limits:
            continue  # an unclaimed device is not evaluated
        if row.alarm_id is None:
            limits[row.device_id][row.sensor] = row
        else:
            alarm_ids.append(row.alarm_id)
    active: dict[int, dict] = {device_id: {} for device_id in limits}
    if alarm_ids:
        # Still active now (one may have been closed since the lookup).
        for alarm in db.session.scalars(
            select(Alarm).where(one_of(Alarm.id, alarm_ids), Alarm.status.in_(lifecycle.ACTIVE))
        ):
            active[alarm.device_id][(alarm.kind, alarm.sensor)] = alarm
    context = batch_context()
    context["alarm.limits"], context["alarm.active"] = limits, active


LIMITS_AND_ACTIVE_ALARMS = BatchLookup(_limits_and_active_alarm_ids, take_limits_and_active_alarms)


def on_readings(device: IngestedDevice, records: list[Record], now: datetime | None = None) -> None:
    """Registered in READING_HANDLERS: runs inside the ingestion transaction (the device_state row
    is locked by then, so one device is evaluated by one ingestion at a time)."""
    if device.owner_account_id is None or not records:
        return
    now = now or utcnow()
    context = batch_context() or {}
    rules = rules_for_type(device.device_type_id)  # a per-process snapshot: no query per device
    prepared_limits, prepared_active = context.get("alarm.limits", {}), context.get("alarm.active", {})
    limits = prepared_limits.pop(device.id) if device.id in prepared_limits else limits_of(device.id)
    active = prepared_active.pop(device.id) if device.id in prepared_active else lifecycle.active_alarms(device.id)
    if not active and _within_limits(records, limits, rules):
        return  # nothing to open, and no alarm to close
    replay = bool(context.get(REPLAY))  # a replay of live data: each reading as of its own time
    for record in sorted(records, key=lambda r: r.ts):
        at = record.ts if replay else now
        for sensor, value in record.readings.items():
            _sensor(device, active, rules, limits.get(sensor), sensor, value, record.ts, at)
        battery = rules[AlarmKind.BATTERY]
        if record.battery is not None and battery.active and battery.threshold is not None:
            if record.battery < battery.threshold:
                breach(device, active, AlarmKind.BATTERY, None, record.battery, record.ts, at, limit=battery.threshold)
            else:
                recover(device, active, AlarmKind.BATTERY, None, record.ts)
    latest = max(r.ts for r in records)
    recover(device, active, AlarmKind.OFFLINE, None, latest)


def _within_limits(records: list[Record], limits: dict, rules) -> bool:
    """No record of the batch breaches an active rule: no probe fault, no reading past its limit, no
    battery below its threshold (so, with no active alarm, evaluating each reading changes nothing).
    Per sensor, the builtins find the extremes: a fraction of evaluating every reading."""
    fault, battery = rules[AlarmKind.FAULT].active, rules[AlarmKind.BATTERY]
    battery_floor = battery.threshold if battery.active else None
    for record in records:
        if fault and None in record.readings.values():
            return False
        if battery_floor is not None and record.battery is not None and record.battery < battery_floor:
            return False
    upper_on, lower_on = rules[AlarmKind.UPPER].active, rules[AlarmKind.LOWER].active
    for sensor, limit in limits.items():
        values = [value for record in records if (value := record.readings.get(sensor)) is not None]
        if not values:
            continue
        if upper_on and limit.upper is not None and max(values) > limit.upper:
            return False
        if lower_on and limit.lower is not None and min(values) < limit.lower:
            return False
    return True


def _sensor(device, active, rules, limit, sensor: int, value: float | None, ts: datetime, now: datetime) -> None:
    """One reading against the device's rules and its sensor's limit. Called for every reading of
    every upload: a reading within its limits on a device without active alarms returns after a
    few comparisons (a recovery only ever closes an active alarm)."""
    if value is None:
        if rules[AlarmKind.FAULT].active:
            breach(device, active, AlarmKind.FAULT, sensor, None, ts, now)
        return
    if active:
        recover(device, active, AlarmKind.FAULT, sensor, ts)
    if limit is None:
        return
    upper, lower = limit.upper, limit.lower
    if upper is not None and value > upper and rules[AlarmKind.UPPER].active:
        breach(device, active, AlarmKind.UPPER, sensor, value, ts, now, limit=upper, delay_minutes=limit.delay_minutes)
    elif active:
        recover(device, active, AlarmKind.UPPER, sensor, ts, value)
    if lower is not None and value < lower and rules[AlarmKind.LOWER].active:
        breach(device, active, AlarmKind.LOWER, sensor, value, ts, now, limit=lower, delay_minutes=limit.delay_minutes)
    elif active:
        recover(device, active, AlarmKind.LOWER, sensor, ts, value)


def _live_devices():
    return (
        select(Device, DeviceState)
        .join(DeviceState, DeviceState.device_id == Device.id)
        .where(
            Device.owner_account_id.is_not(None),
            Device.deleted.is_(False),
            Device.enabled.is_(True),
            Device.scrapped_at.is_(None),
        )
    )


def _no_active(kind: AlarmKind):
    return ~exists().where(and_(Alarm.device_id == Device.id, Alarm.kind == kind, Alarm.status.in_(lifecycle.ACTIVE)))


def sweep(now: datetime | None = None, batch: int = 500) -> int:
    """Open offline alarms for devices past their deadline and battery alarms for low batteries
    (devices whose state rows are locked by an ingestion right now are left for the next run)."""
    now = now or utcnow()
    opened = 0
    offline = _live_devices().where(DeviceState.offline_at < now, _no_active(AlarmKind.OFFLINE))
    # Only batteries below the highest threshold any rule uses are candidates (so a large fleet of
    # healthy batteries never fills the batch).
    highest = db.session.scalar(
        select(func.max(AlarmRule.threshold)).where(
            AlarmRule.alarm_kind == AlarmKind.BATTERY, AlarmRule.active_default.is_(True)
        )
    )
    ceiling = max(highest or 0.0, LOW_BATTERY_PERCENT)
    low = _live_devices().where(DeviceState.battery < ceiling, _no_active(AlarmKind.BATTERY))
    for stmt, kind in ((offline, AlarmKind.OFFLINE), (low, AlarmKind.BATTERY)):
        rows = db.session.execute(stmt.limit(batch).with_for_update(of=DeviceState, skip_locked=True)).all()
        # Opened by an ingestion since the candidates' snapshot (this query sees what it committed):
        # nothing to open there.
        taken = set(
            db.session.scalars(
                select(Alarm.device_id).where(
                    one_of(Alarm.device_id, [device.id for device, _state in rows]),
                    Alarm.kind == kind,
                    Alarm.status.in_(lifecycle.ACTIVE),
                )
            )
        )
        openings: list[Opening] = []
        for device, state in rows:
            rule = rules_for_type(device.device_type_id)[kind]
            if device.id in taken or not rule.active:
                continue
            if kind == AlarmKind.OFFLINE:
                # Dated at the deadline; any data newer than the last before the silence closes it.
                last_seen_at = min(state.last_data_at or state.offline_at, state.offline_at)
                openings.append(Opening(device, kind, None, state.offline_at, last_seen_at=last_seen_at))
            elif rule.threshold is not None and state.battery < rule.threshold:
                openings.append(Opening(device, kind, state.battery, state.last_data_at or now, limit=rule.threshold))
        opened += lifecycle.open_at_once(openings, now)
        db.session.commit()
    return opened
