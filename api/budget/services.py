"""The budget of a waybill's goods and of a storage's lots, live from the readings, and the one
threshold alarm each raises (through the alarm area's lifecycle: message centre, push settings,
escalation)."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import or_, select

from api.alarm import lifecycle
from api.alarm.models import AlarmKind
from api.budget.compute import BudgetPass, Profile, worst
from api.budget.models import StabilityProfile, StorageLot, WaybillBudget
from api.budget.profiles import usable
from api.device.models import Device
from api.extensions.db import db, utcnow
from api.storage.models import ColdStorage
from api.storage.tabs import temperature_probes
from api.telemetry.queries import stream_readings
from api.waybill import services as waybills
from api.waybill.models import Waybill, WaybillState

# A window that ended may still receive back-filled readings: it is checked for a day afterwards.
LATE_CHECK = timedelta(days=1)


def _ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def probe_budget(profile: Profile, device: Device, sensor: int, start: datetime, end: datetime) -> dict:
    """One probe's budget over [start, end]: one ordered pass over its readings (a server-side cursor)."""
    run = BudgetPass(profile, _ms(start), _ms(end), device.interval_s)
    for ms, _sensor, value, _late in stream_readings(device.id, [sensor], start, end):
        if value is not None:
            run.add(ms, value)
    return run.result()


def _answer(
    profile: StabilityProfile | None, start, end, figures: dict | None, disposition: dict, zone: str | None = None
) -> dict:
    base = {"profile": profile, "windowStart": start, "windowEnd": end, "timeZone": zone, "bands": [], "gaps": []}
    if figures is not None:
        base |= figures
    required = bool(figures and figures["exhausted"]) and disposition.get("disposition") is None
    return base | disposition | {"dispositionRequired": required}


# ---- waybills ---------------------------------------------------------------------------------------------


def waybill_window(waybill: Waybill, now: datetime) -> tuple[datetime, datetime] | None:
    if waybill.started_at is None:
        return None
    end = waybill.completed_at if waybill.state == WaybillState.COMPLETED and waybill.completed_at else now
    return waybill.started_at, max(end, waybill.started_at)


def waybill_figures(waybill: Waybill, profile: StabilityProfile, now: datetime) -> tuple[tuple | None, dict | None]:
    window = waybill_window(waybill, now)
    if window is None:
        return None, None
    device = db.session.get(Device, waybill.device_id)
    return window, probe_budget(Profile.of(profile), device, waybill.sensor, *window)


def waybill_budget(waybill_id: int, now: datetime | None = None) -> dict:
    waybill, device = waybills.find(waybill_id)
    zone = device.time_zone
    assignment = db.session.scalar(select(WaybillBudget).where(WaybillBudget.waybill_id == waybill.id))
    disposition = {
        "disposition": waybill.disposition.value if waybill.disposition else None,
        "dispositionReason": waybill.disposition_reason,
        "disposedAt": waybill.disposed_at,
    }
    if assignment is None:
        return _answer(None, None, None, None, disposition, zone)
    profile = db.session.get(StabilityProfile, assignment.profile_id)
    window, figures = waybill_figures(waybill, profile, now or utcnow())
    start, end = window or (None, None)
    marks = {"alerted": assignment.alerted_at is not None, "alarmId": assignment.alarm_id}
    return _answer(profile, start, end, figures, disposition, zone) | marks


def assign_waybill(args: dict) -> dict:
    waybill, _device = waybills.find(args["waybillId"], write=True)
    profile = usable(args.get("profileId"))
    assignment = db.session.scalar(select(WaybillBudget).where(WaybillBudget.waybill_id == waybill.id))
    if profile is None:
        if assignment is not None:
            db.session.delete(assignment)
    elif assignment is None:
        db.session.add(WaybillBudget(waybill_id=waybill.id, profile_id=profile.id))
    elif assignment.profile_id != profile.id:
        assignment.profile_id, assignment.alerted_at, assignment.alarm_id = profile.id, None, None
    db.session.commit()
    return waybill_budget(waybill.id)


# ---- lots -------------------------------------------------------------------------------------------------


def lot_window(lot: StorageLot, now: datetime) -> tuple[datetime, datetime]:
    end = lot.removed_at if lot.removed_at is not None and lot.removed_at < now else now
    return lot.placed_at, max(end, lot.placed_at)


