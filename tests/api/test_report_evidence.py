"""Reports an inspector accepts (issue 45, finding 10): one axis per unit and labelled limit lines,
"Page N of M", the probes' calibration status, alarm times that agree, conflicting duplicates kept
and reported (never dropped silently), the device's name and zone as they were over the period with
the changes inside it, and a demo whose history is live and whose reports agree with its alarms."""

from __future__ import annotations

import re
from datetime import timedelta
from urllib.parse import quote

from sqlalchemy import select

from api.device.models import DeviceHistory
from api.extensions.db import db, utcnow
from api.extensions.reasons import REASON_HEADER
from api.telemetry.models import Reading, ReadingConflict
from tests.api import device_helpers, report_helpers
from tests.api.alarm.helpers import set_limits
from tests.api.device_helpers import DEVICE, add, upload
from tests.api.report_helpers import START, files, load_readings, pdf_text
from tests.api.test_evidence import download, request_file

guids, owner, files_dir = device_helpers.guids, device_helpers.owner, report_helpers.files_dir


def ms(moment) -> int:
    return int(moment.timestamp() * 1000)


# ---- conflicting duplicates -----------------------------------------------------------------------------


def test_a_conflicting_value_is_kept_and_marked_and_an_identical_resend_stays_a_plain_duplicate(
    app, make_client, owner, guids, files_dir, run_jobs
):
    client = make_client(lang="en-US")
    guid, key = guids["th_a"]
    device_id = add(client, owner, guid, tz="UTC")
    now = utcnow().replace(second=0, microsecond=0)
    at = now - timedelta(minutes=30)
    first = upload(client, guid, key, [{"ts": ms(at), "readings": {"1": 4.85, "2": 50}}]).get_json()
    assert first["data"]["accepted"] == 2 and first["data"]["conflicts"] == 0
    again = upload(client, guid, key, [{"ts": ms(at), "readings": {"1": 4.85, "2": 50}}]).get_json()
    assert again["data"]["duplicates"] == 2 and again["data"]["conflicts"] == 0  # idempotent: nothing kept
    conflicting = upload(client, guid, key, [{"ts": ms(at), "readings": {"1": 30.0, "2": 50}}]).get_json()
    assert conflicting["data"]["accepted"] == 0 and conflicting["data"]["duplicates"] == 2
    assert conflicting["data"]["conflicts"] == 1
    # Sent once more: the same conflict is not kept twice.
    assert upload(client, guid, key, [{"ts": ms(at), "readings": {"1": 30.0}}]).get_json()["data"]["conflicts"] == 0
    with app.app_context():
        (stored,) = db.session.scalars(select(Reading.value).where(Reading.device_id == device_id, Reading.sensor == 1))
        assert stored == 4.85  # the first value stays the record
        (conflict,) = db.session.scalars(select(ReadingConflict).where(ReadingConflict.device_id == device_id))
        assert (conflict.sensor, conflict.value, conflict.stored_value) == (1, 30.0, 4.85)
        assert conflict.ts == at
    window = f"start={quote((at - timedelta(minutes=1)).isoformat())}&end={quote(now.isoformat())}"
    listed = client.get(f"{DEVICE}/DeviceData/conflicts?deviceId={device_id}&{window}&unit=F", headers=owner)
    [row] = listed.get_json()["data"]
    assert (row["sensor"], row["value"], row["storedValue"]) == (1, 86.0, 40.73)

    file_id = request_file(client, owner, device_id, "pdf", now - timedelta(hours=1), now, sensors=[1])
    run_jobs()
    assert files(client, owner)[0]["status"] == "generated"
    report = pdf_text(download(client, owner, file_id))
    assert "Conflicting values received: 1" in report
    assert "4.85" in report and "30.0" in report


def test_a_large_resent_batch_keeps_only_its_changed_value_as_a_conflict(app, make_client, owner, guids):
    """A batch of more than 100 records takes the store's COPY path; re-sent with one value changed,
    that value is kept as a conflict and the other 119 stay plain duplicates."""
    client = make_client(lang="en-US")
    guid, key = guids["th_a"]
    device_id = add(client, owner, guid, tz="UTC")
    now = utcnow().replace(second=0, microsecond=0)
    times = [now - timedelta(minutes=5 * (120 - i)) for i in range(120)]
    records = [{"ts": ms(t), "readings": {"1": 4.85}} for t in times]
    assert upload(client, guid, key, records).get_json()["data"]["accepted"] == 120
    records[60] = {"ts": ms(times[60]), "readings": {"1": 30.0}}
    body = upload(client, guid, key, records).get_json()["data"]
    assert (body["accepted"], body["duplicates"], body["conflicts"]) == (0, 120, 1)
    with app.app_context():
        rows = db.session.scalars(select(ReadingConflict).where(ReadingConflict.device_id == device_id)).all()
        assert [(r.ts, r.value, r.stored_value) for r in rows] == [(times[60], 30.0, 4.85)]


