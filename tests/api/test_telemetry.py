"""Ingestion (HTTP), the time-series store, rollups and chart queries, downlink over HTTP."""

from __future__ import annotations

import random
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import event, func, literal_column, select, update

from api.device.models import Device, DeviceParam, DeviceState, DeviceType
from api.extensions.db import db, utcnow
from api.telemetry import ingest as ingest_module
from api.telemetry.models import DeviceSample, Reading, ReadingHourly
from api.telemetry.store import INLINE_ROWS, SKIP_STORED, Companion, store_readings_by_device
from tests.api.device_helpers import DEVICE, ROLLED_HOUR, add, guids, hour_of_readings, minutes_ago, owner, upload

__all__ = ["guids", "owner"]


@pytest.fixture
def fridge(client, owner, guids):
    device_id = add(client, owner, guids["th_a"][0], name="Fridge")
    return device_id, *guids["th_a"]


def stored(app, device_id) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Reading).where(Reading.device_id == device_id))


def raw_and_rolled_hours(app, device_id: int, sensor: int) -> tuple[list, list]:
    """(hour, min, max, sum, count, first, last) per hour of the stored readings, and of the hourly rollup."""
    hour = func.date_trunc(literal_column("'hour'"), Reading.ts)
    with app.app_context():
        raw = db.session.execute(
            select(hour, *hour_of_readings())
            .where(Reading.device_id == device_id, Reading.sensor == sensor)
            .group_by(hour)
            .order_by(hour)
        ).all()
        rolled = db.session.execute(
            select(ReadingHourly.bucket, *ROLLED_HOUR)
            .where(ReadingHourly.device_id == device_id, ReadingHourly.sensor == sensor)
            .order_by(ReadingHourly.bucket)
        ).all()
    return raw, rolled


@contextmanager
def store_statements(app):
    """The statements that insert into `reading` (each checks for stored copies) while the block runs;
    a batch stored by COPY sends none."""
    seen: list[str] = []

    def record(conn, cursor, statement, parameters, context, executemany):
        if "INSERT INTO reading (" in statement:
            seen.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", record)


