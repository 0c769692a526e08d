"""Electric fences (issue 21): the rules (ten points, radius required, name 20, click the map first),
and a simulated route from the origin fence to the destination fence that wobbles on both borders:
exactly one leave and one enter event (hysteresis), the waybill starting on leaving and completing on
entering, and an alarm through the existing escalation when the fence asks for one."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from api.alarm.models import Alarm, AlarmKind, Message
from api.extensions.db import db
from api.notify.models import OutboundMessage
from api.waybill.models import WaybillFenceEvent
from tests.api.report_helpers import files, files_dir, read_csv
from tests.api.waybill_helpers import (
    ORIGIN,
    W,
    create,
    destination_polygon,
    device,
    now,
    route,
    send,
    shipper,
    trackers,
)

__all__ = ["files_dir", "shipper", "trackers"]

BETWEEN = "Length must be between 1 and 20 characters."
SQUARE = [[31.0, 121.0], [31.0, 121.1], [31.1, 121.1], [31.1, 121.0]]


def fence(client, headers, lang=None, **body):
    extra = {"Accept-Language": lang} if lang else {}
    return client.post(f"{W}/Fence/insert", json=body, headers={**headers, **extra})


def test_fence_rules_name_the_field_in_both_languages(client, shipper):
    eleven = [[31.0 + i / 100, 121.0 + (i % 2) / 100] for i in range(11)]
    cases = [
        ({"name": "Too many", "shape": "polygon", "points": eleven}, "points", "A fence has at most ten points."),
        ({"name": "No radius", "shape": "circle", "center": list(ORIGIN)}, "radius", "Please enter the radius."),
        ({"name": "No centre", "shape": "circle", "radius": 500}, "center", "Click the map first."),
        ({"name": "No points", "shape": "polygon", "points": []}, "points", "Click the map first."),
        (
            {"name": "x" * 21, "shape": "polygon", "points": SQUARE},
            "name",
            "Length must be between 1 and 20 characters.",
        ),
        ({"name": "", "shape": "polygon", "points": SQUARE}, "name", BETWEEN),
        (
            {"name": "Bow tie", "shape": "polygon", "points": [SQUARE[0], SQUARE[2], SQUARE[1], SQUARE[3]]},
            "points",
            "The outline of the fence must not cross itself.",
        ),
    ]
    for body, field, english in cases:
        answers = {lang: fence(client, shipper, lang, **body).get_json() for lang in ("en-US", "zh-CN")}
        assert answers["en-US"]["code"] == 422, answers
        assert answers["en-US"]["data"]["errors"][field] == [english]
        assert answers["zh-CN"]["data"]["errors"][field] != [english]  # translated
    assert client.post(f"{W}/Fence/page", json={}, headers=shipper).get_json()["data"]["total"] == 0
    ok = fence(client, shipper, name="Depot", shape="circle", center=list(ORIGIN), radius=500).get_json()
    assert ok["code"] == 0 and ok["data"]["radius"] == 500


def test_a_route_raises_exactly_one_event_each_way_and_drives_the_waybill(app, client, shipper, trackers):
    origin = fence(client, shipper, name="Shanghai depot", shape="circle", center=list(ORIGIN), radius=500)
    origin = origin.get_json()["data"]
    destination = fence(
        client, shipper, name="Suzhou pharmacy", shape="polygon", points=destination_polygon(), alarmEnter=True
    ).get_json()["data"]
    device_id = device(client, shipper, trackers)
    other_fence = fence(client, shipper, name="Elsewhere", shape="polygon", points=SQUARE).get_json()["data"]
    waybill = create(
        client,
        shipper,
        device_id,
        originFenceId=origin["id"],
        destinationFenceId=destination["id"],
        fenceModelId=other_fence["id"],
        startMode="fence",
        stopMode="fence",
    )
    client.post(
        "/api/alarm/PushSetting/save",
        json={
            "deviceId": device_id,
            "multiLevel": False,
            "channels": ["email"],
            "levels": [{"level": 1, "minutes": 0, "recipients": [{"name": "QA", "email": "qa@example.com"}]}],
        },
        headers=shipper,
    )
    positions = route(now() - timedelta(minutes=30), step=timedelta(seconds=60))
    states = []
    for ts, position in positions:
        send(client, trackers, "gt_a", ts, position=position)
        states.append(client.get(f"{W}/Waybill/detail/{waybill['id']}", headers=shipper).get_json()["data"]["state"])
    with app.app_context():
        events = list(db.session.scalars(select(WaybillFenceEvent).order_by(WaybillFenceEvent.ts)))
        assert [(e.fence_name, e.kind) for e in events] == [("Shanghai depot", "leave"), ("Suzhou pharmacy", "enter")]
        leave, enter = events
        assert leave.ts == positions[9][0]  # 700 m out: beyond the 50 m band, not at the first wobble
        assert enter.ts == positions[19][0]  # 200 m in
        alarms = list(db.session.scalars(select(Alarm).where(Alarm.kind == AlarmKind.FENCE)))
        assert len(alarms) == 1 and enter.alarm_id == alarms[0].id
        # Entering the destination completed the waybill: its fence alarm closed with it, with the reason.
        assert alarms[0].status == "closed" and alarms[0].close_reason == "waybill_completed"
        assert alarms[0].closed_at == enter.ts
        assert db.session.scalar(select(Message.id).where(Message.alarm_id == alarms[0].id)) is not None
        sends = list(db.session.scalars(select(OutboundMessage).where(OutboundMessage.alarm_id == alarms[0].id)))
        # the push setting's recipient and the waybill's alarm contact (the same email once, and its phone)
        assert sorted(s.recipient for s in sends) == ["+8613700137000", "qa@example.com"]
    assert states[8] == "not_started" and states[9] == "in_progress"
    assert states[18] == "in_progress" and states[19] == "completed"
    status = client.get(f"{W}/Waybill/status?id={waybill['id']}", headers=shipper).get_json()["data"]
    assert status["state"] == "completed" and len(status["track"]) == 11  # positions 9..19
    assert 3500 < status["distanceMeters"] < 4500
    assert [e["kind"] for e in status["events"]] == ["leave", "enter"]


def test_re_sending_the_same_positions_raises_nothing_new(app, client, shipper, trackers):
    origin = fence(client, shipper, name="Depot", shape="circle", center=list(ORIGIN), radius=500).get_json()["data"]
    device_id = device(client, shipper, trackers)
    create(client, shipper, device_id, originFenceId=origin["id"], startMode="fence")
    positions = route(now() - timedelta(minutes=30))[:12]
    for _ in range(2):
        for ts, position in positions:
            send(client, trackers, "gt_a", ts, position=position)
    with app.app_context():
        assert len(list(db.session.scalars(select(WaybillFenceEvent)))) == 1


def test_the_trip_report_goes_through_the_export_machinery(app, client, shipper, trackers, files_dir, run_jobs):
    origin = fence(client, shipper, name="Depot", shape="circle", center=list(ORIGIN), radius=500).get_json()["data"]
    device_id = device(client, shipper, trackers)
    waybill = create(client, shipper, device_id, originFenceId=origin["id"], startMode="fence")
    refused = client.post(f"{W}/Waybill/report", json={"id": waybill["id"]}, headers=shipper).get_json()
    assert refused["code"] == 7000  # not started: nothing to report
    positions = route(now() - timedelta(minutes=30), step=timedelta(seconds=60))[:14]
    for ts, position in positions:
        send(client, trackers, "gt_a", ts, temp=9.0 if ts == positions[12][0] else 5.0, position=position)
    client.put(f"{W}/Waybill/stop/{waybill['id']}", headers=shipper)
    client.put(f"{W}/Waybill/dispose", json={"id": waybill["id"], "disposition": "released"}, headers=shipper)
    for file_type in ("pdf", "csv"):
        answer = client.post(f"{W}/Waybill/report", json={"id": waybill["id"], "fileType": file_type}, headers=shipper)
        assert answer.get_json()["code"] == 0, answer.get_json()
    run_jobs()
    rows = {row["fileType"]: row for row in files(client, shipper)}
    assert rows["pdf"]["status"] == "generated" and rows["pdf"]["fileName"].startswith(waybill["waybillNum"])
    assert rows["csv"]["status"] == "generated"
    pdf = client.get(f"/api/report/ExportFile/download/{rows['pdf']['id']}", headers=shipper).data
    assert pdf.startswith(b"%PDF")
    _, table = read_csv(client, shipper, rows["csv"]["id"])
    # The reading's column (rows also carry the offset and the back-fill mark).
    readings = table[1 : table.index([])] if [] in table else table[1:]  # the summary follows a blank row
    values = [row[3] for row in readings if row[3] in ("5.0", "9.0")]
    assert "9.0" in values and len(values) == 5  # only the waybill's window: positions 9 .. 13


def test_a_stopped_waybill_mails_its_trip_report_once_through_the_outbox(
    app, client, shipper, trackers, files_dir, run_jobs
):
    from api.waybill.report import mail_trip_report

    device_id = device(client, shipper, trackers)
    waybill = create(client, shipper, device_id, alarmEmail="qa@example.com")
    started = client.put(f"{W}/Waybill/start/{waybill['id']}", json={"confirm": True}, headers=shipper).get_json()
    assert started["code"] == 0, started
    for minutes in (6, 4, 2):
        send(client, trackers, "gt_a", now() - timedelta(minutes=minutes), temp=5.0, position=ORIGIN)
    stopped = client.put(f"{W}/Waybill/stop/{waybill['id']}", headers={**shipper, "Accept-Language": "en-US"})
    assert stopped.get_json()["code"] == 0
    run_jobs()
    [report] = files(client, shipper)
    assert report["status"] == "generated" and report["fileType"] == "pdf"
    assert report["fileName"].startswith(waybill["waybillNum"])
    with app.app_context():
        [mail] = db.session.scalars(select(OutboundMessage)).all()
        assert mail.channel.value == "email" and mail.recipient == "qa@example.com"
        assert mail.dedupe_key == f"waybill-trip-report:{waybill['id']}:qa@example.com"
        assert waybill["waybillNum"] in mail.subject and "Trip report" in mail.subject
        assert mail.attachment_path.endswith(report["fileName"])
        with open(mail.attachment_path, "rb") as attached:
            assert attached.read(5) == b"%PDF-"
        assert mail.status.value in ("sent", "logged")
        mail_trip_report(report["id"])  # generated again, retried: nothing is mailed twice
        assert len(db.session.scalars(select(OutboundMessage)).all()) == 1
    # A manual trip report of the same waybill is not mailed.
    answer = client.post(f"{W}/Waybill/report", json={"id": waybill["id"], "fileType": "pdf"}, headers=shipper)
    assert answer.get_json()["code"] == 0
    run_jobs()
    with app.app_context():
        assert len(db.session.scalars(select(OutboundMessage)).all()) == 1


def test_a_waybill_without_an_alarm_email_mails_nothing(app, client, shipper, trackers, files_dir, run_jobs):
    device_id = device(client, shipper, trackers)
    waybill = create(client, shipper, device_id, alarmEmail=None)
    client.put(f"{W}/Waybill/start/{waybill['id']}", json={"confirm": True}, headers=shipper)
    client.put(f"{W}/Waybill/stop/{waybill['id']}", headers=shipper)
    run_jobs()
    assert files(client, shipper) == []
    with app.app_context():
        assert db.session.scalars(select(OutboundMessage)).all() == []
