"""Push settings, escalation, delivery through the outbox (exactly once), balances, webhooks."""

from __future__ import annotations

import hashlib
import hmac
import json
from datetime import timedelta
from types import SimpleNamespace

import pytest
from sqlalchemy import select
from werkzeug.wrappers import Request, Response

from api.alarm.escalation import _balance_message, escalate
from api.alarm.models import AlarmRecipient, Message, MessageType, PushSetting
from api.device.models import Device
from api.extensions.db import db, utcnow
from api.notify.jobs import deliver_message
from api.notify.models import Channel, DeliveryStatus
from tests.api.alarm.helpers import (
    ALARM,
    messages,
    open_alarm,
    outbox,
    push_setting,
    record,
    save_push,
    set_limits,
)
from tests.api.device_helpers import upload
from tests.fakes import HttpFake

TWO_LEVELS = [
    {"level": 1, "minutes": 0, "recipients": [{"name": "Ann", "email": "ann@example.com", "phone": "13900139001"}]},
    {"level": 2, "minutes": 10, "recipients": [{"name": "Bob", "email": "bob@example.com", "lang": "en-US"}]},
    {"level": 3, "minutes": 30, "recipients": [{"name": "Cy", "email": "cy@example.com"}]},
]


def excursion(client, owner, fridge):
    device_id, guid, key = fridge
    set_limits(client, owner, device_id, {"sensor": 1, "upperLimit": 8})
    upload(client, guid, key, [record(2, 5.0), record(1, 12.5)])


class TestPushSettings:
    def test_two_level_setting_round_trips(self, client, owner, fridge):
        device_id = fridge[0]
        body = save_push(client, owner, device_id, multiLevel=True, levels=TWO_LEVELS[:2], channels=["email", "sms"])
        assert body["code"] == 0, body
        got = client.get(f"{ALARM}/PushSetting/get", query_string={"deviceId": device_id}, headers=owner).get_json()
        data = got["data"]
        assert data["multiLevel"] is True and data["channels"] == ["email", "sms"]
        assert [lv["minutes"] for lv in data["levels"]] == [0, 10]
        assert data["levels"][0]["recipients"][0]["phone"] == "+8613900139001"
        assert data["smsCount"] == 5

    def test_level_minutes_must_rise_strictly(self, app, client, owner, fridge):
        levels = [dict(TWO_LEVELS[0], minutes=10), dict(TWO_LEVELS[1], minutes=10)]
        body = save_push(client, owner, fridge[0], multiLevel=True, levels=levels)
        assert (body["code"] != 0 and body["msg"] == "Alarm time setting error") or body["msg"] == "告警时间设置错误"
        with app.app_context():
            assert db.session.get(PushSetting, fridge[0]) is None

    def test_level_error_message_in_english(self, make_client, owner, fridge):
        client = make_client(lang="en-US")
        levels = [dict(TWO_LEVELS[0], minutes=30), dict(TWO_LEVELS[1], minutes=10)]
        body = save_push(client, owner, fridge[0], multiLevel=True, levels=levels)
        assert body["msg"] == "Alarm time setting error"

    @pytest.mark.parametrize(
        ("recipients", "field"),
        [
            ([{"name": "Ann"}], "phone"),  # neither phone nor email
            ([{"name": "", "email": "a@example.com"}], "name"),
            ([{"name": "x" * 51, "email": "a@example.com"}], "name"),
            ([{"name": "Ann", "phone": "12345"}], "phone"),
            ([{"name": "Ann", "email": "not-an-email"}], "email"),
            ([{"name": "Ann", "email": "a@example.com"}, {"name": "Bo", "email": "A@example.com"}], "email"),
        ],
    )
    def test_recipients_are_validated(self, app, client, owner, fridge, recipients, field):
        body = save_push(client, owner, fridge[0], levels=[{"level": 1, "minutes": 0, "recipients": recipients}])
        assert body["code"] == 422 and field in json.dumps(body["data"]), body
        with app.app_context():
            assert db.session.get(PushSetting, fridge[0]) is None

    def test_single_level_has_one_level_and_bad_schedule_is_refused(self, client, owner, fridge):
        body = save_push(client, owner, fridge[0], multiLevel=False, levels=TWO_LEVELS[:2])
        assert body["code"] == 422 and "levels" in body["data"]["errors"]
        body = save_push(client, owner, fridge[0], scheduleStart="08:00")
        assert body["code"] == 422 and "scheduleEnd" in body["data"]["errors"]
        body = save_push(client, owner, fridge[0], scheduleStart="25:00", scheduleEnd="08:00")
        assert body["code"] == 422 and "scheduleStart" in body["data"]["errors"]

    def test_webhook_to_private_or_loopback_targets_is_refused(self, client, owner, fridge):
        for url in (
            "https://127.0.0.2/hook",  # loopback, not the listed 127.0.0.1 of the suite's fakes
            "https://[::1]/hook",
            "https://localhost/hook",  # a name resolving to loopback
            "https://10.0.0.5/hook",
            "https://169.254.169.254/latest",
            "http://example.com/x",
        ):
            body = save_push(client, owner, fridge[0], channels=["webhook"], webhookUrl=url)
            assert body["code"] == 422 and "webhookUrl" in body["data"]["errors"], (url, body)