# ---- the PDF: axes, limit labels, pages, calibration, alarm times ------------------------------------------


def pdf_pages(content: bytes) -> int:
    import pypdfium2

    document = pypdfium2.PdfDocument(content)
    try:
        return len(document)
    finally:
        document.close()


def test_the_pdf_labels_each_unit_and_each_limit_and_numbers_pages_of_the_total(
    app, make_client, owner, guids, files_dir, run_jobs
):
    client = make_client(lang="en-US")
    device_id = add(client, owner, guids["th_a"][0], tz="UTC")
    set_limits(
        client,
        owner,
        device_id,
        {"sensor": 1, "upperLimit": 8.0, "lowerLimit": 2.0},
        {"sensor": 2, "upperLimit": 75.0, "lowerLimit": 35.0},
    )
    start = START
    load_readings(app, device_id, [5.0 + (i % 7) * 0.1 for i in range(600)], sensor=1, start=start, step_s=300)
    load_readings(app, device_id, [50.0 + (i % 5) for i in range(600)], sensor=2, start=start, step_s=300)
    file_id = request_file(client, owner, device_id, "pdf", start, start + timedelta(days=2))
    run_jobs()
    content = download(client, owner, file_id)
    report = pdf_text(content)
    pages = pdf_pages(content)
    assert pages > 1
    assert f"Page 1 of {pages}" in report and f"Page {pages} of {pages}" in report
    assert "Page 1\r" not in report and "Page 1\n" not in report  # never without the total
    # Each limit line carries its side, value and unit; humidity has its own axis and unit.
    assert "Upper 8.0 °C" in report and "Lower 2.0 °C" in report
    assert "Upper 75.0 %RH" in report and "Lower 35.0 %RH" in report


def test_the_chart_gives_each_unit_its_own_axis():
    from api.report.kinds import Sensor
    from api.report.pdf_chart import unit_axes
    from api.report.present import Units

    humidity = Sensor(2, "Humidity", "%RH", False, 0)
    inside = Sensor(1, "Inside", "°C", True, 1)
    outside = Sensor(3, "Outside", "°C", True, 1)
    axes = unit_axes([humidity, inside, outside], Units("F"))
    assert [(label, [s.probe for s in sensors]) for label, sensors in axes] == [("°F", [1, 3]), ("%RH", [2])]


def test_limit_lines_step_where_the_limit_history_changes():
    from api.alarm.limit_history import LimitPeriod
    from api.report.kinds import Sensor
    from api.report.pdf_chart import limit_segments
    from api.report.stats import SeriesStats

    sensor = Sensor(1, "Temperature", "°C", True, 1, lower=2.0, upper=7.5)
    changed = START + timedelta(hours=1)
    stats = {1: SeriesStats(periods=[LimitPeriod(START, 2.0, 8.0, 0), LimitPeriod(changed, 2.0, 7.5, 0)])}
    end = START + timedelta(hours=2)
    segments = limit_segments(sensor, stats, START.timestamp(), end.timestamp())
    uppers = [(t0, t1, value) for t0, t1, side, value in segments if side == "upper"]
    assert uppers == [
        (START.timestamp(), changed.timestamp(), 8.0),
        (changed.timestamp(), end.timestamp(), 7.5),
    ]


def add_certificate(app, device_id, number, issued, due, unit="°C", passed=True):
    from api.calibration.models import Application, ApplicationItem, Certificate
    from api.device.models import Device

    with app.app_context():
        device = db.session.get(Device, device_id)
        application = Application(
            platform_id=device.platform_id,
            owner_account_id=device.owner_account_id,
            order_no=f"CA{number}",
            company="Lab customer",
            contact="QA",
            phone="021-0000000",
            status=6,
            calibrated_at=issued,
        )
        db.session.add(application)
        db.session.flush()
        item = ApplicationItem(
            application_id=application.id, device_model="TH-2", serial=device.guid, device_id=device_id, unit=unit
        )
        db.session.add(item)
        db.session.flush()
        db.session.add(
            Certificate(
                platform_id=device.platform_id,
                application_id=application.id,
                item_id=item.id,
                number=number,
                verify_code=f"v{number}",
                issued_at=issued,
                next_due_at=due,
                passed=passed,
            )
        )
        db.session.commit()