class TestUpload:
    def test_batch_is_stored_and_state_updated(self, app, client, owner, fridge):
        device_id, guid, key = fridge
        records = [
            {"ts": minutes_ago(10 - i), "readings": {"1": 4.0 + i / 10, "2": 50}, "battery": 90, "signal": -70}
            for i in range(5)
        ]
        body = upload(client, guid, key, records).get_json()
        assert body["data"] == {"accepted": 10, "duplicates": 0, "conflicts": 0, "rejected": []}
        latest = client.get(f"{DEVICE}/DeviceData/latest?deviceId={device_id}", headers=owner).get_json()["data"]
        assert latest["values"] == {"1": 4.4, "2": 50.0} and latest["battery"] == 90

    def test_resent_readings_are_duplicates(self, app, client, fridge):
        device_id, guid, key = fridge
        records = [{"ts": minutes_ago(5), "readings": {"1": 4.0, "2": 50}}]
        upload(client, guid, key, records)
        body = upload(client, guid, key, records).get_json()["data"]
        assert (body["accepted"], body["duplicates"]) == (0, 2)
        assert stored(app, device_id) == 2

    def test_a_record_without_values_still_moves_the_state_and_keeps_its_sample(self, app, client, owner, fridge):
        # A faulty probe (null) and the battery only: no reading to store, so the sample and the
        # state are written on their own (with readings they ride in the readings' statement).
        device_id, guid, key = fridge
        body = upload(client, guid, key, [{"ts": minutes_ago(2), "readings": {"1": None}, "battery": 77}]).get_json()
        assert body["data"] == {"accepted": 0, "duplicates": 0, "conflicts": 0, "rejected": []}
        latest = client.get(f"{DEVICE}/DeviceData/latest?deviceId={device_id}", headers=owner).get_json()["data"]
        assert latest["values"] == {"1": None} and latest["battery"] == 77
        with app.app_context():
            assert db.session.scalar(select(DeviceSample.battery).where(DeviceSample.device_id == device_id)) == 77
            assert db.session.get(Device, device_id).state.fault is True

    def test_out_of_order_records_do_not_move_the_latest_state_back(self, client, owner, fridge):
        device_id, guid, key = fridge
        upload(client, guid, key, [{"ts": minutes_ago(1), "readings": {"1": 5.0}}])
        upload(client, guid, key, [{"ts": minutes_ago(30), "readings": {"1": 9.9}}])  # buffered, sent late
        latest = client.get(f"{DEVICE}/DeviceData/latest?deviceId={device_id}", headers=owner).get_json()["data"]
        assert latest["values"]["1"] == 5.0

    def test_sensor_keys_are_numbers_and_the_newest_record_of_a_batch_sets_each_value(self, client, owner, fridge):
        device_id, guid, key = fridge
        records = [
            {"ts": minutes_ago(1), "readings": {"01": 5.5}},  # newest; "01" names sensor 1
            {"ts": minutes_ago(5), "readings": {"1": 3.0, "2": 40}},
            {"ts": minutes_ago(3), "readings": {" 2": 41}},  # newest of sensor 2
            {"ts": minutes_ago(2), "readings": {"1.5": 1.0}},  # not a sensor
        ]
        body = upload(client, guid, key, records).get_json()["data"]
        assert body["accepted"] == 4
        assert [(r["index"], r["field"]) for r in body["rejected"]] == [(3, "readings.1.5")]
        latest = client.get(f"{DEVICE}/DeviceData/latest?deviceId={device_id}", headers=owner).get_json()["data"]
        assert latest["values"] == {"1": 5.5, "2": 41.0}

    def test_bad_records_are_refused_with_a_reason_and_good_ones_kept(self, app, make_client, fridge):
        device_id, guid, key = fridge
        client = make_client(lang="en-US")
        future = int((datetime.now(UTC) + timedelta(hours=1)).timestamp() * 1000)
        records = [
            {"ts": minutes_ago(3), "readings": {"1": 4.0}},  # good
            {"ts": future, "readings": {"1": 4.0}},
            {"ts": "yesterday", "readings": {"1": 4.0}},
            {"ts": minutes_ago(2), "readings": {"7": 4.0}},
            {"ts": minutes_ago(2), "readings": {"1": "warm"}},
            {"ts": minutes_ago(2), "readings": {"1": 400}},
            {"ts": minutes_ago(2), "readings": {"2": 120}},
            {"ts": minutes_ago(2), "readings": {"1": 4}, "battery": 140},
            {"ts": minutes_ago(2), "readings": {"1": 4}, "location": {"lat": 95, "lng": 0}},
            {"ts": minutes_ago(2), "readings": {"1": 4}, "colour": "blue"},
            "not a record",
            {"ts": "2026-11-21T08:00:00"},  # no offset
            {"ts": minutes_ago(1), "readings": {"1": 4.5}},  # good
        ]
        answer = upload(client, guid, key, records).get_json()
        body = answer["data"]
        assert body and body.get("accepted") == 2, answer
        fields = [(r["index"], r["field"]) for r in body["rejected"]]
        assert fields == [
            (1, "ts"),
            (2, "ts"),
            (3, "readings.7"),
            (4, "readings.1"),
            (5, "readings.1"),
            (6, "readings.2"),
            (7, "battery"),
            (8, "location"),
            (9, "colour"),
            (10, "record"),
            (11, "ts"),
        ]
        assert "range -40.0 to 85.0" in body["rejected"][4]["reason"]
        assert stored(app, device_id) == 2

    def test_wrong_credential_is_refused(self, client, fridge):
        _device_id, guid, _key = fridge
        response = upload(client, guid, "0" * 32, [{"ts": minutes_ago(1), "readings": {"1": 4.0}}])
        assert response.status_code == 401

    def test_a_range_changed_in_the_catalogue_applies_to_the_next_upload(self, app, client, fridge):
        # The type's probe ranges are kept per process (api/telemetry/ingest.py): the first upload
        # loads them, a back-office change (an ORM write) must reach the very next one.
        device_id, guid, key = fridge
        assert (
            upload(client, guid, key, [{"ts": minutes_ago(3), "readings": {"1": 30.0}}]).get_json()["data"]["accepted"]
            == 1
        )
        with app.app_context():
            type_id = db.session.get(Device, device_id).device_type_id
            param = db.session.scalar(
                select(DeviceParam).where(DeviceParam.device_type_id == type_id, DeviceParam.probe_id == 1)
            )
            param.param_max = 25.0
            db.session.commit()
        body = upload(client, guid, key, [{"ts": minutes_ago(2), "readings": {"1": 30.0}}]).get_json()["data"]
        assert body["accepted"] == 0 and [r["field"] for r in body["rejected"]] == ["readings.1"], body
        assert "25.0" in body["rejected"][0]["reason"]

    def test_a_types_offline_rule_changed_in_the_catalogue_applies_to_the_next_upload(self, app, client, fridge):
        # offline_at = latest record + interval x the type's offline_after_intervals, the type read
        # from the per-process snapshot: a catalogue change must reach the very next upload.
        device_id, guid, key = fridge

        def offline_after(minutes: int) -> timedelta:
            stamp = minutes_ago(minutes)
            upload(client, guid, key, [{"ts": stamp, "readings": {"1": 4.0}}])
            with app.app_context():
                device = db.session.get(Device, device_id)
                latest = datetime.fromtimestamp(stamp / 1000, UTC)
                return (device.state.offline_at - latest) / device.interval_s

        with app.app_context():
            device = db.session.get(Device, device_id)
            intervals = device.device_type.offline_after_intervals
        assert offline_after(3) == timedelta(seconds=intervals)
        with app.app_context():
            db.session.get(Device, device_id).device_type.offline_after_intervals = intervals + 4
            db.session.commit()
        assert offline_after(2) == timedelta(seconds=intervals + 4)

    def test_a_device_cannot_write_another_devices_data(self, app, client, guids, fridge):
        device_id, guid, key = fridge
        other_guid, other_key = guids["th_b"]
        # its own credential, another GUID in the body
        response = upload(client, guid, key, [{"ts": minutes_ago(1), "readings": {"1": 4.0}}], body_guid=other_guid)
        assert response.status_code == 403
        # another device's credential presented for this GUID
        response = upload(client, guid, other_key, [{"ts": minutes_ago(1), "readings": {"1": 4.0}}])
        assert response.status_code == 401
        assert stored(app, device_id) == 0

    def test_too_many_records(self, client, fridge):
        _device_id, guid, key = fridge
        body = upload(client, guid, key, [{"ts": minutes_ago(1), "readings": {"1": 4.0}}] * 5001).get_json()["data"]
        assert body["accepted"] == 0 and body["rejected"][0]["field"] == "records"


