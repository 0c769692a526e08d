"""Push settings of a device (the 'notification settings' tab) and the owner's sensor limits."""

from __future__ import annotations

from flask_babel import gettext
from sqlalchemy import select

from api.alarm.models import AlarmRecipient, PushSetting, SensorLimit
from api.alarm.recipients import CONTACT, ON_CALL, schedule_allowed
from api.device.models import Device
from api.extensions import outbound
from api.extensions.db import db
from api.extensions.field_rules import level_minutes_problem
from api.extensions.smorest import ApiError, field_error
from api.notify.models import Channel


def as_dict(device: Device, setting: PushSetting | None) -> dict:
    """The setting as the tab shows it; a device without one gets the empty single-level form."""
    if setting is None:
        # Nothing saved: the first save's defaults, shown switched off.
        return {
            "device_id": device.id,
            **FIRST_SAVE,
            "enabled": False,
            "webhook_secret_set": False,
            "sms_count": device.sms_count,
            "voice_count": device.voice_count,
            "saved": False,
        }
    levels = []
    for number, minutes in enumerate(setting.level_minutes, 1):
        recipients = [_recipient_shown(r) for r in setting.recipients if r.level == number]
        levels.append({"level": number, "minutes": minutes, "recipients": recipients})
    return {
        "device_id": device.id,
        "enabled": setting.enabled,
        "multi_level": setting.multi_level,
        "levels": levels,
        "channels": list(setting.channels),
        "repeat_count": setting.repeat_count,
        "repeat_until_ack": setting.repeat_until_ack,
        "interval_minutes": setting.interval_minutes,
        "delay_minutes": setting.delay_minutes,
        "schedule_start": setting.schedule_start,
        "schedule_end": setting.schedule_end,
        "urgent_kinds": list(setting.urgent_kinds),
        "webhook_url": setting.webhook_url,
        "webhook_secret_set": bool(setting.webhook_secret),
        "sms_count": device.sms_count,
        "voice_count": device.voice_count,
        "saved": True,
    }


def _recipient_shown(r: AlarmRecipient) -> dict:
    """A contact as it always was (name, phone, email, lang); an on-call entry with its kind and schedule."""
    if r.kind == ON_CALL:
        return {"kind": ON_CALL, "schedule_id": r.schedule_id, "name": r.name or None, "lang": r.lang}
    return {"name": r.name, "phone": r.phone, "email": r.email, "lang": r.lang}


# What a first save starts from (the schema's former defaults); a later save starts from what is stored.
FIRST_SAVE = {
    "enabled": True,
    "multi_level": False,
    "levels": [],
    "channels": [],
    "repeat_count": 0,
    "repeat_until_ack": False,
    "interval_minutes": 10,
    "delay_minutes": 0,
    "schedule_start": None,
    "schedule_end": None,
    "urgent_kinds": [],
    "webhook_url": None,
}
SETTING_FIELDS = tuple(key for key in FIRST_SAVE if key != "levels")


def merged(device: Device, setting: PushSetting | None, data: dict) -> dict:
    """The whole setting a save asks for: what it sends over what is stored, so a partial form never
    drops what it does not show. Levels merge by number (a level's omitted minutes or recipients keep
    the stored ones; stored levels the save does not name are kept); `level_count`, when sent, is the
    number of levels kept (the way to remove levels 2 and 3)."""
    stored = FIRST_SAVE if setting is None else as_dict(device, setting)
    whole = {key: (data[key] if key in data else stored[key]) for key in SETTING_FIELDS}
    by_number = {level["level"]: dict(level) for level in stored["levels"]}
    for level in data.get("levels") or []:
        by_number[level["level"]] = {**by_number.get(level["level"], {}), **level}
    count = data.get("level_count")
    levels = [by_number[n] for n in sorted(by_number) if count is None or n <= count]
    for index, level in enumerate(levels):
        for field in ("minutes", "recipients"):
            if field not in level:
                raise field_error(f"levels.{index}.{field}", gettext("This field is required."))
    if not levels:
        raise field_error("levels", gettext("This field is required."))
    whole["levels"] = levels
    whole["webhook_secret"] = data.get("webhook_secret")
    return whole


def validate_levels(multi_level: bool, levels: list[dict], sent: list[dict] | None = None) -> None:
    """Levels numbered 1..n in order, one for single-level; minutes rising strictly 1 < 2 < 3;
    recipients' phones and emails unique within a level. A single-level setting keeps its stored
    levels 2 and 3 (unused until it is multi-level again), but a save may not send them."""
    if not multi_level and sent is not None and len(sent) > 1:
        raise field_error("levels", gettext("A single-level setting has exactly one level."))
    if [level["level"] for level in levels] != list(range(1, len(levels) + 1)):
        raise field_error("levels", gettext("Levels must be numbered 1 to %(n)s in order.", n=len(levels)))
    # The shared rule (rules/fields.json, the web applies the same one): within range, rising strictly.
    if level_minutes_problem([level["minutes"] for level in (levels if multi_level else levels[:1])]):
        raise ApiError(gettext("Alarm time setting error"), code=4201)
    for index, level in enumerate(levels):
        for field in ("phone", "email"):
            values = [r[field] for r in level["recipients"] if r.get(field) and r.get("kind") != ON_CALL]
            if len(values) != len(set(values)):
                message = gettext("Each phone and email may appear only once per level.")
                raise field_error(f"levels.{index}.recipients.{field}", message)


