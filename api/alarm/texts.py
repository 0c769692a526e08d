"""Alarm texts (SMS, voice, email, webhook) and back-in-range notices: they name the room, zone and
probe (api/alarm/places), with the value, its unit and the limit, in the recipient's language."""

from __future__ import annotations

import json
from datetime import datetime
from zoneinfo import ZoneInfo

from flask_babel import force_locale, gettext

from api.alarm.models import Alarm, AlarmKind
from api.alarm.places import place_of, probe_name, unit_of, zone_text
from api.alarm.rules import Rule, template
from api.device.models import Device
from api.extensions.i18n import local_text
from api.notify.models import Channel

KIND_TEXT = {
    AlarmKind.UPPER: "Above the upper limit",
    AlarmKind.LOWER: "Below the lower limit",
    AlarmKind.OFFLINE: "Device offline",
    AlarmKind.BATTERY: "Low battery",
    AlarmKind.FAULT: "Probe fault",
    AlarmKind.FENCE: "Electric fence crossed",
    AlarmKind.BUDGET: "Stability budget threshold reached",
}


def kind_text(kind: AlarmKind) -> str:
    return gettext(KIND_TEXT[kind])


# Extraction markers for the texts above (gettext needs the literal strings).
_MARKERS = (
    lambda: gettext("Above the upper limit"),
    lambda: gettext("Below the lower limit"),
    lambda: gettext("Device offline"),
    lambda: gettext("Low battery"),
    lambda: gettext("Probe fault"),
    lambda: gettext("Electric fence crossed"),
    lambda: gettext("Stability budget threshold reached"),
)


def _fmt(value: float | None, unit: str = "") -> str:
    if value is None:
        return "-"
    return f"{value:g} {unit}" if unit else f"{value:g}"


def _locale(lang: str) -> str:
    return "en_US" if lang.lower().startswith("en") else "zh_CN"


def text_fields(alarm: Alarm, device: Device, rule: Rule, level: int, value: float | None = None) -> dict[str, str]:
    """The placeholders of a template; call inside the recipient's locale. `{sensor}` is the probe's
    name; `{value}` and `{limit}` carry the unit; `{place}` is room · zone · probe (the probe's name
    alone when it is in no room, the device's name for an alarm of the whole device)."""
    # With its offset: a time in the DST change hour is otherwise ambiguous.
    opened = local_text(alarm.opened_at, ZoneInfo(device.time_zone), seconds=False)
    place = place_of(device.id, alarm.sensor)
    probe = probe_name(device, alarm.sensor, place)
    unit = unit_of(device, alarm.sensor, battery=alarm.kind == AlarmKind.BATTERY)
    parts = [place.room, zone_text(place.zone), probe] if place is not None else [probe]
    return {
        "device": device.name or device.guid,
        "guid": device.guid,
        "sensor": probe,
        "room": place.room if place is not None and place.room else "",
        "zone": zone_text(place.zone) if place is not None else "",
        "place": " · ".join(p for p in parts if p) or (device.name or device.guid),
        "unit": unit,
        "value": _fmt(alarm.last_value if value is None else value, unit),
        "limit": _fmt(alarm.limit_value, unit),
        "time": opened,
        "level": str(level),
        "alarm": rule.name or kind_text(alarm.kind),
    }


def render(alarm: Alarm, device: Device, rule: Rule, channel: Channel, lang: str, level: int) -> tuple[str, str]:
    """(subject, body) in the recipient's language: the rule's template for this channel if it has
    one in that language, else the built-in text."""
    locale = _locale(lang)
    with force_locale(locale):
        fields = text_fields(alarm, device, rule, level)
        subject = gettext("Alarm: %(alarm)s - %(place)s", alarm=fields["alarm"], place=fields["place"])
        chosen = template(rule.template_id)
        pattern = None
        if chosen is not None and chosen.type == channel.value:
            pattern = chosen.content.get(lang) or chosen.content.get("zh-CN" if locale == "zh_CN" else "en-US")
        if pattern:
            try:
                return subject, pattern.format_map(fields)
            except (KeyError, ValueError, IndexError):
                pass  # a broken template must not lose the alarm: fall back to the built-in text
        extra = " " + rule.content if rule.content else ""
        body = gettext(
            "%(alarm)s: %(place)s, value %(value)s, limit %(limit)s - %(device)s (%(guid)s), since %(time)s "
            "(level %(level)s).",
            **fields,
        )
        return subject, body + extra


def render_back_in_range(
    alarm: Alarm, device: Device, rule: Rule, lang: str, value: float | None, at: datetime
) -> tuple[str, str]:
    """(subject, body) of the notice that the alarm's value is within its limits again."""
    with force_locale(_locale(lang)):
        fields = text_fields(alarm, device, rule, alarm.level_reached or 1, value)
        fields["back"] = local_text(at, ZoneInfo(device.time_zone), seconds=False)
        subject = gettext("Back in range: %(place)s", place=fields["place"])
        body = gettext(
            "Back in range: %(place)s, value %(value)s, limit %(limit)s - %(device)s (%(guid)s), at %(back)s; "
            "the alarm (%(alarm)s) of %(time)s is closed.",
            **fields,
        )
        return subject, body


def webhook_body(alarm: Alarm, device: Device, rule: Rule, level: int, event: str = "alarm.opened", **extra) -> str:
    with force_locale("en_US"):
        fields = text_fields(alarm, device, rule, level)
    return json.dumps(
        {
            "event": event,
            "alarmId": alarm.id,
            "level": level,
            "kind": alarm.kind.value,
            "deviceGuid": device.guid,
            "deviceName": device.name,
            "sensor": alarm.sensor,
            "sensorName": fields["sensor"],
            "room": fields["room"] or None,
            "unit": fields["unit"] or None,
            "value": alarm.last_value,
            "peak": alarm.peak_value,
            "limit": alarm.limit_value,
            "openedAt": alarm.opened_at.isoformat(),
            **extra,
        },
        ensure_ascii=False,
    )
