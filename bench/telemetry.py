"""Telemetry benchmarks on PostgreSQL (issue 5): ingestion, charts, device list, home counts.

- copy_per_s: raw COPY of readings into `reading`, the floor any ingestion path is compared with.
- ingest_http_per_s: HTTP batch uploads through the whole api stack in-process (request parsing,
  device authentication, validation, readings + rollups + samples + state, alarm seam, commit).
- ingest_mqtt_per_s: the same batches published to Mosquitto (QoS 1) and stored by the subscriber.
- chart_year_p50_ms / chart_day_p50_ms: one sensor with a year of one-minute data (525,600 readings).
- device_list_p50_ms / device_list_p99_ms: 10,000 devices on one account, a page of 10 with latest
  state and a status filter, 50 concurrent clients against gunicorn, each refreshing about once a
  second on its own rhythm (bench/_paced.py); the `_100rps` lines repeat it at twice a second.
- home_counts_ms: the status counts of those 10,000 devices.
- storage_bytes_per_reading: on-disk bytes (reading partitions with their indexes and TOAST, plus the
  hourly rollup) per stored reading after the chart's year is loaded.
- storage_bytes_per_reading_packed: the same after the compaction packed all but the last 7 days of
  that year (issue 27): every byte the year added to the database (raw partitions with the dead
  space the compaction left, the packed table with TOAST and index, the rollup) over its readings;
  storage_bytes_per_reading_db: the whole database's figure then (with the other benchmarks' fresh
  raw readings). The chart figures are then measured on the compacted year; chart_day_packed_p50_ms
  charts a day of 30 days ago (raw points from packed rows); compaction_readings_per_s.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import paho.mqtt.client as mqtt
import requests
from sqlalchemy import func, select, text

from api.account.services import ensure_account
from api.device.catalogue import sync_catalogue
from api.device.models import Device
from api.device.services import claim, issue_guids
from api.extensions.db import db, utcnow
from api.identity.models import AccountType
from api.platform.services import sync_tenants
from api.telemetry.compaction import compact
from api.telemetry.models import Reading
from api.telemetry.mqtt import build_subscriber
from api.telemetry.partitions import ensure_partitions
from api.tenancy import find_platform
from bench._paced import paced_users
from bench._util import BENCH_DATABASE_URL, BENCH_REDIS_URL, bench_app, percentile, report, sized, timings_ms
from tests.reliability.engines import free_port

PASSWORD = "Bench#2026"
BATCH_RECORDS = 500  # records per upload, 4 sensors each -> 2,000 readings per request
UPLOADS = sized(30, 2)
# The chart's history of one-minute readings: a year; the quick run's 40 days still reach the packed day.
CHART_MINUTES = sized(365 * 24 * 60, 40 * 24 * 60)
REPEAT = sized(200, 5)  # timed calls of each chart and list figure


def run() -> None:
    app = bench_app()
    with app.app_context():
        sync_tenants()
        types = sync_catalogue()
        platform = find_platform("localhost")
        account = ensure_account(platform, "benchuser", PASSWORD, account_type=AccountType.ENTERPRISE)
        db.session.commit()
        fleet = issue_guids(platform, types[0x8003], 3, "BENCH")  # 4-probe controllers
        for guid, _key in fleet:
            device = db.session.scalar(select(Device).where(Device.guid == guid))
            claim(device, account.id, guid[-6:], "UTC")
            # Issued long ago: the uploads carry readings of days ago, and a reading older than the
            # device's issuance is refused.
            device.created_at = utcnow() - timedelta(days=400)
        db.session.commit()
    copy_rate = bench_copy(app)
    http_rate = bench_ingest_http(app, fleet[0])
    mqtt_rate = bench_ingest_mqtt(app, fleet[1])
    report("copy_per_s", copy_rate, "readings/s")
    report("ingest_http_per_s", http_rate, "readings/s")
    report("ingest_http_vs_copy", http_rate / copy_rate, "ratio")
    report("ingest_mqtt_per_s", mqtt_rate, "readings/s")
    bench_chart(app, fleet[2][0])
    bench_device_list(app)


def batches(start: datetime, count: int, sensors=(1, 2, 3, 4)):
    rng = random.Random(1)  # noqa: S311 - benchmark data
    ts = start
    for _ in range(count):
        records = []
        for _ in range(BATCH_RECORDS):
            records.append(
                {
                    "ts": int(ts.timestamp() * 1000),
                    "readings": {str(s): round(-18 + rng.gauss(0, 1), 1) for s in sensors},
                }
            )
            ts += timedelta(seconds=10)
        yield records


def bench_copy(
    app, rows: int = sized(200_000, 2_000), base: datetime | None = None, commit_every: int | None = None
) -> float:
    """COPY of `rows` readings of one device from `base` on (two days ago) in one transaction,
    committed; or, with `commit_every`, one COPY and commit per so many readings, as uploads of that
    size are committed: readings/s. The rows are deleted afterwards."""
    base = base or utcnow() - timedelta(days=2)
    per_transaction = commit_every or rows
    with app.app_context():
        raw = db.engine.raw_connection()
        try:
            cursor = raw.cursor()
            started = time.perf_counter()
            for first in range(0, rows, per_transaction):
                with cursor.copy("COPY reading (device_id, sensor, ts, value) FROM STDIN") as copy:
                    for i in range(first, min(first + per_transaction, rows)):
                        copy.write_row((999_999, i % 4 + 1, base + timedelta(seconds=i // 4), -18.0))
                raw.commit()
            elapsed = time.perf_counter() - started
            cursor.execute("DELETE FROM reading WHERE device_id = 999999")
            raw.commit()
        finally:
            raw.close()
    return rows / elapsed


def bench_ingest_http(app, device) -> float:
    guid, key = device
    client = app.test_client()
    headers = {"Host": "localhost", "X-Device-Id": guid, "X-Device-Key": key}
    bodies = [
        json.dumps({"guid": guid, "records": records}) for records in batches(utcnow() - timedelta(days=3), UPLOADS)
    ]
    stored = 0
    started = time.perf_counter()
    for body in bodies:
        answer = client.post(
            "/api/device/DeviceData/upload", data=body, headers=headers, content_type="application/json"
        ).get_json()
        stored += answer["data"]["accepted"]
    elapsed = time.perf_counter() - started
    if stored != UPLOADS * BATCH_RECORDS * 4:
        raise RuntimeError(f"HTTP ingest stored {stored}")
    return stored / elapsed


def bench_ingest_mqtt(app, device) -> float:
    guid, key = device
    subscriber_id = f"bench-ingest-{uuid.uuid4().hex[:8]}"
    subscriber = build_subscriber(app, subscriber_id)
    subscriber.loop_start()
    publisher = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"bench-pub-{uuid.uuid4().hex[:8]}")
    publisher.max_inflight_messages_set(100)
    publisher.connect("127.0.0.1", 1883)
    publisher.loop_start()
    time.sleep(0.5)
    payloads = [
        json.dumps({"guid": guid, "key": key, "records": records})
        for records in batches(utcnow() - timedelta(days=2), UPLOADS)
    ]
    expected = UPLOADS * BATCH_RECORDS * 4
    with app.app_context():
        device_id = db.session.scalar(select(Device.id).where(Device.guid == guid))
    started = time.perf_counter()
    for payload in payloads:
        publisher.publish(f"devices/{guid}/telemetry", payload, qos=1)
    stored = 0
    while time.perf_counter() - started < 120:
        with app.app_context():
            stored = db.session.scalar(select(func.count()).select_from(Reading).where(Reading.device_id == device_id))
            db.session.remove()
        if stored >= expected:
            break
        time.sleep(0.05)
    elapsed = time.perf_counter() - started
    publisher.loop_stop()
    publisher.disconnect()
    subscriber.loop_stop()
    subscriber.disconnect()
    cleaner = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=subscriber_id, clean_session=True)
    cleaner.connect("127.0.0.1", 1883)
    cleaner.disconnect()
    if stored != expected:
        raise RuntimeError(f"MQTT ingest stored {stored} of {expected}")
    return stored / elapsed


def login(client) -> dict:
    body = client.post(
        "/api/base/BaseAccount/login",
        json={"userName": "benchuser", "password": PASSWORD},
        headers={"Host": "localhost"},
    ).get_json()
    return {"Host": "localhost", "Authorization": f"Bearer {body['data']['token']}"}


def bench_chart(app, guid: str) -> None:
    """A year of one-minute readings loaded with COPY, the hourly rollup built from it in SQL."""
    end = utcnow().replace(second=0, microsecond=0)
    start = end - timedelta(minutes=CHART_MINUTES)
    baseline = storage_bytes(app)[0]
    with app.app_context():
        device_id = db.session.scalar(select(Device.id).where(Device.guid == guid))
        with db.engine.begin() as connection:
            ensure_partitions(connection, end, months_back=13)
        raw = db.engine.raw_connection()
        try:
            cursor = raw.cursor()
            rng = random.Random(3)  # noqa: S311 - benchmark data
            with cursor.copy("COPY reading (device_id, sensor, ts, value) FROM STDIN") as copy:
                for minute in range(CHART_MINUTES):
                    copy.write_row((device_id, 1, start + timedelta(minutes=minute), round(-18 + rng.gauss(0, 1), 2)))
            cursor.execute(
                text("""
                INSERT INTO reading_hourly (device_id, sensor, bucket, min_value, max_value, sum_value, count,
                                            first_ts, last_ts)
                SELECT device_id, sensor, date_trunc('hour', ts), min(value), max(value), sum(value), count(*),
                       min(ts), max(ts)
                FROM reading WHERE device_id = %(d)s GROUP BY device_id, sensor, date_trunc('hour', ts)
                ON CONFLICT DO NOTHING""").text,
                {"d": device_id},
            )
            cursor.execute("ANALYZE reading")
            cursor.execute("ANALYZE reading_hourly")
            raw.commit()
        finally:
            raw.close()
    storage_per_reading(app)
    compact_year(app, baseline, CHART_MINUTES)
    client = app.test_client()
    headers = login(client)

    def chart(days: int, ago: int = 0):
        query = {
            "deviceId": device_id,
            "sensors": "1",
            "start": (end - timedelta(days=days + ago)).isoformat(),
            "end": (end - timedelta(days=ago)).isoformat(),
        }
        return lambda: client.get("/api/device/DeviceData/chart", query_string=query, headers=headers)

    year = chart(365)
    points = len(year().get_json()["data"]["series"]["1"])
    report("chart_year_points", points, "points")
    report("chart_year_p50_ms", percentile(timings_ms(year, sized(60, 3), warmup=sized(5, 1)), 50), "ms")
    report("chart_day_p50_ms", percentile(timings_ms(chart(1), REPEAT, warmup=sized(10, 1)), 50), "ms")
    packed_day = chart(1, ago=30)
    if packed_day().get_json()["data"]["bucketSeconds"] != 0 or not packed_day().get_json()["data"]["series"]["1"]:
        raise RuntimeError("the packed day did not chart as raw points")
    report("chart_day_packed_p50_ms", percentile(timings_ms(packed_day, REPEAT, warmup=sized(10, 1)), 50), "ms")


def storage_bytes(app) -> tuple[int, int]:
    """(on-disk bytes of every reading partition, the packed table and the rollup, readings stored)."""
    with app.app_context():
        total, readings = db.session.execute(
            text("""
            SELECT coalesce((SELECT sum(pg_total_relation_size(inhrelid)) FROM pg_inherits
                             WHERE inhparent = 'reading'::regclass), 0)
                   + pg_total_relation_size('reading_packed') + pg_total_relation_size('reading_hourly'),
                   (SELECT count(*) FROM reading) + (SELECT coalesce(sum(count), 0) FROM reading_packed)""")
        ).one()
        db.session.remove()
    return int(total), int(readings)


def compact_year(app, baseline: int, year_readings: int) -> None:
    """Pack all but the last 7 days (the default READING_PACK_AFTER_DAYS), then the year's bytes."""
    with app.app_context():
        result = compact(db.engine, utcnow(), 7)
        with db.engine.begin() as connection:
            connection.execute(text("ANALYZE reading_packed"))
        db.session.remove()
    report("compaction_readings_per_s", result.readings / result.seconds, "readings/s")
    total, readings = storage_bytes(app)
    report("storage_bytes_per_reading_packed", (total - baseline) / year_readings, "bytes")
    report("storage_bytes_per_reading_db", total / readings, "bytes")


