"""Issue 48, acknowledgement: an alarm acknowledged where it reached you (SMS reply with its code, a
key press in its call, its email's signed link, the console) stops its repeats and escalation, once;
the provider's callbacks are verified as it signs them; repeat until acknowledged; FDA close; the
timeline. Through the real outbox jobs, the provider fake's signed callbacks and an injected clock."""

from __future__ import annotations

import re
import threading
import time
from datetime import timedelta
from urllib.parse import quote, unquote

import pytest
from sqlalchemy import select

from api.alarm import ack
from api.alarm.escalation import escalate
from api.alarm.models import Alarm
from api.audit.models import OperationLog
from api.extensions.db import db
from api.extensions.reasons import REASON_HEADER
from api.fda.records import EVIDENCE_REQUIRED, PASSWORD_HEADER, SIGNER_HEADER
from api.notify.models import DeliveryStatus
from tests.api.account_helpers import PASSWORD
from tests.api.alarm.helpers import ALARM, messages, open_alarm, outbox, record, save_push, set_limits
from tests.api.device_helpers import upload
from tests.api.fda_helpers import fda_mode

INBOUND = "/api/notify/provider/inbound"
PHONE, EMAIL = "13900139001", "ann@example.com"
SENT = "+86" + PHONE  # the phone as stored and sent (normalized)
ANN = {"name": "Ann", "phone": PHONE, "email": EMAIL, "lang": "en-US"}
EN = {"Accept-Language": "en-US"}


def setting(client, owner, device_id, channels, **extra):
    levels = [{"level": 1, "minutes": 0, "recipients": [ANN]}]
    body = save_push(client, owner, device_id, levels=levels, channels=channels, **extra)
    assert body["code"] == 0, body


def excursion(app, client, owner, fridge):
    device_id, guid, key = fridge
    set_limits(client, owner, device_id, {"sensor": 1, "upperLimit": 8})
    upload(client, guid, key, [record(2, 5.0), record(1, 12.5)])
    return open_alarm(app, device_id)


def callback(client, signed):
    body, headers = signed
    return client.post(INBOUND, data=body, headers={**headers, **EN})


def stored(app, alarm_id) -> Alarm:
    with app.app_context():
        alarm = db.session.get(Alarm, alarm_id)
        db.session.expunge(alarm)
        return alarm


def trail(app, summary):
    with app.app_context():
        rows = db.session.scalars(select(OperationLog).where(OperationLog.summary.startswith(summary))).all()
        db.session.expunge_all()
        return rows


def test_an_sms_reply_with_the_code_from_the_phone_acknowledges_and_stops_repeats(
    app, client, owner, fridge, run_jobs, providers
):
    _inbox, sms = providers
    setting(client, owner, fridge[0], ["sms"], repeatUntilAck=True, intervalMinutes=5)
    alarm = excursion(app, client, owner, fridge)
    run_jobs()
    [text] = sms.texts_to(SENT)
    code = re.search(r"Reply (\d{4}) to acknowledge", text).group(1)
    assert callback(client, sms.reply("13900000000", f"{code}")).get_json()["data"]["outcome"] == "ignored"
    assert callback(client, sms.reply(SENT, "0000" if code != "0000" else "1111")).get_json()["data"]["outcome"] == (
        "ignored"
    )
    assert stored(app, alarm.id).acknowledged_at is None
    reply = sms.reply(SENT, f"OK {code}")
    assert callback(client, reply).get_json()["data"]["outcome"] == "acknowledged"
    done = stored(app, alarm.id)
    assert (done.ack_via, done.ack_by) == ("sms", SENT) and done.acknowledged_at is not None
    assert callback(client, reply).get_json()["data"]["outcome"] == "duplicate"  # the provider retried
    with app.app_context():
        assert escalate(alarm.opened_at + timedelta(minutes=5)) == 0  # acknowledged: no repeat
    [entry] = trail(app, "Alarm acknowledged (sms)")
    assert entry.target == f"alarm#{alarm.id}"