def test_the_pdf_prints_each_probes_calibration_with_its_due_date_and_status(
    app, make_client, owner, guids, files_dir, run_jobs
):
    client = make_client(lang="en-US")
    device_id = add(client, owner, guids["th_a"][0], tz="UTC")
    now = utcnow().replace(microsecond=0)
    start = now - timedelta(hours=3)
    load_readings(app, device_id, [5.0] * 12, start=start, step_s=600)
    add_certificate(app, device_id, "CAL-OLD-1", now - timedelta(days=400), now - timedelta(days=35))
    add_certificate(app, device_id, "CAL-2026-7", now - timedelta(days=340), now + timedelta(days=20))
    file_id = request_file(client, owner, device_id, "pdf", start, now)
    run_jobs()
    report = pdf_text(download(client, owner, file_id))
    section = report[report.index("Calibration") :]
    assert "CAL-2026-7" in section and "Due soon" in section
    assert (now + timedelta(days=20)).strftime("%Y-%m-%d") in section  # the due date
    assert "CAL-OLD-1" not in section  # lapsed before the period: not in force in it
    assert "No certificate" in section  # the humidity probe has none


def test_calibration_status_from_the_due_date():
    from api.report.evidence import CalibrationStatus, calibration_status

    now = utcnow()
    assert calibration_status(now + timedelta(days=90), True, now) == CalibrationStatus.VALID
    assert calibration_status(now + timedelta(days=10), True, now) == CalibrationStatus.DUE_SOON
    assert calibration_status(now - timedelta(days=1), True, now) == CalibrationStatus.OVERDUE
    assert calibration_status(now + timedelta(days=90), False, now) == CalibrationStatus.FAILED


def test_the_alarm_table_prints_when_the_excursion_began_when_the_alarm_was_raised_and_the_duration_from_one_instant(
    app, make_client, owner, guids, files_dir, run_jobs
):
    from api.alarm.models import Alarm, AlarmKind, AlarmStatus
    from api.device.models import Device

    client = make_client(lang="en-US")
    device_id = add(client, owner, guids["th_a"][0], tz="UTC")
    began = START + timedelta(hours=7)
    load_readings(
        app, device_id, [5.0, 9.0, 9.5, 9.2, 9.1, 8.5, 8.2, 5.0], start=began - timedelta(minutes=5), step_s=300
    )
    with app.app_context():
        device = db.session.get(Device, device_id)
        db.session.add(
            Alarm(
                platform_id=device.platform_id,
                device_id=device_id,
                kind=AlarmKind.UPPER,
                sensor=1,
                status=AlarmStatus.CLOSED,
                breach_started_at=began,  # 07:00, the first reading above 8.0
                opened_at=began + timedelta(minutes=10),  # raised after the 10-minute delay
                closed_at=began + timedelta(minutes=35),
                last_seen_at=began + timedelta(minutes=35),
                peak_value=9.5,
            )
        )
        db.session.commit()
    file_id = request_file(client, owner, device_id, "pdf", START, START + timedelta(days=1), sensors=[1])
    run_jobs()
    report = pdf_text(download(client, owner, file_id))
    alarms = " ".join(report[report.index("Excursion began") :].split())
    assert "2026-03-07 07:00:00 +00:00" in alarms
    assert "2026-03-07 07:10:00 +00:00 (10 min after it began)" in alarms
    assert "2026-03-07 07:35:00 +00:00" in alarms and "35 min" in alarms


# ---- the device's name and time zone as they were --------------------------------------------------------


