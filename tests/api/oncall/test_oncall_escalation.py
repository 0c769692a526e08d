"""Push-setting levels that name "the person on call": resolved at each send on the escalation's
clock, so a hand-over during an alarm tells the new person (api/alarm/recipients.py, api/oncall/sources.py)."""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import select

from api.alarm.escalation import escalate
from api.alarm.models import AlarmRecipient
from api.device.models import Device
from api.extensions.db import db, utcnow
from api.oncall.models import OnCallSchedule
from api.oncall.sources import schedule_for
from api.storage.models import ColdStorage, StorageKind, StorageProbe
from tests.api.alarm.helpers import ALARM, open_alarm, outbox, record, set_limits
from tests.api.device_helpers import upload
from tests.api.org_helpers import ok

ONCALL = "/api/alarm/OnCallSchedule"
BERLIN = ZoneInfo("Europe/Berlin")


def contact(name):
    return {"name": name, "email": f"{name.lower()}@example.com"}


def hand_over(instant: datetime, person: dict) -> dict:
    local = instant.astimezone(BERLIN)
    return {"weekday": local.isoweekday(), "time": local.strftime("%H:%M"), "person": person}


def add_schedule(client, headers, rota, **extra):
    body = {"name": extra.pop("name", "Desk"), "timeZone": "Europe/Berlin", "rota": rota, **extra}
    return ok(client.post(f"{ONCALL}/insert", json=body, headers=headers))


def save_on_call(client, headers, device_id, entry, **extra):
    body = {
        "deviceId": device_id,
        "levels": [{"level": 1, "minutes": 0, "recipients": [entry]}],
        "channels": ["email"],
        **extra,
    }
    return client.post(f"{ALARM}/PushSetting/save", json=body, headers=headers).get_json()


def excursion(client, owner, guids, name, device_id):
    set_limits(client, owner, device_id, {"sensor": 1, "upperLimit": 8})
    guid, key = guids[name]
    upload(client, guid, key, [record(2, 5.0), record(1, 12.5)])


class TestSends:
    def test_the_person_on_call_is_told_and_after_a_hand_over_the_new_person(self, app, client, enterprise, guids):
        now = utcnow()
        # Ann has been on call for two hours; Bob takes over in about half an hour (on the minute).
        later = datetime.fromtimestamp(math.ceil((now + timedelta(minutes=30)).timestamp() / 60) * 60, now.tzinfo)
        add_schedule(
            client,
            enterprise.owner,
            [hand_over(now - timedelta(hours=2), contact("Ann")), hand_over(later, contact("Bob"))],
        )
        device_id = enterprise.devices["th_b"]
        body = save_on_call(client, enterprise.owner, device_id, {"kind": "onCall"}, repeatCount=2, intervalMinutes=60)
        assert body["code"] == 0, body
        got = ok(client.get(f"{ALARM}/PushSetting/get", query_string={"deviceId": device_id}, headers=enterprise.owner))
        assert got["levels"][0]["recipients"][0]["kind"] == "onCall"
        excursion(client, enterprise.owner, guids, "th_b", device_id)
        alarm = open_alarm(app, device_id)
        assert [m.recipient for m in outbox(app)] == ["ann@example.com"]  # level 1 with the alarm: Ann
        with app.app_context():
            assert escalate(alarm.opened_at + timedelta(minutes=20)) == 0  # Ann is told already
            # The first pass after the hand-over tells Bob (the key names his address), once.
            assert escalate(later + timedelta(seconds=30)) == 1
            assert escalate(later + timedelta(minutes=1)) == 0
            assert escalate(alarm.opened_at + timedelta(minutes=60)) == 1  # repeat 1: Bob only
            assert escalate(alarm.opened_at + timedelta(minutes=61)) == 0  # a re-run writes nothing twice
        keys = [m.dedupe_key for m in outbox(app)]
        assert keys == [
            f"alarm:{alarm.id}:L1:email:ann@example.com:R0",
            f"alarm:{alarm.id}:L1:email:bob@example.com:R0",
            f"alarm:{alarm.id}:L1:email:bob@example.com:R1",
        ]

    def test_a_user_of_the_account_is_reached_at_its_email_beside_fixed_recipients(
        self, app, client, enterprise, guids
    ):
        member = {"accountId": enterprise.member_ids["operator"]}
        found = add_schedule(client, enterprise.owner, [hand_over(utcnow() - timedelta(hours=1), member)], name="Ops")
        device_id = enterprise.devices["th_b"]
        body = {
            "deviceId": device_id,
            "levels": [
                {
                    "level": 1,
                    "minutes": 0,
                    "recipients": [contact("Cy"), {"kind": "onCall", "scheduleId": found["id"], "name": "Ops desk"}],
                }
            ],
            "channels": ["email"],
        }
        assert client.post(f"{ALARM}/PushSetting/save", json=body, headers=enterprise.owner).get_json()["code"] == 0
        excursion(client, enterprise.owner, guids, "th_b", device_id)
        assert sorted(m.recipient for m in outbox(app)) == ["cy@example.com", "member_operator@example.com"]

    def test_nobody_on_call_sends_nothing_for_that_entry(self, app, client, enterprise, guids):
        add_schedule(client, enterprise.owner, [])
        device_id = enterprise.devices["th_b"]
        assert save_on_call(client, enterprise.owner, device_id, {"kind": "onCall"})["code"] == 0
        excursion(client, enterprise.owner, guids, "th_b", device_id)
        assert outbox(app) == []