def test_a_key_press_in_the_call_acknowledges(app, client, owner, fridge, run_jobs, providers):
    _inbox, sms = providers
    setting(client, owner, fridge[0], ["voice"])
    alarm = excursion(app, client, owner, fridge)
    run_jobs()
    [call] = [m for m in sms.received if m["channel"] == "voice"]
    assert "Press 1 to acknowledge" in call["text"]
    assert callback(client, sms.key_press(call, "2")).get_json()["data"]["outcome"] == "ignored"
    assert callback(client, sms.key_press(call, "1")).get_json()["data"]["outcome"] == "acknowledged"
    done = stored(app, alarm.id)
    assert (done.ack_via, done.ack_by) == ("voice", SENT)


def test_the_email_link_acknowledges_once_and_refuses_forged_or_expired_tokens(
    app, client, owner, fridge, run_jobs, providers, monkeypatch
):
    inbox, _sms = providers
    setting(client, owner, fridge[0], ["email"])
    alarm = excursion(app, client, owner, fridge)
    run_jobs()
    [mail] = inbox.bodies_to(EMAIL)
    link = re.search(r"https?://\S+/alarm/ack\?code=(\S+)", mail)
    token = unquote(link.group(1))
    view = client.get(f"{ALARM}/AlarmAck/view?token={quote(token)}", headers=EN).get_json()
    assert view["code"] == 0 and view["data"]["acknowledged"] is False and view["data"]["lastValue"] == 12.5
    first = client.post(f"{ALARM}/AlarmAck/confirm", json={"token": token}, headers=EN).get_json()
    assert first["data"]["recorded"] is True and first["data"]["ackVia"] == "email" and first["data"]["ackBy"] == EMAIL
    again = client.post(f"{ALARM}/AlarmAck/confirm", json={"token": token}, headers=EN).get_json()
    assert again["data"]["recorded"] is False and again["data"]["acknowledged"] is True  # a used link
    forged = client.post(f"{ALARM}/AlarmAck/confirm", json={"token": token[:-2] + "xx"}, headers=EN)
    assert forged.status_code == 403 and forged.get_json()["msg"] == "This acknowledgement link is not valid."
    chinese = client.post(f"{ALARM}/AlarmAck/confirm", json={"token": "x.y.z"}, headers={"Accept-Language": "zh-CN"})
    assert chinese.status_code == 403 and chinese.get_json()["msg"] != "This acknowledgement link is not valid."
    monkeypatch.setattr(ack, "LINK_LIFETIME", timedelta(seconds=-1))
    expired = client.get(f"{ALARM}/AlarmAck/view?token={quote(token)}", headers=EN)
    assert expired.status_code == 410 and expired.get_json()["msg"] == "This acknowledgement link has expired."
    assert len(trail(app, "Alarm acknowledged (email)")) == 1
    assert stored(app, alarm.id).ack_via == "email"