def lot_figures(lot: StorageLot, profile: StabilityProfile, now: datetime) -> tuple[tuple, dict | None, list]:
    """The lot's window, its worst probe's figures (the storage's temperature probes, each judged),
    and (device, figures) of each probe."""
    window = lot_window(lot, now)
    storage = db.session.get(ColdStorage, lot.storage_id)
    per_probe = []
    for device_id, sensor in temperature_probes(storage) if storage is not None else []:
        device = db.session.get(Device, device_id)
        if device is not None and not device.deleted:
            per_probe.append((device, probe_budget(Profile.of(profile), device, sensor, *window)))
    return window, worst([figures for _device, figures in per_probe]), per_probe


def lot_budget(lot: StorageLot, now: datetime | None = None) -> dict:
    disposition = {
        "disposition": lot.disposition.value if lot.disposition else None,
        "dispositionReason": lot.disposition_reason,
        "disposedAt": lot.disposed_at,
    }
    storage = db.session.get(ColdStorage, lot.storage_id)
    zone = storage.time_zone if storage is not None else None
    if lot.profile_id is None:
        return _answer(None, None, None, None, disposition, zone)
    profile = db.session.get(StabilityProfile, lot.profile_id)
    (start, end), figures, _probes = lot_figures(lot, profile, now or utcnow())
    marks = {"alerted": lot.alerted_at is not None, "alarmId": lot.alarm_id}
    return _answer(profile, start, end, figures, disposition, zone) | marks


# ---- the threshold alarm ------------------------------------------------------------------------------------


def _raise(device: Device, figures: dict, now: datetime) -> int:
    """The device's budget alarm opens at once (message, flag, first notifications in this transaction)."""
    active = lifecycle.active_alarms(device.id)
    used = max((band["usedPercent"] for band in figures["bands"]), default=None)
    alarm = lifecycle.breach(device, active, AlarmKind.BUDGET, None, used, now, now, limit=None)
    db.session.flush()
    return alarm.id


def _locked(stmt):
    """Rows another pass holds are skipped (it raises their alarm); the flag is read again under the lock."""
    if db.engine.dialect.name == "postgresql":
        return stmt.with_for_update(skip_locked=True)
    return stmt


def check_budgets(now: datetime | None = None) -> int:
    """Every assignment whose threshold alarm is not raised yet: its budget now; at the threshold the
    alarm opens and the assignment is marked, in one transaction each (so a second pass, or a
    concurrent one, raises nothing again). Returns how many alarms were raised."""
    now = now or utcnow()
    raised = 0
    since = now - LATE_CHECK
    waybill_ids = db.session.scalars(
        select(WaybillBudget.id)
        .join(Waybill, Waybill.id == WaybillBudget.waybill_id)
        .where(
            WaybillBudget.alerted_at.is_(None),
            Waybill.started_at.is_not(None),
            or_(Waybill.state == WaybillState.IN_PROGRESS, Waybill.completed_at >= since),
        )
    ).all()
    for assignment_id in waybill_ids:
        raised += check_waybill(assignment_id, now)
    lot_ids = db.session.scalars(
        select(StorageLot.id).where(
            StorageLot.profile_id.is_not(None),
            StorageLot.alerted_at.is_(None),
            or_(StorageLot.removed_at.is_(None), StorageLot.removed_at >= since),
        )
    ).all()
    for lot_id in lot_ids:
        raised += _check_lot(lot_id, now)
    return raised


def check_waybill(assignment_id: int, now: datetime) -> int:
    """One assignment's check (the periodic pass, and an upload's queued job): 1 if it raised the alarm."""
    assignment = db.session.scalar(_locked(select(WaybillBudget).where(WaybillBudget.id == assignment_id)))
    if assignment is None or assignment.alerted_at is not None:
        db.session.rollback()
        return 0
    waybill = db.session.get(Waybill, assignment.waybill_id)
    profile = db.session.get(StabilityProfile, assignment.profile_id)
    _window, figures = waybill_figures(waybill, profile, now)
    if not figures or not figures["alert"]:
        db.session.rollback()
        return 0
    assignment.alarm_id = _raise(db.session.get(Device, waybill.device_id), figures, now)
    assignment.alerted_at = now
    db.session.commit()
    return 1


def _check_lot(lot_id: int, now: datetime) -> int:
    lot = db.session.scalar(_locked(select(StorageLot).where(StorageLot.id == lot_id)))
    if lot is None or lot.alerted_at is not None or lot.profile_id is None:
        db.session.rollback()
        return 0
    profile = db.session.get(StabilityProfile, lot.profile_id)
    _window, figures, per_probe = lot_figures(lot, profile, now)
    alerted = [(device, probe) for device, probe in per_probe if probe["alert"]]
    if not figures or not alerted:
        db.session.rollback()
        return 0
    lot.alarm_id = _raise(alerted[0][0], figures, now)
    lot.alerted_at = now
    db.session.commit()
    return 1