def storage_per_reading(app) -> None:
    """On-disk bytes of every reading partition (table, indexes, TOAST) plus the hourly rollup,
    per stored reading, once the chart's year is loaded (issue 27)."""
    with app.app_context():
        total, readings = db.session.execute(
            text("""
            SELECT (SELECT sum(pg_total_relation_size(inhrelid)) FROM pg_inherits
                    WHERE inhparent = 'reading'::regclass)
                   + pg_total_relation_size('reading_hourly'),
                   (SELECT count(*) FROM reading)""")
        ).one()
        db.session.remove()
    report("storage_readings", readings, "readings")
    report("storage_bytes_per_reading", total / readings, "bytes")


def bench_device_list(app) -> None:
    devices = sized(10_000, 200)
    with app.app_context():
        types = sync_catalogue()
        platform = find_platform("localhost")
        account = ensure_account(platform, "fleetowner", PASSWORD, account_type=AccountType.ENTERPRISE)
        db.session.commit()
        raw = db.engine.raw_connection()
        try:
            cursor = raw.cursor()
            now = datetime.now(UTC)
            cursor.execute("SELECT coalesce(max(id), 0) FROM device")
            first_id = cursor.fetchone()[0] + 1
            with cursor.copy(
                "COPY device (id, guid, device_type_id, platform_id, owner_account_id, name, time_zone, "
                "interval_s, enabled, deleted, focus, credential_version, claimed_at, service_expires_at, "
                "sensor_settings, created_at, updated_at) FROM STDIN"
            ) as copy:
                for i in range(devices):
                    copy.write_row(
                        (
                            first_id + i,
                            f"9{i:012d}",
                            types[0x8002].id,
                            platform.id,
                            account.id,
                            f"Fridge {i}",
                            "UTC",
                            300,
                            i % 50 != 0,
                            False,
                            False,
                            1,
                            now,
                            now + timedelta(days=365),
                            "{}",
                            now,
                            now,
                        )
                    )
            with cursor.copy(
                "COPY device_state (device_id, last_data_at, offline_at, values, battery, signal, "
                "alarm_active, fault) FROM STDIN"
            ) as copy:
                for i in range(devices):
                    last = now - timedelta(minutes=(i % 7) * 10)
                    copy.write_row(
                        (
                            first_id + i,
                            last,
                            last + timedelta(minutes=15),
                            json.dumps({"1": 4.0, "2": 55.0}),
                            80,
                            -70,
                            i % 13 == 0,
                            False,
                        )
                    )
            cursor.execute("SELECT setval('device_id_seq', (SELECT max(id) FROM device))")
            cursor.execute("ANALYZE device")
            cursor.execute("ANALYZE device_state")
            raw.commit()
        finally:
            raw.close()
    client = app.test_client()
    body = client.post(
        "/api/base/BaseAccount/login",
        json={"userName": "fleetowner", "password": PASSWORD},
        headers={"Host": "localhost"},
    ).get_json()
    token = body["data"]["token"]
    headers = {"Host": "localhost", "Authorization": f"Bearer {token}"}
    counts = timings_ms(
        lambda: client.get("/api/device/Device/statusCount", headers=headers), sized(100, 5), warmup=sized(5, 1)
    )
    report("home_counts_ms", percentile(counts, 50), "ms")
    page = {"start": 3, "pageSize": 10, "status": "online"}
    server = timings_ms(
        lambda: client.post("/api/device/Device/page", json=page, headers=headers), REPEAT, warmup=sized(10, 1)
    )
    report("device_list_server_p50_ms", percentile(server, 50), "ms")
    concurrent_list(headers, page, clients=sized(50, 4), seconds=sized(30, 2))