class TestEscalation:
    def test_level_marks_only_while_unprocessed(self, app, client, owner, fridge):
        assert save_push(client, owner, fridge[0], multiLevel=True, levels=TWO_LEVELS)["code"] == 0
        excursion(client, owner, fridge)
        alarm = open_alarm(app, fridge[0])
        assert [m.recipient for m in outbox(app)] == ["ann@example.com"]  # level 1 with the alarm
        with app.app_context():
            assert escalate(alarm.opened_at + timedelta(minutes=9)) == 0
            assert escalate(alarm.opened_at + timedelta(minutes=10)) == 1
            assert escalate(alarm.opened_at + timedelta(minutes=11)) == 0  # a re-run writes nothing twice
        assert [m.recipient for m in outbox(app)] == ["ann@example.com", "bob@example.com"]
        [message] = messages(app)
        body = client.put(
            f"{ALARM}/AlarmMessage/process",
            json={"ids": [message.id], "processState": "agreed", "result": "Door closed"},
            headers=owner,
        ).get_json()
        assert body["code"] == 0, body
        with app.app_context():
            assert escalate(alarm.opened_at + timedelta(minutes=31)) == 0  # processed: level 3 never sent
        assert len(outbox(app)) == 2

    def test_repeats_at_the_interval_up_to_the_count(self, app, client, owner, fridge):
        save_push(client, owner, fridge[0], repeatCount=2, intervalMinutes=5)
        excursion(client, owner, fridge)
        alarm = open_alarm(app, fridge[0])
        with app.app_context():
            assert escalate(alarm.opened_at + timedelta(minutes=4)) == 0
            assert escalate(alarm.opened_at + timedelta(minutes=5)) == 1
            assert escalate(alarm.opened_at + timedelta(minutes=10)) == 1
            assert escalate(alarm.opened_at + timedelta(minutes=15)) == 0
        assert [m.dedupe_key.rsplit(":", 1)[1] for m in outbox(app)] == ["R0", "R1", "R2"]

    def test_no_sends_outside_scheduled_hours_except_urgent(self, app, client, owner, fridge):
        from zoneinfo import ZoneInfo

        from api.extensions.db import utcnow

        now = utcnow().astimezone(ZoneInfo("Asia/Shanghai"))
        start, end = (now + timedelta(hours=2)).strftime("%H:%M"), (now + timedelta(hours=3)).strftime("%H:%M")
        save_push(client, owner, fridge[0], scheduleStart=start, scheduleEnd=end)
        excursion(client, owner, fridge)
        alarm = open_alarm(app, fridge[0])
        assert outbox(app) == []
        with app.app_context():
            assert escalate(alarm.opened_at + timedelta(minutes=30)) == 0
            assert escalate(alarm.opened_at + timedelta(hours=2, minutes=1)) == 1  # inside the hours: sent then
        save_push(client, owner, fridge[1 - 1], scheduleStart=start, scheduleEnd=end, urgentKinds=["fault"])
        upload(client, fridge[1], fridge[2], [record(0, None)])  # a probe fault is urgent: sent at once
        assert [m.alarm_id != alarm.id for m in outbox(app)] == [False, True]


