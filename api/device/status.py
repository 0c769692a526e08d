"""Device states (business-domain section 4), derived from the device row and its latest state,
never from history. One definition serves Python (detail) and SQL (list filters, home counts)."""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import and_, case, or_

from api.device.models import Device, DeviceState


class DeviceStatus(enum.StrEnum):
    DEACTIVATED = "deactivated"  # scrapped
    DISABLED = "disabled"  # stopUsing
    EXPIRED = "expired"  # service expired
    NOT_ENABLED = "not_enabled"  # never reported
    OFFLINE = "offline"
    FAULT = "fault"
    ALARM = "alarm"
    ONLINE = "online"


def status_of(device: Device, state: DeviceState | None, now: datetime) -> DeviceStatus:
    if device.scrapped_at is not None:
        return DeviceStatus.DEACTIVATED
    if not device.enabled:
        return DeviceStatus.DISABLED
    if device.service_expires_at is not None and device.service_expires_at < now:
        return DeviceStatus.EXPIRED
    if state is None or state.last_data_at is None:
        return DeviceStatus.NOT_ENABLED
    if state.offline_at is None or state.offline_at < now:
        return DeviceStatus.OFFLINE
    if state.fault:
        return DeviceStatus.FAULT
    if state.alarm_active:
        return DeviceStatus.ALARM
    return DeviceStatus.ONLINE


def status_conditions(now: datetime) -> dict[DeviceStatus, object]:
    """Mutually exclusive SQL conditions, in the same order as status_of (device LEFT JOIN state)."""
    deactivated = Device.scrapped_at.is_not(None)
    disabled = and_(~deactivated, Device.enabled.is_(False))
    expired = and_(
        ~deactivated, Device.enabled.is_(True), Device.service_expires_at.is_not(None), Device.service_expires_at < now
    )
    live = and_(
        ~deactivated,
        Device.enabled.is_(True),
        or_(Device.service_expires_at.is_(None), Device.service_expires_at >= now),
    )
    not_enabled = and_(live, DeviceState.last_data_at.is_(None))
    reporting = and_(live, DeviceState.last_data_at.is_not(None))
    offline = and_(reporting, or_(DeviceState.offline_at.is_(None), DeviceState.offline_at < now))
    connected = and_(reporting, DeviceState.offline_at >= now)
    fault = and_(connected, DeviceState.fault.is_(True))
    alarm = and_(connected, DeviceState.fault.is_(False), DeviceState.alarm_active.is_(True))
    online = and_(connected, DeviceState.fault.is_(False), DeviceState.alarm_active.is_(False))
    return {
        DeviceStatus.DEACTIVATED: deactivated,
        DeviceStatus.DISABLED: disabled,
        DeviceStatus.EXPIRED: expired,
        DeviceStatus.NOT_ENABLED: not_enabled,
        DeviceStatus.OFFLINE: offline,
        DeviceStatus.FAULT: fault,
        DeviceStatus.ALARM: alarm,
        DeviceStatus.ONLINE: online,
    }


def status_case(now: datetime):
    return case(*((cond, status.value) for status, cond in status_conditions(now).items()))