def save(device: Device, data: dict) -> PushSetting:
    """Save the device's push setting as one object: the fields and levels sent over the stored ones
    (see `merged`); nothing is stored unless all of it is valid."""
    setting = db.session.get(PushSetting, device.id)
    whole = merged(device, setting, data)
    validate_levels(whole["multi_level"], whole["levels"], data.get("levels"))
    if whole["webhook_url"] and Channel.WEBHOOK.value in whole["channels"]:
        try:
            outbound.check_url(whole["webhook_url"])
        except outbound.OutboundRefusedError as refused:
            raise field_error("webhookUrl", refused.message) from None
    if bool(whole["schedule_start"]) != bool(whole["schedule_end"]):
        message = gettext("Enter both the start and the end of the scheduled hours.")
        raise field_error("scheduleEnd", message)
    if Channel.WEBHOOK.value in whole["channels"] and not whole["webhook_url"]:
        raise field_error("webhookUrl", gettext("This field is required."))
    _check_on_call(device, whole["levels"])
    if setting is None:
        setting = PushSetting(device_id=device.id)
        db.session.add(setting)
    for key in SETTING_FIELDS:
        setattr(setting, key, whole[key])
    setting.channels = sorted(set(whole["channels"]))
    setting.level_minutes = [level["minutes"] for level in whole["levels"]]
    if whole.get("webhook_secret"):
        setting.webhook_secret = whole["webhook_secret"]
    if setting.webhook_url and not setting.webhook_secret:
        raise field_error("webhookSecret", gettext("This field is required."))
    setting.recipients = [
        AlarmRecipient(level=level["level"], **_recipient(r)) for level in whole["levels"] for r in level["recipients"]
    ]
    db.session.flush()
    return setting


def _recipient(r: dict) -> dict:
    if r.get("kind") == ON_CALL:
        # The person is resolved at each send; the entry keeps only the schedule (and a label).
        return {
            "kind": ON_CALL,
            "schedule_id": r.get("schedule_id"),
            "name": r.get("name") or "",
            "lang": r.get("lang", "zh-CN"),
        }
    return {
        "kind": CONTACT,
        "name": r["name"],
        "phone": r.get("phone"),
        "email": r.get("email"),
        "lang": r.get("lang", "zh-CN"),
    }


def _check_on_call(device: Device, levels: list[dict]) -> None:
    """An on-call entry names one of the device owner's schedules, or none (the device's by scope)."""
    for index, level in enumerate(levels):
        for number, r in enumerate(level["recipients"]):
            named = r.get("schedule_id") if r.get("kind") == ON_CALL else None
            if named is not None and not schedule_allowed(device, named):
                field = f"levels.{index}.recipients.{number}.scheduleId"
                raise field_error(field, gettext("The requested resource does not exist."))


# ---- sensor limits -----------------------------------------------------------------------------------


def limits(device: Device) -> list[SensorLimit]:
    return list(
        db.session.scalars(select(SensorLimit).where(SensorLimit.device_id == device.id).order_by(SensorLimit.sensor))
    )


def save_limits(device: Device, rows: list[dict]) -> list[SensorLimit]:
    """Each sensor of the device's type, within the parameter's range (upper > lower is checked by the
    schema); the whole list replaces the old one."""
    ranges = {p.probe_id: p for p in device.device_type.params if p.probe_id is not None and p.param_type == "sensor"}
    seen = set()
    for index, row in enumerate(rows):
        param = ranges.get(row["sensor"])
        if param is None:
            raise field_error(f"limits.{index}.sensor", gettext("This device has no such sensor."))
        if row["sensor"] in seen:
            raise field_error(f"limits.{index}.sensor", gettext("Each sensor may appear only once."))
        seen.add(row["sensor"])
        for key, field in (("upper", "upperLimit"), ("lower", "lowerLimit")):
            value = row.get(key)
            if value is None:
                continue
            if (param.param_min is not None and value < param.param_min) or (
                param.param_max is not None and value > param.param_max
            ):
                message = gettext("Must be between %(min)s and %(max)s.", min=param.param_min, max=param.param_max)
                raise field_error(f"limits.{index}.{field}", message)
    existing = {limit.sensor: limit for limit in limits(device)}
    for row in rows:
        limit = existing.pop(row["sensor"], None) or SensorLimit(device_id=device.id, sensor=row["sensor"])
        limit.upper, limit.lower = row.get("upper"), row.get("lower")
        limit.delay_minutes, limit.enabled = row["delay_minutes"], row["enabled"]
        db.session.add(limit)
    for stale in existing.values():
        db.session.delete(stale)
    db.session.flush()
    return limits(device)