class TestDelivery:
    def test_email_sent_once_even_when_the_job_runs_again(self, app, client, owner, fridge, run_jobs, providers):
        inbox, _sms = providers
        save_push(client, owner, fridge[0])
        excursion(client, owner, fridge)
        run_jobs()
        [row] = outbox(app)
        assert row.status == DeliveryStatus.SENT and len(inbox.bodies_to("ann@example.com")) == 1
        with app.app_context():
            assert deliver_message(row.id) == "skipped"
            alarm = open_alarm(app, fridge[0])
            assert escalate(alarm.opened_at + timedelta(seconds=5)) == 0
        run_jobs()
        assert len(inbox.bodies_to("ann@example.com")) == 1
        assert "12.5" in inbox.bodies_to("ann@example.com")[0]

    def test_texts_follow_the_recipient_language(self, app, client, owner, fridge, run_jobs, providers):
        inbox, _sms = providers
        levels = [
            {
                "level": 1,
                "minutes": 0,
                "recipients": [
                    {"name": "Ann", "email": "ann@example.com", "lang": "zh-CN"},
                    {"name": "Bob", "email": "bob@example.com", "lang": "en-US"},
                ],
            }
        ]
        save_push(client, owner, fridge[0], levels=levels)
        excursion(client, owner, fridge)
        run_jobs()
        assert "Above the upper limit" in inbox.bodies_to("bob@example.com")[0]
        assert "超过上限" in inbox.bodies_to("ann@example.com")[0]

    def test_operator_template_renders_per_language(self, app, client, owner, fridge, run_jobs, providers):
        from tests.api.account_helpers import StaffRole, auth, login, make_account

        inbox, _sms = providers
        make_account(app, user_name="operator1", staff_role=StaffRole.OPERATOR)
        operator = auth(login(client, "operator1"))
        template = {
            "msgName": "Email alarm",
            "type": "email",
            "content": {"zh-CN": "{device} 温度 {value} 超限 {limit}", "en-US": "{device} at {value}, limit {limit}"},
        }
        created = client.post(f"{ALARM}/MessageTemplate/save", json=template, headers=operator).get_json()
        assert created["code"] == 0, created
        with app.app_context():
            type_id = db.session.get(Device, fridge[0]).device_type_id
        rule = {
            "deviceTypeId": type_id,
            "alarmKind": "upper",
            "ruleName": "High temp",
            "templateId": created["data"]["id"],
        }
        assert client.post(f"{ALARM}/AlarmRule/save", json=rule, headers=operator).get_json()["code"] == 0
        levels = [
            {
                "level": 1,
                "minutes": 0,
                "recipients": [
                    {"name": "Ann", "email": "ann@example.com"},
                    {"name": "Bob", "email": "bob@example.com", "lang": "en-US"},
                ],
            }
        ]
        save_push(client, owner, fridge[0], levels=levels)
        excursion(client, owner, fridge)
        run_jobs()
        # {value} and {limit} carry the unit (issue 47); the acknowledgement link follows (issue 48)
        ann, bob = inbox.bodies_to("ann@example.com")[0], inbox.bodies_to("bob@example.com")[0]
        assert ann.splitlines()[0].strip() == "Fridge 温度 12.5 °C 超限 8 °C" and "/alarm/ack?code=" in ann
        assert bob.splitlines()[0].strip() == "Fridge at 12.5 °C, limit 8 °C" and "/alarm/ack?code=" in bob

    def test_sms_spends_the_balance_and_at_zero_is_not_sent(self, app, client, owner, fridge, run_jobs, providers):
        _inbox, sms = providers
        with app.app_context():
            db.session.get(Device, fridge[0]).sms_count = 1
            db.session.commit()
        save_push(
            client,
            owner,
            fridge[0],
            channels=["sms"],
            repeatCount=1,
            intervalMinutes=5,
            levels=[{"level": 1, "minutes": 0, "recipients": [{"name": "Ann", "phone": "13900139001"}]}],
        )
        excursion(client, owner, fridge)
        run_jobs()
        assert len(sms.texts_to("+8613900139001")) == 1
        alarm = open_alarm(app, fridge[0])
        with app.app_context():
            assert db.session.get(Device, fridge[0]).sms_count == 0
            escalate(alarm.opened_at + timedelta(minutes=5))
        run_jobs()
        assert len(sms.texts_to("+8613900139001")) == 1  # the repeat found no balance
        rows = outbox(app)
        assert [r.status for r in rows] == [DeliveryStatus.SENT, DeliveryStatus.FAILED]
        assert "balance" in rows[1].last_error
        system = [m for m in messages(app) if m.type == MessageType.SYSTEM]
        assert len(system) == 1 and system[0].code == "balance.sms"
        page = client.post(f"{ALARM}/AlarmMessage/page", json={"type": "system"}, headers=owner).get_json()["data"]
        assert page["total"] == 1 and "Fridge" in page["list"][0]["content"]

    def test_an_empty_balance_is_reported_once_per_device_per_day(self, app, owner, fridge):
        with app.app_context():
            device = db.session.get(Device, fridge[0])
            for alarm_id in (101, 102, 103):  # three alarms not sent, by SMS and by voice: one message
                _balance_message(SimpleNamespace(id=alarm_id, opened_at=utcnow()), device, Channel.SMS)
                _balance_message(SimpleNamespace(id=alarm_id, opened_at=utcnow()), device, Channel.VOICE)
                db.session.commit()
        assert [m.params["alarmId"] for m in messages(app) if m.type == MessageType.SYSTEM] == [101]
        with app.app_context():
            # A day later the next empty-balance send is reported again.
            for message in db.session.scalars(select(Message).where(Message.device_id == fridge[0])):
                message.created_at = utcnow() - timedelta(days=1, minutes=1)
            device = db.session.get(Device, fridge[0])
            _balance_message(SimpleNamespace(id=104, opened_at=utcnow()), device, Channel.SMS)
            db.session.commit()
        system = [m for m in messages(app) if m.type == MessageType.SYSTEM]
        assert sorted(m.params["alarmId"] for m in system) == [101, 104]


