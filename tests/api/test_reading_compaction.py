"""Compaction of old readings (issue 27): days older than READING_PACK_AFTER_DAYS move from `reading`
into `reading_packed`; every output that reads readings is the same before and after, a re-sent
packed reading stays a duplicate, a new late one is stored and merged by the next run, a rerun
changes nothing, and a month of one-minute data takes at most 16 bytes per reading on disk."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from flask_migrate import downgrade, upgrade
from sqlalchemy import func, select, text
from sqlalchemy.exc import OperationalError

from api.datainterface.delivery import payload_records
from api.datainterface.models import Connector, ConnectorMapping
from api.device.models import Device
from api.extensions.db import db, utcnow
from api.fda.models import DataFile, SubjectType
from api.fda.services import late_readings, record_hash
from api.identity.models import StaffRole
from api.storage.tabs import window_mkt
from api.telemetry.compaction import Chunk, compact, plan
from api.telemetry.models import Reading, ReadingHourly, ReadingPacked
from api.telemetry.partitions import MONTHS_AHEAD, ensure_partitions, month_start
from api.telemetry.queries import stream_rows
from api.telemetry.readings import PACK_LOCK
from api.telemetry.store import store_readings
from tests.api.account_helpers import auth, login, make_account
from tests.api.device_helpers import add, guids, owner  # noqa: F401 - fixtures
from tests.api.report_helpers import export, files_dir, read_csv, set_device  # noqa: F401 - files_dir is a fixture

DAYS = 7
STEP_S = 600


def _now() -> datetime:
    return utcnow()


@pytest.fixture
def device(app, client, owner, guids):  # noqa: F811
    device_id = add(client, owner, guids["th_a"][0], name="Fridge", tz="UTC")
    set_device(app, device_id, interval_s=60)  # week ranges then chart as raw buckets
    return device_id


def _spread(app, device_id: int) -> tuple[datetime, datetime]:
    """Two sensors every ~10 minutes over 20 days ending two days ago, microsecond timestamps; received
    live (microsecond delays), back-filled days later, exactly at and just past the back-fill
    threshold (1,800 s), or unknown (NULL)."""
    end = _now().replace(minute=0, second=0, microsecond=0) - timedelta(days=2)
    start = end - timedelta(days=20)
    rng = random.Random(27)
    rows = []
    for i in range(20 * 24 * 3600 // STEP_S):
        ts = start + timedelta(seconds=i * STEP_S, microseconds=(i * 7919) % 1_000_000)
        rows.append((device_id, 1, ts, round(4 + rng.gauss(0, 1.5), 2) if i % 5 else 0.1 + 0.2))
        if i % 3:
            rows.append((device_id, 2, ts, rng.uniform(40, 90)))
    with app.app_context():
        store_readings(db.session, rows)
        db.session.execute(
            text("""
            UPDATE reading SET received_at = CASE
                WHEN n % 7 = 0 THEN NULL
                WHEN n % 11 = 0 THEN ts + interval '3 days 17 seconds 123457 microseconds'
                WHEN n % 13 = 0 THEN ts + interval '1800 seconds'
                WHEN n % 17 = 0 THEN ts + interval '1800.000001 seconds'
                ELSE ts + (2500000 + n) * interval '1 microsecond' END
            FROM (SELECT DISTINCT ts AS t, floor(extract(epoch FROM ts) / 600)::bigint AS n FROM reading) AS numbered
            WHERE numbered.t = reading.ts AND device_id = :d"""),
            {"d": device_id},
        )
        db.session.commit()
    return start, end


def _outputs(app, client, owner, device_id: int, start: datetime, end: datetime, key: str, sinces: list) -> dict:  # noqa: F811
    """Everything that reads readings, as its callers get it (ranges fixed by start and end)."""
    out: dict = {}
    for name, (first, last) in {
        "raw_day": (end - timedelta(days=15), end - timedelta(days=14)),
        # Across the packed / raw boundary (seven days ago, the data ends two days ago).
        "raw_buckets_week": (end - timedelta(days=10, minutes=7), end - timedelta(days=3)),
        "hourly": (start, end),
    }.items():
        query = {"deviceId": device_id, "sensors": "1,2", "start": first.isoformat(), "end": last.isoformat()}
        answer = client.get("/api/device/DeviceData/chart", query_string=query, headers=owner)
        assert answer.status_code == 200, answer.get_json()
        out[f"chart_{name}"] = answer.get_data()
    body = export(client, {**owner, "X-Timezone": "UTC"}, [device_id], "csv", start=start, end=end + timedelta(days=2))
    assert body["code"] == 0, body
    out["csv_id"] = body["data"]["id"]
    out["data_api"] = client.get(
        "/api/open/v1/readings",
        headers={"X-Api-Key": key},
        query_string={"deviceGuid": _guid(app, device_id), "startTime": start.isoformat(), "endTime": end.isoformat()},
    ).get_data()
    with app.app_context():
        out["stream"] = list(stream_rows(device_id, [1, 2], start - timedelta(hours=1), end, backfill_s=1800))
        device = db.session.get(Device, device_id)
        file = DataFile(
            owner_account_id=device.owner_account_id,
            platform_id=device.platform_id,
            subject_type=SubjectType.DEVICE,
            subject_id=device_id,
            collect_begin=start + timedelta(days=1, microseconds=3),
            collect_end=end - timedelta(hours=5),
        )
        out["fda_hash"] = record_hash(file)
        out["fda_late"] = [late_readings(file, since) for since in sinces]
        connector = db.session.scalar(select(Connector))
        out["data_interface"] = payload_records(connector, start + timedelta(days=3), end - timedelta(days=1))
        out["mkt"] = window_mkt([(device_id, 1), (device_id, 2)], start, end)
        out["mkt_recent"] = window_mkt([(device_id, 1)], end - timedelta(days=6), end)
        db.session.rollback()
    return out


def _guid(app, device_id: int) -> str:
    with app.app_context():
        return db.session.get(Device, device_id).guid


def _connector(app, device_id: int) -> None:
    with app.app_context():
        device = db.session.get(Device, device_id)
        connector = Connector(
            owner_account_id=device.owner_account_id,
            platform_id=device.platform_id,
            name="Province",
            endpoint="https://province.example/upload",
            app_id="app",
            secret="secret",
        )
        connector.mappings.append(ConnectorMapping(device_id=device_id, equipment_code="ZJ-01"))
        db.session.add(connector)
        db.session.commit()


def _api_key(app, client, device_id: int) -> str:
    make_account(app, user_name="operator", staff_role=StaffRole.OPERATOR)
    operator = auth(login(client, "operator"))
    with app.app_context():
        account_id = db.session.get(Device, device_id).owner_account_id
    answer = client.post(
        "/api/product/DataApiKey/insert", headers=operator, json={"accountId": account_id, "name": "ERP"}
    )
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()["data"]["secret"]


def _compact(app, days: int = DAYS):
    with app.app_context():
        return compact(db.engine, _now(), days)


def _counts(app, device_id: int) -> tuple[int, int, int]:
    """(raw readings, readings in packed rows, readings counted by the hourly rollup)."""
    with app.app_context():
        raw = db.session.scalar(select(func.count()).select_from(Reading).where(Reading.device_id == device_id))
        packed = db.session.scalar(
            select(func.coalesce(func.sum(ReadingPacked.count), 0)).where(ReadingPacked.device_id == device_id)
        )
        rolled = db.session.scalar(
            select(func.coalesce(func.sum(ReadingHourly.count), 0)).where(ReadingHourly.device_id == device_id)
        )
        return raw, int(packed), int(rolled)


def _packed_table(app) -> list[tuple]:
    with app.app_context():
        return [tuple(row) for row in db.session.execute(text("SELECT * FROM reading_packed ORDER BY 1, 2, 3"))]


def test_every_output_is_the_same_after_compaction(app, client, owner, device, files_dir, run_jobs):  # noqa: F811
    start, end = _spread(app, device)
    _connector(app, device)
    key = _api_key(app, client, device)
    with app.app_context():  # a signature at the very microsecond a (then packed) reading was received
        exact = db.session.scalar(
            select(Reading.received_at)
            .where(
                Reading.device_id == device,
                # Inside the signed file's window (collected from start + 1 day), so the count moves there.
                Reading.ts > start + timedelta(days=2),
                Reading.received_at - Reading.ts < timedelta(seconds=10),
            )
            .order_by(Reading.ts)  # one reading, the same every run (any row could fall outside the window)
            .limit(1)
        )
        db.session.rollback()
    sinces = [start, start + timedelta(days=9), end, exact, exact - timedelta(microseconds=1)]
    before = _outputs(app, client, owner, device, start, end, key, sinces)
    raw_before, _, rolled_before = _counts(app, device)

    result = _compact(app)
    assert result.readings > 0 and result.packed_rows > 0
    raw_after, packed_after, rolled_after = _counts(app, device)
    assert raw_after < raw_before / 2  # most days are packed now...
    assert raw_after + packed_after == raw_before and rolled_after == rolled_before  # ...none lost or doubled

    after = _outputs(app, client, owner, device, start, end, key, sinces)
    run_jobs()
    for name in before:
        if name == "csv_id":
            continue
        assert after[name] == before[name], name
    assert read_csv(client, owner, after["csv_id"])[1] == read_csv(client, owner, before["csv_id"])[1]
    # The data behind the comparison is not trivial: back-filled points, late counts, gaps.
    assert b'"b":true' in before["chart_raw_day"] or b'"b": true' in before["chart_raw_day"]
    assert len(set(before["fda_late"])) == 5 and before["fda_hash"][1] > 3000
    assert any(late for _ms, _values, late in before["stream"])


def test_packed_days_hold_exactly_the_raw_rows_they_replace(app, client, owner, device):  # noqa: F811
    _spread(app, device)
    with app.app_context():
        query = text(
            "SELECT sensor, ts, value, received_at FROM reading WHERE device_id = :d AND ts < :cut ORDER BY 1, 2"
        )
        cut = datetime.combine((_now() - timedelta(days=DAYS)).date(), datetime.min.time(), UTC)
        raw = [tuple(row) for row in db.session.execute(query, {"d": device, "cut": cut})]
        db.session.rollback()
    assert raw
    _compact(app)
    with app.app_context():
        assert db.session.execute(query, {"d": device, "cut": cut}).all() == []
        unpacked = []
        for packed in db.session.scalars(select(ReadingPacked).where(ReadingPacked.device_id == device)):
            steps = packed.delays or [None] * packed.count
            assert len(packed.vals) == len(steps) == packed.count
            delay = 0
            for ts, value, step in zip(_times(packed), packed.vals, steps, strict=True):
                delay += step or 0
                received = None if step is None else ts + timedelta(microseconds=delay)
                unpacked.append((packed.sensor, ts, value, received))
        assert sorted(unpacked) == raw
        days = db.session.execute(
            select(ReadingPacked.day, ReadingPacked.count, ReadingPacked.first_ts, ReadingPacked.last_ts).where(
                ReadingPacked.device_id == device, ReadingPacked.sensor == 1
            )
        ).all()
        assert all(first.date() == day == last.date() and 0 < count <= 144 for day, count, first, last in days)
        assert sum(count == 144 for _day, count, *_ in days) >= 10  # whole days: one every ten minutes
        assert max(day for day, *_ in days) < cut.date()
        # A whole day's arrays are compressed (lz4), here irregular microsecond steps at 2.5 bytes, not
        # 8. (PostgreSQL compresses only rows over its 2 kB threshold: the first, partial day of the
        # data, whose length depends on the hour the test runs, may stay below it.)
        size, method = db.session.execute(
            text(
                "SELECT max(pg_column_size(deltas)), min(pg_column_compression(vals)) FROM reading_packed "
                "WHERE count = 144"
            )
        ).one()
        assert size < 144 * 8 / 2 and method == "lz4"


def test_a_resent_packed_reading_is_a_duplicate_and_a_new_late_one_is_merged(app, client, owner, device):  # noqa: F811
    _spread(app, device)
    _compact(app)
    with app.app_context():
        old = db.session.scalar(select(ReadingPacked).where(ReadingPacked.device_id == device).limit(1))
        day, sensor, first_ts, kept_value, count = old.day, old.sensor, old.first_ts, old.vals[0], old.count
        db.session.rollback()
    raw, packed, rolled = _counts(app, device)
    with app.app_context():
        # Re-sent (here with another value): the packed one is kept, nothing folds into the rollup.
        assert store_readings(db.session, [(device, sensor, first_ts, 99.0)]) == 0
        db.session.commit()
    assert _counts(app, device) == (raw, packed, rolled)

    late_ts = first_ts + timedelta(seconds=1, microseconds=5)  # never seen: stored raw, shown at once
    with app.app_context():
        assert store_readings(db.session, [(device, sensor, late_ts, 12.5), (device, sensor, first_ts, 1.0)]) == 1
        db.session.commit()
        shown = list(stream_rows(device, [sensor], first_ts, first_ts + timedelta(seconds=2)))
        db.session.rollback()
    assert [values for _ms, values, _late in shown] == [{sensor: kept_value}, {sensor: 12.5}]
    assert _counts(app, device) == (raw + 1, packed, rolled + 1)

    result = _compact(app)  # the next run merges it into its day
    assert (result.readings, result.packed_rows) == (1, 1)
    assert _counts(app, device) == (raw, packed + 1, rolled + 1)
    with app.app_context():
        merged = db.session.get(ReadingPacked, (device, sensor, day))
        times = _times(merged)
        assert merged.count == count + 1 and times[:2] == [first_ts, late_ts] and merged.vals[:2] == [kept_value, 12.5]
        assert times == sorted(times) and len(set(times)) == len(times)
        # Re-sent again, now that it is packed: a duplicate.
        assert store_readings(db.session, [(device, sensor, late_ts, 12.5)]) == 0
        db.session.rollback()


def test_a_raw_copy_of_a_packed_reading_gives_way_to_the_packed_one(app, client, owner, device):  # noqa: F811
    """Written around the store (a restore of an old dump, say): the next run keeps the packed reading."""
    _spread(app, device)
    _compact(app)
    with app.app_context():
        old = db.session.scalar(select(ReadingPacked).where(ReadingPacked.device_id == device).limit(1))
        key, first_ts, kept_value, count = (old.device_id, old.sensor, old.day), old.first_ts, old.vals[0], old.count
        db.session.execute(
            text("INSERT INTO reading (device_id, sensor, ts, value) VALUES (:d, :s, :ts, 99.0)"),
            {"d": device, "s": key[1], "ts": first_ts},
        )
        db.session.commit()
    assert _compact(app).readings == 1
    with app.app_context():
        merged = db.session.get(ReadingPacked, key)
        assert (merged.count, merged.vals[0], _times(merged)[0]) == (count, kept_value, first_ts)


def _times(packed: ReadingPacked) -> list[datetime]:
    moment = datetime.combine(packed.day, datetime.min.time(), UTC)
    out = []
    for delta in packed.deltas:
        moment += timedelta(microseconds=delta)
        out.append(moment)
    return out


def test_a_rerun_changes_nothing(app, client, owner, device):  # noqa: F811
    _spread(app, device)
    first = _compact(app)
    table = _packed_table(app)
    counts = _counts(app, device)
    again = _compact(app)
    assert first.readings > 0 and (again.readings, again.packed_rows, again.chunks) == (0, 0, 0)
    assert _packed_table(app) == table and _counts(app, device) == counts


def test_a_write_of_old_readings_waits_for_a_running_chunk_and_live_ones_do_not(app, device):
    """The pack lock: held by a compaction chunk, it holds back a batch with readings older than the
    store's horizon (so the batch sees the chunk's packed day afterwards), never a live batch."""
    now = _now()
    with app.app_context():
        with db.engine.connect() as chunk:
            chunk.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": PACK_LOCK})
            db.session.execute(text("SET LOCAL lock_timeout = '300ms'"))
            assert store_readings(db.session, [(device, 1, now - timedelta(minutes=1), 4.0)]) == 1
            with pytest.raises(OperationalError, match="lock timeout"):
                store_readings(db.session, [(device, 1, now - timedelta(days=DAYS), 4.0)])
            db.session.rollback()
            chunk.rollback()  # the chunk ends: the old reading goes in
        assert store_readings(db.session, [(device, 1, now - timedelta(days=DAYS), 4.0)]) == 1
        db.session.commit()


def test_the_cli_packs_and_refuses_fewer_days_than_the_setting(app, client, owner, device):  # noqa: F811
    _spread(app, device)
    runner = app.test_cli_runner()
    refused = runner.invoke(args=["compact-readings", "--days", "3"])
    assert refused.exit_code == 2 and "READING_PACK_AFTER_DAYS (7)" in refused.output
    assert _counts(app, device)[1] == 0
    done = runner.invoke(args=["compact-readings", "--days", "12"])
    assert done.exit_code == 0 and done.output.startswith("moved "), done.output
    raw, packed, _rolled = _counts(app, device)
    assert packed > 0 and raw > 0
    with app.app_context():
        newest = db.session.scalar(select(func.max(ReadingPacked.day)))
    assert newest < (_now() - timedelta(days=12)).date()


def test_stepping_the_migration_back_unpacks_every_reading(app, client, owner, device):  # noqa: F811
    _spread(app, device)
    with app.app_context():
        everything = text("SELECT device_id, sensor, ts, value, received_at FROM reading ORDER BY 1, 2, 3")
        before = db.session.execute(everything).all()
        db.session.rollback()
    _compact(app)
    with app.app_context():
        try:
            downgrade(revision="0027")
            assert db.session.execute(everything).all() == before
        finally:
            db.session.rollback()
            upgrade()


def test_chunks_are_bounded_and_cover_the_backlog():
    day = datetime(2026, 1, 1).date()
    backlog = [(day, 1, 60), (day, 2, 60), (day + timedelta(days=1), 1, 30), (day + timedelta(days=2), 5, 500)]
    chunks = plan(backlog, limit=100)
    assert chunks == [
        Chunk(day, day, 1, 1, 60),
        Chunk(day, day, 2, 2, 60),
        Chunk(day + timedelta(days=1), day + timedelta(days=1), 1, 1, 30),
        Chunk(day + timedelta(days=2), day + timedelta(days=2), 5, 5, 500),
    ]
    small = plan([(day + timedelta(days=i), 3, 10) for i in range(5)], limit=100)
    assert small == [Chunk(day, day + timedelta(days=4), 3, 3, 50)]


# How the month's readings were received, and the bytes per reading it may take. A whole batch received
# at once (store_readings: one now()) and unknown receive times (rows of before received_at, like the
# benchmark's COPY) meet the 16; a separate message per reading, each received at a random
# microsecond (21 bits of noise a reading that no coder removes), costs about 5 bytes more than that,
# and on this one month of one device the empty partitions' index pages add 1.5 (a fixed 64 kB).
RECEIVED = {
    "batch": (None, 16),
    "unknown": ("UPDATE reading SET received_at = NULL", 16),
    "jitter": ("UPDATE reading SET received_at = ts + (3e6 + random() * 2e6)::int * interval '1 microsecond'", 18),
}


@pytest.mark.parametrize("received", list(RECEIVED))
def test_a_month_of_one_minute_data_takes_at_most_16_bytes_per_reading(app, client, owner, device, received):  # noqa: F811
    """Measured as bench/telemetry.py does: every reading partition (table, indexes, TOAST), the
    packed table and the hourly rollup, over the readings stored."""
    update, limit = RECEIVED[received]
    month = month_start(_now(), -2)  # wholly older than the cutoff: its partition is truncated
    rng = random.Random(5)
    with app.app_context():
        # Physically empty, as in the benchmark's own database: the tests before this one leave the
        # dead space of their deleted rows in these tables (tests/conftest.py empties with DELETE).
        db.session.execute(text("TRUNCATE reading, reading_packed, reading_hourly"))
        db.session.commit()
        with db.engine.begin() as connection:
            ensure_partitions(connection, _now(), months_back=3)
        minutes = int((month_start(month, 1) - month).total_seconds() // 60)
        rows = [(device, 1, month + timedelta(minutes=m), round(-18 + rng.gauss(0, 1), 2)) for m in range(minutes)]
        store_readings(db.session, rows)
        if update:
            db.session.execute(text("SELECT setseed(0.5)"))  # the same jitter every run: a measure, not a draw
            db.session.execute(text(update))
        db.session.commit()
    result = _compact(app)
    assert result.readings == minutes and f"reading_{month:%Y%m}" in result.truncated
    with app.app_context():
        # The partitions a database holds at this date (ensure_partitions' window and the default), not
        # the far months earlier tests of this worker made: their empty indexes are another database's.
        window = [f"reading_{month_start(_now(), o):%Y%m}" for o in range(-3, MONTHS_AHEAD + 1)] + ["reading_default"]
        total, readings = db.session.execute(
            text("""
            SELECT (SELECT sum(pg_total_relation_size(inhrelid)) FROM pg_inherits
                    WHERE inhparent = 'reading'::regclass AND CAST(inhrelid AS regclass)::text = ANY(:window))
                   + pg_total_relation_size('reading_packed') + pg_total_relation_size('reading_hourly'),
                   (SELECT count(*) FROM reading) + (SELECT sum(count) FROM reading_packed)"""),
            {"window": window},
        ).one()
    assert readings == minutes
    print(f"{received}: {total / readings:.2f} bytes per reading")
    assert total / readings <= limit, total / readings