class TestChart:
    def test_rollups_match_raw_data(self, app, client, owner, fridge):
        device_id, guid, key = fridge
        rng = random.Random(7)
        records = []
        base = datetime.now(UTC).replace(minute=0, second=0, microsecond=0) - timedelta(hours=5)
        for minute in range(300):
            records.append(
                {
                    "ts": int((base + timedelta(minutes=minute)).timestamp() * 1000),
                    "readings": {"1": round(rng.uniform(-5, 15), 2)},
                }
            )
        rng.shuffle(records)
        for first in range(0, 300, 37):  # arbitrary batches, out of order, some re-sent
            upload(client, guid, key, records[first : first + 37])
            upload(client, guid, key, records[first : first + 5])
        raw, rolled = raw_and_rolled_hours(app, device_id, 1)
        assert len(raw) == len(rolled) == 5
        assert [row[:3] + row[4:] for row in raw] == [row[:3] + row[4:] for row in rolled]
        assert [row[3] for row in raw] == pytest.approx([row[3] for row in rolled])

    def test_a_large_new_batch_is_copied_and_a_resent_one_inserted_with_the_check(self, app, client, owner, fridge):
        # A batch of more than INLINE_ROWS live readings is COPied into `reading`, its rollup folded
        # from here; one holding a reading stored already fails that COPY, which is rolled back, and
        # goes again through the checked insert. Both ways, counts and rollup match the rows.
        device_id, guid, key = fridge
        base = datetime.now(UTC).replace(minute=0, second=0, microsecond=0) - timedelta(hours=6)
        rng = random.Random(11)
        records = [
            {
                "ts": int((base + timedelta(minutes=minute)).timestamp() * 1000),
                "readings": {"1": round(rng.uniform(-5, 15), 2), "2": round(rng.uniform(30, 80), 1)},
            }
            for minute in range(330)
        ]
        assert len(records[:250]) * 2 > INLINE_ROWS
        with store_statements(app) as first:
            body = upload(client, guid, key, records[:250]).get_json()["data"]
        assert (body["accepted"], body["duplicates"]) == (500, 0)
        assert first == []
        with store_statements(app) as resent:
            body = upload(client, guid, key, records[30:]).get_json()["data"]
        assert (body["accepted"], body["duplicates"]) == (160, 440)
        assert len(resent) == 1
        assert stored(app, device_id) == 660
        for sensor in (1, 2):
            raw, rolled = raw_and_rolled_hours(app, device_id, sensor)
            assert len(raw) == len(rolled) == 6
            assert [row[:3] + row[4:] for row in raw] == [row[:3] + row[4:] for row in rolled]
            assert [row[3] for row in raw] == pytest.approx([row[3] for row in rolled])
        with app.app_context():
            first_ts, last_ts = db.session.execute(
                select(func.min(ReadingHourly.first_ts), func.max(ReadingHourly.last_ts)).where(
                    ReadingHourly.device_id == device_id
                )
            ).one()
        assert (first_ts, last_ts) == (base, base + timedelta(minutes=329))
        latest = client.get(f"{DEVICE}/DeviceData/latest?deviceId={device_id}", headers=owner).get_json()["data"]
        assert latest["values"] == {str(k): v for k, v in records[-1]["readings"].items()}

    def test_a_large_batch_is_stored_as_it_is_checked_and_its_bad_records_left_out(self, app, client, owner, fridge):
        # More than ALONE_RECORDS records: each is checked while the readings before it stream into
        # `reading` (COPY). Bad records are refused with their index, a fault stores no reading, and
        # the samples, state and rollup are those of the records kept.
        device_id, guid, key = fridge
        base = datetime.now(UTC).replace(minute=0, second=0, microsecond=0) - timedelta(hours=4)
        records = [
            {
                "ts": int((base + timedelta(minutes=minute)).timestamp() * 1000),
                "readings": {"1": round(minute % 13 - 4.5, 1), "2": 40 + minute % 20},
                "battery": 80,
            }
            for minute in range(180)
        ]
        records[3]["readings"]["9"] = 1.0  # no such sensor
        records[90]["readings"]["1"] = "warm"
        records[179]["readings"] = {"1": None, "2": 55.0}
        assert len(records) > ingest_module.ALONE_RECORDS
        with store_statements(app) as statements:
            body = upload(client, guid, key, records).get_json()["data"]
        assert statements == []
        assert [(r["index"], r["field"]) for r in body["rejected"]] == [(3, "readings.9"), (90, "readings.1")]
        assert (body["accepted"], body["duplicates"]) == (177 * 2 + 1, 0)
        assert stored(app, device_id) == 177 * 2 + 1
        for sensor in (1, 2):
            raw, rolled = raw_and_rolled_hours(app, device_id, sensor)
            assert len(raw) == 3 and [row[:3] + row[4:] for row in raw] == [row[:3] + row[4:] for row in rolled]
            assert [row[3] for row in raw] == pytest.approx([row[3] for row in rolled])
        with app.app_context():
            samples = db.session.scalar(
                select(func.count()).select_from(DeviceSample).where(DeviceSample.device_id == device_id)
            )
        assert samples == 178
        latest = client.get(f"{DEVICE}/DeviceData/latest?deviceId={device_id}", headers=owner).get_json()["data"]
        assert latest["values"] == {"1": None, "2": 55.0}

    def test_a_large_batch_reaching_past_the_stores_horizon_is_stored_with_the_checks(self, app, client, owner, fridge):
        # A reading older than the store's horizon may belong to a packed day: the streamed COPY
        # stops there and is rolled back, and the whole batch goes through the checked insert, once
        # again (every reading a duplicate) when it is re-sent.
        device_id, guid, key = fridge
        now = datetime.now(UTC).replace(second=0, microsecond=0)
        with app.app_context():
            db.session.execute(update(Device).where(Device.id == device_id).values(created_at=now - timedelta(days=30)))
            db.session.commit()
        records = [
            {
                "ts": int((now - timedelta(minutes=200 - minute)).timestamp() * 1000),
                "readings": {"1": 4.0 + minute % 3, "2": 50},
            }
            for minute in range(150)
        ]
        old = now - timedelta(days=app.config["READING_PACK_AFTER_DAYS"] + 3)
        records.insert(100, {"ts": int(old.timestamp() * 1000), "readings": {"1": 3.5, "2": 51}})
        for attempt, (accepted, duplicates) in enumerate(((302, 0), (0, 302))):
            with store_statements(app) as statements:
                body = upload(client, guid, key, records).get_json()["data"]
            assert (body["accepted"], body["duplicates"], body["rejected"]) == (accepted, duplicates, []), attempt
            assert len(statements) == 1 and SKIP_STORED in statements[0].split("RETURNING")[0]
        assert stored(app, device_id) == 302
        for sensor in (1, 2):
            raw, rolled = raw_and_rolled_hours(app, device_id, sensor)
            assert [row[:3] + row[4:] for row in raw] == [row[:3] + row[4:] for row in rolled]
            assert raw[0][0] == old.replace(minute=0) and raw[0][4] == 1
        # The device's first upload: its state row, created under the streamed attempt's lock, outlived
        # the attempt's rollback and moved to the latest record.
        with app.app_context():
            state = db.session.get(DeviceState, device_id)
            assert state.last_data_at == now - timedelta(minutes=51)
            assert state.values == {"1": 4.0 + 149 % 3, "2": 50}

    def test_long_ranges_use_buckets_that_keep_the_true_min_and_max(self, app, client, owner, fridge):
        device_id, guid, key = fridge
        base = datetime.now(UTC).replace(minute=0, second=0, microsecond=0) - timedelta(days=20)
        records = [
            {"ts": int((base + timedelta(minutes=m)).timestamp() * 1000), "readings": {"1": 4.0}}
            for m in range(0, 20 * 24 * 60, 5)
        ]
        records[1000]["readings"]["1"] = 31.5  # a five-minute excursion
        records[2000]["readings"]["1"] = -12.25
        for first in range(0, len(records), 2000):
            upload(client, guid, key, records[first : first + 2000])
        query = {"deviceId": device_id, "start": base.isoformat(), "end": (base + timedelta(days=20)).isoformat()}
        data = client.get(f"{DEVICE}/DeviceData/chart", query_string=query, headers=owner).get_json()["data"]
        points = data["series"]["1"]
        assert data["bucketSeconds"] == 3600 and len(points) <= 2000
        assert max(p["max"] for p in points) == 31.5
        assert min(p["min"] for p in points) == -12.25
        assert data["series"]["2"] == []
        # One form of time at every range: the chart maps "t" as epoch ms, never parses a text.
        for days, bucketed in ((20, True), (7, True), (1, False)):
            query["start"] = (base + timedelta(days=20 - days)).isoformat()
            data = client.get(f"{DEVICE}/DeviceData/chart", query_string=query, headers=owner).get_json()["data"]
            times = [p["t"] for p in data["series"]["1"]]
            assert (data["bucketSeconds"] > 0) is bucketed and times
            assert all(type(t) is int for t in times), (days, times[:3])
            assert times == sorted(times) and base.timestamp() * 1000 <= times[0] < times[-1]

    def test_short_ranges_are_raw_and_fahrenheit_converts(self, client, owner, fridge):
        device_id, guid, key = fridge
        upload(client, guid, key, [{"ts": minutes_ago(m), "readings": {"1": 5.0, "2": 60}} for m in range(1, 11)])
        now = datetime.now(UTC)
        query = {
            "deviceId": device_id,
            "start": (now - timedelta(hours=1)).isoformat(),
            "end": now.isoformat(),
            "unit": "F",
            "sensors": "1",
        }
        data = client.get(f"{DEVICE}/DeviceData/chart", query_string=query, headers=owner).get_json()["data"]
        assert data["bucketSeconds"] == 0 and data["unit"] == "F"
        assert [p["v"] for p in data["series"]["1"]] == [41.0] * 10
        assert list(data["series"]) == ["1"]

    def test_range_validation(self, make_client, owner, fridge):
        device_id, *_ = fridge
        client = make_client(lang="en-US")
        body = client.get(
            f"{DEVICE}/DeviceData/chart",
            query_string={"deviceId": device_id, "start": "2026-02-01T00:00:00Z", "end": "2026-01-01T00:00:00Z"},
            headers=owner,
        ).get_json()
        assert body["code"] == 422 and body["data"]["errors"]["end"] == ["The end time must be after the start time."]