class Hook(HttpFake):
    def __init__(self):
        self.received = []

    def handle(self, request: Request) -> Response:
        self.received.append((dict(request.headers), request.get_data()))
        return Response("ok")


class TestWebhook:
    def test_signed_post_to_a_listed_host(self, app, client, owner, fridge, run_jobs):
        """The receiver listens on 127.0.0.1, listed in the suite's OUTBOUND_ALLOWED_HOSTS."""
        with Hook() as hook:
            secret = "receiver-signing-secret-0123456789"
            body = save_push(
                client, owner, fridge[0], channels=["webhook"], webhookUrl=f"{hook.url}/alarm", webhookSecret=secret
            )
            assert body["code"] == 0, body
            # Write-only: the secret never comes back, neither in the save's answer nor on reading.
            assert "webhookSecret" not in body["data"] and body["data"]["webhookSecretSet"] is True
            excursion(client, owner, fridge)
            run_jobs()
            [(headers, payload)] = hook.received
        expected = hmac.new(secret.encode(), headers["X-Timestamp"].encode() + b"." + payload, hashlib.sha256)
        assert headers["X-Signature"] == "sha256=" + expected.hexdigest()
        event = json.loads(payload)
        assert (event["event"], event["kind"], event["value"], event["deviceGuid"]) == (
            "alarm.opened",
            "upper",
            12.5,
            fridge[1],
        )
        assert outbox(app)[0].status == DeliveryStatus.SENT

    def test_delivery_refuses_a_private_target_without_retrying(
        self, app, client, owner, fridge, run_jobs, monkeypatch
    ):
        with Hook() as hook:
            save_push(
                client, owner, fridge[0], channels=["webhook"], webhookUrl=f"{hook.url}/alarm", webhookSecret="s" * 32
            )
            monkeypatch.setitem(app.config, "OUTBOUND_ALLOWED_HOSTS", ())  # configuration changed since
            excursion(client, owner, fridge)
            run_jobs()
            assert hook.received == []
        [row] = outbox(app)
        assert row.status == DeliveryStatus.FAILED and row.attempts == 1 and "refused" in row.last_error