def test_a_report_prints_the_name_and_zone_of_its_period_and_lists_the_rename_and_zone_change(
    app, make_client, owner, guids, files_dir, run_jobs
):
    client = make_client(lang="en-US")
    device_id = add(client, owner, guids["th_a"][0], name="Fridge A", tz="UTC")
    now = utcnow().replace(microsecond=0)
    start = now - timedelta(hours=4)
    load_readings(app, device_id, [5.0] * 12, start=start, step_s=600)
    reason = {REASON_HEADER: quote("Moved to the Berlin site per CR-88")}
    body = client.put(
        f"{DEVICE}/Device/update",
        json={"deviceId": device_id, "deviceName": "Fridge B", "timeZone": "Europe/Berlin"},
        headers={**owner, **reason},
    ).get_json()
    assert body["code"] == 0, body
    with app.app_context():
        rows = db.session.scalars(
            select(DeviceHistory).where(DeviceHistory.device_id == device_id).order_by(DeviceHistory.id)
        ).all()
        assert [(r.name, r.time_zone, r.valid_to is None) for r in rows] == [
            ("Fridge A", "UTC", False),
            ("Fridge B", "Europe/Berlin", True),
        ]
        assert rows[1].reason == "Moved to the Berlin site per CR-88" and rows[1].valid_from == rows[0].valid_to

    # The period before the change: the old name and zone, and the later change listed as such.
    file_id = request_file(client, owner, device_id, "pdf", start, now - timedelta(hours=2), sensors=[1])
    run_jobs()
    report = " ".join(pdf_text(download(client, owner, file_id)).split())
    assert "Device name Fridge A " in report and "Fridge B" in report.split("Device name and time zone changes")[1]
    assert "Device time zone UTC" in report
    assert "Renamed from Fridge A to Fridge B" in report and "Time zone changed from UTC to Europe/Berlin" in report
    assert "(after this period)" in report and "Moved to the Berlin site per CR-88" in report
    assert "demouser (#" in report

    # A period the change falls in prints both names.
    file_id = request_file(client, owner, device_id, "pdf", start, now + timedelta(minutes=1), sensors=[1])
    run_jobs()
    report = " ".join(pdf_text(download(client, owner, file_id)).split())
    assert "Device name Fridge A → Fridge B" in report and "(after this period)" not in report


# ---- the demo ---------------------------------------------------------------------------------------------


def test_the_demo_history_is_live_and_its_reports_agree_with_its_alarm_lists(app, make_client, files_dir, run_jobs):
    from api import demo
    from api.device.models import Device
    from api.telemetry.queries import backfill_after_s
    from tests.api.account_helpers import auth, login
    from tests.api.alarm.helpers import ALARM
    from tests.api.test_evidence import ok, statistic

    with app.app_context():
        demo.seed(backfill=timedelta(days=3))
        fleet = {d.name: d.id for d in db.session.scalars(select(Device).where(Device.name.is_not(None)))}
        # Every reading was received at its own time: none is back-filled.
        late = [
            r
            for r in db.session.scalars(select(Reading))
            if r.received_at is None or (r.received_at - r.ts).total_seconds() > backfill_after_s(300)
        ]
        assert late == []
    client = make_client(lang="en-US")
    owner = auth(login(client, "demouser", demo.DEMO_PASSWORD))
    now = utcnow()
    start, end = now - timedelta(days=3, hours=1), now + timedelta(minutes=10)
    for name in ("Pharmacy Fridge", "Vaccine Fridge"):
        device_id = fleet[name]
        page = ok(
            client.post(f"{ALARM}/Alarm/page", json={"deviceId": device_id, "start": 1, "pageSize": 200}, headers=owner)
        )
        assert page["total"] <= 200
        limit_alarms = [a for a in page["list"] if a["kind"] in ("upper", "lower")]
        file_id = request_file(client, owner, device_id, "pdf", start, end)
        run_jobs()
        report = pdf_text(download(client, owner, file_id))
        excursions = sum(int(n) for n in statistic(report, "Excursions").split())
        assert excursions == len(limit_alarms) >= 1, name
        assert "No alarms in this period." not in report
        assert not re.search(r"\d:\d\d [+-]\d\d:\d\d \*", report)  # no back-filled reading is marked


def test_a_replayed_history_raises_its_alarms_as_of_each_readings_time(app, make_client, owner, guids):
    """The demo's path (`replaying`): an excursion in replayed history is raised when it lasted the
    delay in the data's time, not at the moment the history was stored, and closes at its recovery."""
    from api.alarm.models import Alarm
    from api.device.models import Device
    from api.telemetry.ingest import ingest, replaying

    client = make_client(lang="en-US")
    device_id = add(client, owner, guids["th_a"][0], tz="UTC")
    set_limits(client, owner, device_id, {"sensor": 1, "upperLimit": 8.0, "lowerLimit": 2.0, "delayMinutes": 10})
    began = utcnow().replace(second=0, microsecond=0) - timedelta(days=2)
    values = [5.0, 9.0, 9.5, 9.2, 9.1, 8.5, 8.2, 9.0, 5.0]  # 07:00 - 07:35 above 8.0 at 5-minute steps
    records = [{"ts": ms(began + timedelta(minutes=5 * (i - 1))), "readings": {"1": v}} for i, v in enumerate(values)]
    with app.app_context(), app.test_request_context():
        device = db.session.get(Device, device_id)
        with replaying():
            ingest(device, records)
        (alarm,) = db.session.scalars(select(Alarm).where(Alarm.device_id == device_id))
        assert alarm.breach_started_at == began
        assert alarm.opened_at == began + timedelta(minutes=10)  # the delay, in the data's time
        assert alarm.closed_at == began + timedelta(minutes=35)