class TestCommands:
    def test_settings_go_down_and_come_back_applied(self, client, owner, fridge):
        device_id, guid, key = fridge
        sent = client.post(
            f"{DEVICE}/DeviceCommand/send", json={"deviceId": device_id, "params": {"0101": 10}}, headers=owner
        ).get_json()
        assert sent["data"]["status"] == "pending"
        device_headers = {"X-Device-Id": guid, "X-Device-Key": key}
        pending = client.get(f"{DEVICE}/DeviceCommand/pending", headers=device_headers).get_json()["data"]
        assert [c["params"] for c in pending] == [{"0101": 10}]
        client.post(
            f"{DEVICE}/DeviceCommand/ack", json={"commandId": pending[0]["id"], "ok": True}, headers=device_headers
        )
        listed = client.get(f"{DEVICE}/DeviceCommand/list?deviceId={device_id}", headers=owner).get_json()["data"]
        assert listed[0]["status"] == "applied"
        detail = client.get(f"{DEVICE}/Device/detail/{device_id}", headers=owner).get_json()["data"]
        assert detail["intervalSeconds"] == 600

    @pytest.mark.parametrize(
        ("params", "field"), [({"0001": 5}, "0001"), ({"0101": 0}, "0101"), ({"0101": "x"}, "0101")]
    )
    def test_only_writable_parameters_within_range(self, client, owner, fridge, params, field):
        device_id, *_ = fridge
        body = client.post(
            f"{DEVICE}/DeviceCommand/send", json={"deviceId": device_id, "params": params}, headers=owner
        ).get_json()
        assert body["code"] == 422 and field in body["data"]["errors"]

    def test_a_device_cannot_ack_another_devices_command(self, client, owner, guids, fridge):
        device_id, *_ = fridge
        command = client.post(
            f"{DEVICE}/DeviceCommand/send", json={"deviceId": device_id, "params": {"0101": 10}}, headers=owner
        ).get_json()["data"]
        other_guid, other_key = guids["th_b"]
        client.post(
            f"{DEVICE}/DeviceCommand/ack",
            json={"commandId": command["id"], "ok": True},
            headers={"X-Device-Id": other_guid, "X-Device-Key": other_key},
        )
        listed = client.get(f"{DEVICE}/DeviceCommand/list?deviceId={device_id}", headers=owner).get_json()["data"]
        assert listed[0]["status"] == "pending"