# 2 workers, as on this 2-core machine (gunicorn.conf.py's gevent workers: started in the repository's root).
GUNICORN = [sys.executable, "-m", "gunicorn", "-w", "2", "--keep-alive", "10", "--backlog", "256"]


def concurrent_list(headers: dict, page: dict, clients: int = 50, seconds: int = 30) -> None:
    """gunicorn (2 gevent workers, as on this 2-core machine) and 50 concurrent clients (paced
    users, bench/_paced.py), each refreshing the list about once a second (about 50 requests/s
    offered; the web itself refreshes a list every 30 s) for the named figures, then twice a
    second (about 100 requests/s, `_100rps`)."""
    port = free_port()  # not a fixed one: two checkouts may benchmark at once
    env = {
        **os.environ,
        "APP_ENV": "production",
        "SECRET_KEY": "bench-secret-key",
        "HOST_ALIASES": "localhost=default",
        "DATABASE_URL": BENCH_DATABASE_URL,
        "REDIS_URL": BENCH_REDIS_URL,
    }
    server = subprocess.Popen(  # noqa: S603 - our own gunicorn
        [*GUNICORN, "-b", f"127.0.0.1:{port}", "api:create_app()"],
        cwd=Path(__file__).resolve().parent.parent,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                requests.get(f"{url}/api/health", timeout=1)
                break
            except requests.RequestException:
                time.sleep(0.2)
        body = json.dumps(page).encode()
        request_headers = {**headers, "Content-Type": "application/json"}
        for pace_s, suffix in ((1.0, ""), (0.5, "_100rps")):
            measured = paced_users(
                f"{url}/api/device/Device/page",
                method="POST",
                headers=request_headers,
                body=body,
                users=clients,
                seconds=seconds,
                pace_s=pace_s,
            )
            report(f"device_list_p50_ms{suffix}", percentile(measured.latencies_ms, 50), "ms")
            report(f"device_list_p99_ms{suffix}", percentile(measured.latencies_ms, 99), "ms")
            report(f"device_list_rps{suffix}", len(measured.latencies_ms) / seconds, "requests/s")
            report(f"device_list_errors{suffix}", measured.errors, "requests")
    finally:
        server.terminate()
        server.wait(10)
