"""Alarm texts name the room, zone and probe with value, unit and limit, and a back-in-range notice
goes once to the levels that were notified (issue 47: texts said "probe 2", `{sensor}` printed "1",
values had no unit, and nothing said the value was back in range). Both languages."""

from __future__ import annotations

from datetime import timedelta

from flask_babel import force_locale, gettext

from api.alarm.escalation import escalate
from api.alarm.models import Alarm, AlarmKind
from api.alarm.rules import DEFAULT_RULES
from api.alarm.schemas import TEMPLATE_FIELDS
from api.alarm.texts import text_fields
from api.device.models import Device
from api.extensions.db import db
from tests.api.alarm.helpers import ALARM, open_alarm, outbox, set_limits
from tests.api.device_helpers import guids, minutes_ago, owner, upload
from tests.api.test_storage import S, ok, room

__all__ = ["guids", "owner", "room"]

LEVELS = [
    {"level": 1, "minutes": 0, "recipients": [{"name": "Ann", "email": "ann@example.com", "lang": "en-US"}]},
    {"level": 2, "minutes": 10, "recipients": [{"name": "Bo", "email": "bo@example.com", "lang": "zh-CN"}]},
    {"level": 3, "minutes": 30, "recipients": [{"name": "Cy", "email": "cy@example.com", "lang": "en-US"}]},
]


def room_with_alarm(app, client, owner, room):
    probes = [{"deviceId": room["controller"], "sensor": 3, "zone": "evaporator", "probeName": "Coil probe"}]
    body = {"storageName": "Cold Room A", "controllerGuid": room["guid"], "probes": probes}
    ok(client.post(f"{S}/ColdStorage/insert", json=body, headers=owner))
    push = {"deviceId": room["controller"], "multiLevel": True, "levels": LEVELS, "channels": ["email"]}
    ok(client.post(f"{ALARM}/PushSetting/save", json=push, headers=owner))
    set_limits(client, owner, room["controller"], {"sensor": 3, "upperLimit": -10, "lowerLimit": -30})
    upload(client, room["guid"], room["key"], [{"ts": minutes_ago(0.5), "readings": {"3": -4.5}}])
    return open_alarm(app, room["controller"])


def gettext_in(locale: str, text: str) -> str:
    with force_locale(locale):
        return gettext(text)


def test_alarm_texts_name_room_zone_probe_with_units(app, client, owner, room):
    alarm = room_with_alarm(app, client, owner, room)
    [first] = outbox(app)
    assert first.recipient == "ann@example.com"
    for part in ("Cold Room A", "Evaporator", "Coil probe", "-4.5 °C", "-10 °C"):
        assert part in first.body and "sensor 3" not in first.body, first.body
    assert "Cold Room A" in first.subject
    with app.app_context():
        assert escalate(alarm.opened_at + timedelta(minutes=10)) == 1
    chinese = outbox(app)[-1]
    assert chinese.recipient == "bo@example.com"
    for part in ("Cold Room A", "蒸发器", "Coil probe", "-4.5 °C", "-10 °C"):
        assert part in chinese.body, chinese.body


def test_every_placeholder_renders_and_sensor_is_the_probes_name(app, client, owner, room):
    """`{sensor}` is the probe's name, never its number; every placeholder a template may use has a value."""
    room_with_alarm(app, client, owner, room)
    with app.app_context():
        device = db.session.get(Device, room["controller"])
        alarm = db.session.query(Alarm).filter_by(device_id=device.id).one()
        fields = text_fields(alarm, device, DEFAULT_RULES[AlarmKind.UPPER], 1)
        assert set(TEMPLATE_FIELDS) <= set(fields)
        assert fields["sensor"] == "Coil probe" and fields["value"] == "-4.5 °C" and fields["unit"] == "°C"
        # A probe in no room is named by its parameter (translated), never by its number.
        alarm.sensor = 2
        for locale, name in (("en_US", "Probe 2"), ("zh_CN", gettext_in("zh_CN", "Probe 2"))):
            with force_locale(locale):
                assert text_fields(alarm, device, DEFAULT_RULES[AlarmKind.UPPER], 1)["sensor"] == name != "2"
        db.session.rollback()


def test_back_in_range_goes_once_to_the_levels_that_were_notified(app, client, owner, room):
    alarm = room_with_alarm(app, client, owner, room)
    with app.app_context():
        assert escalate(alarm.opened_at + timedelta(minutes=10)) == 1  # levels 1 and 2 notified, not 3
    upload(client, room["guid"], room["key"], [{"ts": minutes_ago(0.2), "readings": {"3": -18.0}}])
    upload(client, room["guid"], room["key"], [{"ts": minutes_ago(0.1), "readings": {"3": -18.5}}])
    notices = [m for m in outbox(app) if ":back:" in (m.dedupe_key or "")]
    assert sorted(m.recipient for m in notices) == ["ann@example.com", "bo@example.com"]
    english = next(m for m in notices if m.recipient == "ann@example.com")
    assert "Back in range" in english.subject and "-18 °C" in english.body and "Coil probe" in english.body
    chinese = next(m for m in notices if m.recipient == "bo@example.com")
    assert "已恢复正常" in chinese.body and "蒸发器" in chinese.body


def test_the_message_centre_and_alarm_records_name_the_place_with_units(app, client, owner, room):
    room_with_alarm(app, client, owner, room)
    for lang, zone in (("en-US", "Evaporator"), ("zh-CN", "蒸发器")):
        headers = {**owner, "Accept-Language": lang}
        [row] = ok(client.post(f"{ALARM}/AlarmMessage/page", json={}, headers=headers))["list"]
        for part in ("Cold Room A", zone, "Coil probe", "-4.5 °C", "-10 °C"):
            assert part in row["content"], row["content"]
        assert (row["alarm"]["sensorName"], row["alarm"]["unit"]) == ("Coil probe", "°C")
        [alarm] = ok(client.post(f"{ALARM}/Alarm/page", json={"deviceId": room["controller"]}, headers=headers))["list"]
        assert alarm["place"] == f"Cold Room A · {zone} · Coil probe" and alarm["unit"] == "°C"