class TestTrack:
    def test_positions_in_range_in_time_order(self, client, owner, fridge):
        device_id, guid, key = fridge
        upload(
            client,
            guid,
            key,
            [
                {"ts": minutes_ago(50), "readings": {"1": 4}, "location": {"lat": 31.0, "lng": 121.0}},
                {"ts": minutes_ago(30), "readings": {"1": 4}, "location": {"lat": 30.5, "lng": 120.5}},
                {"ts": minutes_ago(20), "readings": {"1": 4}},
                {"ts": minutes_ago(10), "readings": {"1": 4}, "location": {"lat": 30.2, "lng": 120.1}},
            ],
        )
        start = datetime.fromtimestamp(minutes_ago(40) / 1000, UTC).isoformat()
        end = datetime.now(UTC).isoformat()
        response = client.get(
            f"{DEVICE}/DeviceData/track",
            query_string={"deviceId": device_id, "start": start, "end": end},
            headers=owner,
        )
        points = response.get_json()["data"]
        assert [(p["lat"], p["lng"]) for p in points] == [(30.5, 120.5), (30.2, 120.1)]
        assert points[0]["t"] < points[1]["t"]

    def test_a_reversed_range_names_the_field(self, client, owner, fridge):
        device_id = fridge[0]
        response = client.get(
            f"{DEVICE}/DeviceData/track",
            query_string={"deviceId": device_id, "start": "2026-01-02T00:00:00Z", "end": "2026-01-01T00:00:00Z"},
            headers=owner,
        )
        assert response.status_code == 422
        assert "end" in response.get_json()["data"]["errors"]