class TestWhichSchedule:
    def test_storage_then_organization_then_site_or_the_one_named(self, app, client, enterprise):
        earlier = utcnow() - timedelta(hours=1)
        site = add_schedule(client, enterprise.owner, [hand_over(earlier, contact("Site"))], name="Site")
        org = add_schedule(
            client,
            enterprise.owner,
            [hand_over(earlier, contact("Org"))],
            scope="organization",
            organizationId=enterprise.branch,
        )
        with app.app_context():
            owner_id = db.session.get(Device, enterprise.devices["th_b"]).owner_account_id
            room = ColdStorage(platform_id=1, owner_account_id=owner_id, kind=StorageKind.VIRTUAL, name="Room")
            db.session.add(room)
            db.session.flush()
            db.session.add(StorageProbe(storage_id=room.id, device_id=enterprise.devices["th_b"], sensor=1))
            db.session.commit()
            room_id = room.id
        store = add_schedule(
            client, enterprise.owner, [hand_over(earlier, contact("Room"))], scope="storage", storageId=room_id
        )
        with app.app_context():
            branch_device, own_device = (db.session.get(Device, enterprise.devices[n]) for n in ("th_a", "th_b"))
            assert schedule_for(branch_device, None).id == org["id"]  # placed in the branch
            assert schedule_for(own_device, None).id == store["id"]  # its probe is in the room
            assert schedule_for(own_device, site["id"]).id == site["id"]  # named explicitly
            db.session.delete(db.session.get(OnCallSchedule, store["id"]))
            db.session.commit()
            assert schedule_for(own_device, None).id == site["id"]


class TestPushSettingRules:
    def test_a_level_may_name_only_the_owners_schedules(self, client, enterprise, stranger):
        theirs = add_schedule(client, stranger, [])
        body = save_on_call(
            client, enterprise.owner, enterprise.devices["th_b"], {"kind": "onCall", "scheduleId": theirs["id"]}
        )
        assert body["code"] == 422 and "levels.0.recipients.0.scheduleId" in body["data"]["errors"], body

    def test_deleting_a_schedule_removes_the_entries_naming_it(self, app, client, enterprise):
        found = add_schedule(client, enterprise.owner, [])
        device_id = enterprise.devices["th_b"]
        levels = [
            {"level": 1, "minutes": 0, "recipients": [contact("Cy"), {"kind": "onCall", "scheduleId": found["id"]}]}
        ]
        body = client.post(
            f"{ALARM}/PushSetting/save",
            json={"deviceId": device_id, "levels": levels, "channels": ["email"]},
            headers=enterprise.owner,
        ).get_json()
        assert body["code"] == 0, body
        ok(client.delete(f"{ONCALL}/delete/{found['id']}", headers=enterprise.owner))
        with app.app_context():
            kinds = db.session.scalars(select(AlarmRecipient.kind).where(AlarmRecipient.device_id == device_id)).all()
        assert kinds == ["contact"]

    def test_a_contact_still_needs_a_name(self, client, enterprise):
        body = save_on_call(client, enterprise.owner, enterprise.devices["th_b"], {"email": "x@example.com"})
        assert body["code"] == 422, body