class TestMessagesAndTenancy:
    def test_message_list_filters_processing_and_unread(self, app, client, owner, fridge):
        excursion(client, owner, fridge)
        unread = client.get(f"{ALARM}/AlarmMessage/unreadCount", headers=owner).get_json()["data"]
        assert unread == {"total": 1, "alarm": 1, "system": 0, "pendingAlarm": 1}
        page = client.post(f"{ALARM}/AlarmMessage/page", json={"state": "pending"}, headers=owner).get_json()["data"]
        assert page["total"] == 1 and page["list"][0]["alarm"]["kind"] == "upper"
        message_id = page["list"][0]["id"]
        too_long = client.put(
            f"{ALARM}/AlarmMessage/process",
            json={"ids": [message_id], "processState": "rejected", "result": "x" * 51},
            headers=owner,
        ).get_json()
        assert too_long["code"] == 422 and "result" in too_long["data"]["errors"]
        done = client.put(
            f"{ALARM}/AlarmMessage/process",
            json={"ids": [message_id], "processState": "on_hold", "result": "Checking"},
            headers=owner,
        ).get_json()
        assert done["code"] == 0
        assert (
            client.post(f"{ALARM}/AlarmMessage/page", json={"state": "pending"}, headers=owner).get_json()["data"][
                "total"
            ]
            == 0
        )
        processed = client.post(
            f"{ALARM}/AlarmMessage/page", json={"state": "processed", "deviceId": fridge[0]}, headers=owner
        ).get_json()["data"]
        assert processed["list"][0]["alarm"]["processState"] == "on_hold"
        assert processed["list"][0]["alarm"]["result"] == "Checking"
        assert processed["list"][0]["alarm"]["processedBy"]
        unread = client.get(f"{ALARM}/AlarmMessage/unreadCount", headers=owner).get_json()["data"]
        assert unread["total"] == 0 and unread["pendingAlarm"] == 0
        past = client.post(
            f"{ALARM}/AlarmMessage/page", json={"endTime": "2020-01-01T00:00:00+08:00"}, headers=owner
        ).get_json()["data"]
        assert past["total"] == 0

    def test_other_accounts_and_sites_see_and_touch_nothing(self, app, client, owner, stranger, fridge, make_client):
        save_push(client, owner, fridge[0])
        excursion(client, owner, fridge)
        [message] = messages(app)
        alarm = open_alarm(app, fridge[0])
        assert client.post(f"{ALARM}/AlarmMessage/page", json={}, headers=stranger).get_json()["data"]["total"] == 0
        probes = [
            client.put(
                f"{ALARM}/AlarmMessage/process", json={"ids": [message.id], "processState": "agreed"}, headers=stranger
            ),
            client.get(f"{ALARM}/PushSetting/get", query_string={"deviceId": fridge[0]}, headers=stranger),
            client.post(f"{ALARM}/PushSetting/save", json=push_setting(fridge[0]), headers=stranger),
            client.get(f"{ALARM}/Alarm/deviceStatus", query_string={"deviceId": fridge[0]}, headers=stranger),
            client.get(f"{ALARM}/Alarm/notifications", query_string={"alarmId": alarm.id}, headers=stranger),
            client.post(f"{ALARM}/SensorLimit/save", json={"deviceId": fridge[0], "limits": []}, headers=stranger),
        ]
        assert [p.status_code for p in probes] == [404] * len(probes)
        junjia = make_client("junjia.localhost")
        assert junjia.post(f"{ALARM}/AlarmMessage/page", json={}, headers=owner).status_code == 401
        from tests.api.account_helpers import auth, login, make_account

        make_account(app, host="junjia.localhost", user_name="junjia_user")
        other = auth(login(junjia, "junjia_user"))
        assert junjia.post(f"{ALARM}/AlarmMessage/page", json={}, headers=other).get_json()["data"]["total"] == 0
        assert (
            junjia.get(f"{ALARM}/PushSetting/get", query_string={"deviceId": fridge[0]}, headers=other).status_code
            == 404
        )
        with app.app_context():
            assert open_alarm(app, fridge[0]).process_state.value == "pending"
            assert [r.email for r in db.session.query(AlarmRecipient).all()] == ["ann@example.com"]
        assert Channel.EMAIL in {r.channel for r in outbox(app)}