def test_track_is_thinned_keeping_first_and_last():
    from api.telemetry.queries import thin

    items = list(range(1000))
    picked = thin(items, 50)
    assert len(picked) == 50 and picked[0] == 0 and picked[-1] == 999
    assert picked == sorted(picked)
    assert thin(items[:10], 50) == items[:10]


class TestBatchParameters:
    """The same settings to many devices of one model (business-domain 5: batch distribution only to
    the same model), for types with the batch-parameter flag; a result per device."""

    def batch(self, client, headers, device_ids, params):
        body = {"deviceIds": device_ids, "params": params}
        return client.post(f"{DEVICE}/DeviceCommand/batchSend", json=body, headers=headers).get_json()

    def takes_batches(self, app, flag=True):
        with app.app_context():
            db.session.execute(update(DeviceType).where(DeviceType.type_code == 0x8002).values(batch_param=flag))
            db.session.commit()

    def test_one_model_a_result_per_device_and_the_commands_go_down(self, app, client, owner, guids):
        a = add(client, owner, guids["th_a"][0], name="Fridge A")
        b = add(client, owner, guids["th_b"][0], name="Fridge B")
        refused = self.batch(client, owner, [a, b], {"0101": 10})
        assert refused["code"] == 422 and "deviceIds" in refused["data"]["errors"]  # not a batch model yet
        self.takes_batches(app)
        with app.app_context():  # b's service expired: it is refused on its own, a still goes
            db.session.execute(
                update(Device).where(Device.id == b).values(service_expires_at=utcnow() - timedelta(days=1))
            )
            db.session.commit()
        results = self.batch(client, owner, [a, b], {"0101": 10})["data"]
        assert [(r["deviceId"], r["ok"]) for r in results] == [(a, True), (b, False)] and results[1]["msg"]
        pending = client.get(
            f"{DEVICE}/DeviceCommand/pending",
            headers={"X-Device-Id": guids["th_a"][0], "X-Device-Key": guids["th_a"][1]},
        ).get_json()["data"]
        assert [c["params"] for c in pending] == [{"0101": 10}]
        assert self.batch(client, owner, [a], {"0101": 0})["data"]["errors"].keys() == {"0101"}  # out of range

    def test_devices_of_different_models_refuse_the_whole_batch(self, app, client, owner, guids):
        self.takes_batches(app)
        a = add(client, owner, guids["th_a"][0], name="Fridge A")
        room = add(client, owner, guids["cold_room"][0], name="Room")
        body = self.batch(client, owner, [a, room], {"0101": 10})
        assert body["code"] == 422 and body["data"]["errors"]["deviceIds"]
        listed = client.get(f"{DEVICE}/DeviceCommand/list?deviceId={a}", headers=owner).get_json()["data"]
        assert listed == []  # nothing was sent to anyone