def test_console_acknowledgement_is_recorded_once_under_20_concurrent_calls(app, client, owner, stranger, fridge):
    setting(client, owner, fridge[0], ["email"])
    alarm = excursion(app, client, owner, fridge)
    refused = client.put(f"{ALARM}/Alarm/acknowledge", json={"alarmId": alarm.id}, headers=stranger)
    assert refused.status_code == 404 and stored(app, alarm.id).acknowledged_at is None
    answers, barrier = [], threading.Barrier(20)

    def acknowledge():
        mine = app.test_client()
        barrier.wait()
        answers.append(mine.put(f"{ALARM}/Alarm/acknowledge", json={"alarmId": alarm.id}, headers=owner).get_json())

    threads = [threading.Thread(target=acknowledge) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(answer["code"] == 0 for answer in answers), answers
    assert sum(answer["data"]["recorded"] for answer in answers) == 1
    assert stored(app, alarm.id).ack_via == "console"
    assert len(trail(app, "Alarm acknowledged (console)")) == 1


def test_unsigned_forged_or_stale_callbacks_get_401_and_change_nothing(app, client, owner, fridge, run_jobs, providers):
    _inbox, sms = providers
    setting(client, owner, fridge[0], ["sms"])
    alarm = excursion(app, client, owner, fridge)
    run_jobs()
    code = re.search(r"Reply (\d{4})", sms.texts_to(SENT)[0]).group(1)
    body, headers = sms.reply(SENT, code)
    assert client.post(INBOUND, data=body, headers={"Content-Type": "application/json"}).status_code == 401
    assert callback(
        client, sms.callback({"type": "reply", "from": SENT, "text": code}, secret="guess")
    ).status_code == (401)
    stale = sms.callback({"type": "reply", "from": SENT, "text": code}, timestamp=int(time.time()) - 301)
    assert callback(client, stale).status_code == 401
    tampered = body.replace(SENT.encode(), b"13900000000")
    assert client.post(INBOUND, data=tampered, headers=headers).status_code == 401
    [message] = sms.received
    forged_receipt = sms.callback({"type": "receipt", "ref": message["id"], "status": "failed"}, secret="guess")
    assert callback(client, forged_receipt).status_code == 401
    assert stored(app, alarm.id).acknowledged_at is None
    assert outbox(app)[0].status == DeliveryStatus.SENT


def test_receipts_mark_the_row_and_the_timeline_tells_every_step(
    app, client, owner, stranger, fridge, run_jobs, providers
):
    _inbox, sms = providers
    setting(client, owner, fridge[0], ["sms"])
    alarm = excursion(app, client, owner, fridge)
    run_jobs()
    [message] = sms.received
    assert callback(client, sms.receipt(message)).get_json()["data"]["outcome"] == "delivered"
    [row] = outbox(app)
    assert row.status == DeliveryStatus.DELIVERED and row.delivered_at is not None
    code = re.search(r"Reply (\d{4})", message["text"]).group(1)
    callback(client, sms.reply(SENT, code))
    [note] = messages(app)
    client.put(
        f"{ALARM}/AlarmMessage/process",
        json={"ids": [note.id], "processState": "agreed", "result": "Door closed"},
        headers=owner,
    )
    steps = client.get(f"{ALARM}/Alarm/timeline/{alarm.id}", headers=owner).get_json()["data"]
    assert [s["event"] for s in steps] == ["opened", "sent", "delivered", "acknowledged", "processed"], steps
    assert steps[1]["channel"] == "sms" and steps[1]["recipient"] == SENT
    assert steps[3]["via"] == "sms" and steps[3]["by"] == SENT
    assert client.get(f"{ALARM}/Alarm/timeline/{alarm.id}", headers=stranger).status_code == 404


def test_repeat_until_acknowledged_repeats_past_the_count_and_stops_at_the_acknowledgement(app, client, owner, fridge):
    setting(client, owner, fridge[0], ["email"], repeatUntilAck=True, repeatCount=1, intervalMinutes=5)
    alarm = excursion(app, client, owner, fridge)
    with app.app_context():
        for minutes in (5, 10, 15):
            assert escalate(alarm.opened_at + timedelta(minutes=minutes)) == 1
    assert client.put(f"{ALARM}/Alarm/acknowledge", json={"alarmId": alarm.id}, headers=owner).get_json()["code"] == 0
    with app.app_context():
        assert escalate(alarm.opened_at + timedelta(minutes=20)) == 0
    assert [m.dedupe_key.rsplit(":", 1)[1] for m in outbox(app)] == ["R0", "R1", "R2", "R3"]


def test_without_the_option_repeats_stop_at_the_count(app, client, owner, fridge):
    setting(client, owner, fridge[0], ["email"], repeatCount=1, intervalMinutes=5)
    alarm = excursion(app, client, owner, fridge)
    with app.app_context():
        assert escalate(alarm.opened_at + timedelta(minutes=5)) == 1
        assert escalate(alarm.opened_at + timedelta(minutes=10)) == 0


def test_nobody_acknowledges_level_2_is_called_too_and_both_keep_repeating(app, client, owner, fridge):
    levels = [
        {"level": 1, "minutes": 0, "recipients": [ANN]},
        {"level": 2, "minutes": 10, "recipients": [{"name": "Bob", "email": "bob@example.com"}]},
    ]
    body = save_push(
        client,
        owner,
        fridge[0],
        multiLevel=True,
        levels=levels,
        channels=["email"],
        repeatUntilAck=True,
        intervalMinutes=5,
    )
    assert body["code"] == 0, body
    alarm = excursion(app, client, owner, fridge)
    with app.app_context():
        assert escalate(alarm.opened_at + timedelta(minutes=9)) == 1  # level 1, repeat 1
        assert escalate(alarm.opened_at + timedelta(minutes=10)) == 2  # level 1 repeat 2, level 2 called
        assert escalate(alarm.opened_at + timedelta(minutes=15)) == 2
    keys = [m.dedupe_key.split(":", 2)[2] for m in outbox(app)]
    assert "L2:email:bob@example.com:R0" in keys and "L2:email:bob@example.com:R1" in keys
    assert stored(app, alarm.id).level_reached == 2
    steps = client.get(f"{ALARM}/Alarm/timeline/{alarm.id}", headers=owner).get_json()["data"]
    assert [s.get("level") for s in steps if s["event"] == "escalated"] == [2]


def test_fda_close_needs_a_reason_and_the_signature(app, client, owner, fridge):
    alarm = excursion(app, client, owner, fridge)
    [note] = messages(app)
    fda_mode(app)
    signed = {SIGNER_HEADER: "demouser", PASSWORD_HEADER: quote(PASSWORD), REASON_HEADER: quote("Door open")}

    def close(result, **headers):
        body = {"ids": [note.id], "processState": "agreed", "result": result}
        return client.put(f"{ALARM}/AlarmMessage/process", json=body, headers={**owner, **EN, **headers})

    unsigned = close("Door closed").get_json()
    assert unsigned["code"] == EVIDENCE_REQUIRED and unsigned["data"]["needs"] == "signature"
    no_reason = close("", **signed)
    assert no_reason.status_code == 422 and "result" in no_reason.get_json()["data"]["errors"]
    assert no_reason.get_json()["msg"].endswith("FDA mode: closing an alarm needs a reason.")
    assert stored(app, alarm.id).process_state.value == "pending"
    assert close("Door closed", **signed).get_json()["code"] == 0
    assert stored(app, alarm.id).process_state.value == "agreed"
    [entry] = trail(app, "Alarm closed in FDA mode")
    assert entry.after[0]["values"]["reason"] == "Door closed"


def test_a_crash_between_repeats_loses_no_repeat_and_sends_none_twice(app, client, owner, fridge, run_jobs, providers):
    """The escalation pass dies before its send (inside the transaction, then after the commit with the
    enqueue lost): re-running it and the stale-row redelivery send every repeat exactly once."""
    from api.alarm import escalation
    from api.notify import services as outbox_services
    from api.notify.jobs import redeliver_stale

    _inbox, sms = providers
    setting(client, owner, fridge[0], ["sms"], repeatUntilAck=True, intervalMinutes=5)
    alarm = excursion(app, client, owner, fridge)
    run_jobs()
    assert len(sms.received) == 1  # R0

    def crash(*_args):
        raise RuntimeError("worker killed")

    # 1. Killed inside the pass, after the outbox row was written, before the commit: nothing stays.
    with pytest.MonkeyPatch.context() as patch, app.app_context():
        patch.setattr(escalation, "send_after_commit", crash)
        with pytest.raises(RuntimeError):
            escalate(alarm.opened_at + timedelta(minutes=5))
        db.session.rollback()
    assert len(outbox(app)) == 1
    # 2. The pass runs again and commits, but the worker dies before the send (the enqueue is lost).
    with pytest.MonkeyPatch.context() as patch, app.app_context():
        patch.setattr(outbox_services, "enqueue_delivery", lambda _id: None)
        assert escalate(alarm.opened_at + timedelta(minutes=5)) == 1
    run_jobs()
    assert len(sms.received) == 1  # not sent yet
    # 3. After the restart: the pass again (writes nothing twice), the stale row is sent, once.
    with app.app_context():
        assert escalate(alarm.opened_at + timedelta(minutes=6)) == 0
        assert redeliver_stale(older_than_s=0) == 1
    run_jobs()
    with app.app_context():
        assert redeliver_stale(older_than_s=0) == 0
    run_jobs()
    keys = sorted(m["idempotencyKey"].rsplit(":", 1)[1] for m in sms.received)
    assert keys == ["R0", "R1"]