def test_a_large_batch_of_many_devices_is_inserted_unchecked_and_a_resent_one_with_the_check(
    app, client, owner, guids, fridge
):
    # A subscriber's batch (many devices) goes through the stage: PostgreSQL folds its many hours as
    # it inserts them, without the check for stored copies until one is found.
    devices = (fridge[0], add(client, owner, guids["th_b"][0], name="Freezer"))
    base = datetime.now(UTC).replace(minute=0, second=0, microsecond=0) - timedelta(hours=5)
    rows = [
        (device, sensor, base + timedelta(minutes=minute), float(minute % 17 - sensor))
        for minute in range(150)
        for device in devices
        for sensor in (1, 2)
    ]
    resent = rows[200:] + [(device, 1, base + timedelta(minutes=200), 1.5) for device in devices]
    assert min(len(rows), len(resent)) > INLINE_ROWS
    with app.app_context():
        with store_statements(app) as first:
            assert store_readings_by_device(db.session, rows) == dict.fromkeys(devices, 300)
        db.session.commit()
        with store_statements(app) as again:
            assert store_readings_by_device(db.session, resent) == dict.fromkeys(devices, 1)
        db.session.commit()
    assert [SKIP_STORED in statement.split("RETURNING")[0] for statement in first] == [False]
    assert [SKIP_STORED in statement.split("RETURNING")[0] for statement in again] == [False, True]
    for device in devices:
        assert stored(app, device) == 301
        for sensor in (1, 2):
            raw, rolled = raw_and_rolled_hours(app, device, sensor)
            assert [row[:3] + row[4:] for row in raw] == [row[:3] + row[4:] for row in rolled]
            assert [row[3] for row in raw] == pytest.approx([row[3] for row in rolled])


def test_a_companion_write_may_not_reuse_the_readings_parameter_names(app, fridge):
    # Companions share the readings' statement (api/telemetry/store.py): a clash would silently
    # bind one side's arrays to the other's placeholders.
    device_id = fridge[0]
    clashing = Companion("sampled", "SELECT 1", {"readings": "[]"})
    with app.app_context():
        with pytest.raises(ValueError, match="clash"):
            store_readings_by_device(db.session, [(device_id, 1, utcnow(), 4.0)], [clashing])
        assert db.session.scalar(select(func.count()).select_from(Reading)) == 0
