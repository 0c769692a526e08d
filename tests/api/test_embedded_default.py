"""`make run` on a fresh machine: a SQLite file, no Redis, and the api still answers."""

from __future__ import annotations

import logging
import random
from datetime import timedelta

import pytest
from flask_migrate import upgrade
from sqlalchemy import func, select

from api import create_app
from api.account.services import ensure_account
from api.alarm.evaluation import sweep
from api.alarm.models import Alarm, AlarmKind, AlarmStatus, Message
from api.device.catalogue import sync_catalogue
from api.device.credentials import device_secret
from api.device.models import Device, DeviceState
from api.extensions.db import db, utcnow
from api.health.jobs import record_heartbeat
from api.identity.models import AccountType
from api.platform.services import sync_tenants
from api.settings import DevelopmentConfig
from api.telemetry.ingest import ingest_many
from api.telemetry.models import DeviceSample, Reading, ReadingHourly
from api.telemetry.store import store_readings
from api.tenancy import find_platform
from tests.api.device_helpers import ROLLED_HOUR, hour_of_readings

UNREACHABLE_REDIS = "redis://127.0.0.1:1/0"


def embedded_app(tmp_path):
    """The api as `make run` builds it on a fresh machine: a SQLite file and no Redis."""
    return create_app(
        DevelopmentConfig,
        {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'coldchain.db'}", "REDIS_URL": UNREACHABLE_REDIS},
    )


def add_loggers(guids: list[str], created_at) -> list[Device]:
    """Temperature / humidity loggers (type 0x8002) of the local site, issued at `created_at`."""
    sync_tenants()
    logger = sync_catalogue()[0x8002]
    platform = find_platform("localhost")
    devices = [Device(guid=guid, device_type_id=logger.id, platform_id=platform.id, interval_s=60) for guid in guids]
    for device in devices:
        device.created_at = created_at
    db.session.add_all(devices)
    db.session.commit()
    return devices


class Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def test_fresh_sqlite_without_redis_serves_branding_and_runs_jobs_in_process(tmp_path):
    app = embedded_app(tmp_path)
    with app.app_context():
        upgrade()
        sync_tenants()
        # alembic's logging set-up replaces the root handlers, so listen on the jobs logger itself
        collected = Collect()
        logging.getLogger("api.jobs").addHandler(collected)
        try:
            result = record_heartbeat.enqueue()
        finally:
            logging.getLogger("api.jobs").removeHandler(collected)
        assert isinstance(result, float)  # ran here and now, not queued
        assert "No Redis: running job api.health.jobs.record_heartbeat in-process" in collected.messages
        db.engine.dispose()

    client = app.test_client()
    body = client.get(
        "/api/base/BaseCustomPage/queryByTopDomain?topDomain=junjia.localhost", headers={"Host": "localhost:3000"}
    ).get_json()
    assert body["code"] == 0
    assert body["data"]["themeColor"] == "#0f8a5f"
    health = client.get("/api/health").get_json()["data"]
    assert health == {"database": "ok", "redis": "unavailable", "cronHeartbeatAge": None}
    assert app.config["RATELIMIT_STORAGE_URI"] == "memory://"


def test_sqlite_ingests_a_batch_of_devices_like_postgresql(tmp_path):
    """The MQTT subscriber's batch path (`ingest_many`) on the embedded SQLite of `make run`: readings,
    samples and the devices' latest states, which only move forward."""
    app = embedded_app(tmp_path)
    now = utcnow()

    def upload(minutes_ago: int, temp: float, battery: int) -> list[dict]:
        ts = int((now - timedelta(minutes=minutes_ago)).timestamp() * 1000)
        return [{"ts": ts, "readings": {"1": temp, "2": 55.0}, "battery": battery, "signal": -70}]

    with app.app_context():
        upgrade()
        first, second = add_loggers([f"88000000000{n}" for n in (1, 2)], now - timedelta(days=1))
        ingest_many([(first, upload(5, 4.5, 90)), (second, upload(5, 6.0, 80))])
        # The first device's late record is stored but moves nothing; the second moves forward.
        results = ingest_many([(first, upload(30, 9.9, 10)), (second, upload(1, 7.5, 79))])
        assert [(r.accepted, r.duplicates) for r in results] == [(2, 0), (2, 0)]
        states = {s.device_id: s for s in db.session.scalars(select(DeviceState))}
        assert (states[first.id].values, states[first.id].battery) == ({"1": 4.5, "2": 55.0}, 90)
        assert (states[second.id].values, states[second.id].battery) == ({"1": 7.5, "2": 55.0}, 79)
        assert abs(states[second.id].last_data_at - (now - timedelta(minutes=1))) < timedelta(milliseconds=1)
        assert states[second.id].offline_at > states[second.id].last_data_at
        assert db.session.scalar(select(func.count()).select_from(Reading)) == 8
        assert db.session.scalar(select(func.count()).select_from(DeviceSample)) == 4
        db.engine.dispose()


def test_sqlite_offline_sweep_opens_alarms_with_their_messages_and_flags(tmp_path):
    """The cron's offline sweep on the embedded SQLite of `make run`: the alarms and messages that
    one statement writes on PostgreSQL are flushed by the ORM there, with the same rows."""
    app = embedded_app(tmp_path)
    now = utcnow()
    with app.app_context():
        upgrade()
        devices = add_loggers([f"88000000001{n}" for n in (1, 2, 3)], now - timedelta(days=1))
        owner = ensure_account(find_platform("localhost"), "sweeper", "Sweep#2026", account_type=AccountType.PERSONAL)
        db.session.flush()
        for device in devices:
            device.owner_account_id = owner.id
        # Two silent past their deadline, one that reported a minute ago.
        for device, silent_minutes in zip(devices, (30, 29, 1), strict=True):
            last = now - timedelta(minutes=silent_minutes)
            db.session.add(DeviceState(device_id=device.id, last_data_at=last, offline_at=last + timedelta(minutes=15)))
        db.session.commit()
        assert sweep(now) == 2
        assert sweep(now) == 0  # never twice
        opened = {a.device_id: a for a in db.session.scalars(select(Alarm))}
        assert set(opened) == {devices[0].id, devices[1].id}
        assert all(a.kind == AlarmKind.OFFLINE and a.status == AlarmStatus.OPEN for a in opened.values())
        told = {(m.alarm_id, m.device_id, m.code) for m in db.session.scalars(select(Message))}
        assert told == {(a.id, a.device_id, "alarm.offline") for a in opened.values()}
        flags = {s.device_id: s.alarm_active for s in db.session.scalars(select(DeviceState))}
        assert flags == {devices[0].id: True, devices[1].id: True, devices[2].id: False}
        db.engine.dispose()


def test_sqlite_rollups_match_the_stored_readings(tmp_path):
    """The hourly rollup of the embedded SQLite store (computed in Python there, in SQL on PostgreSQL):
    re-sent readings are not counted twice and every hour's min, max, sum, count and times match."""
    app = embedded_app(tmp_path)
    base = utcnow().replace(minute=0, second=0, microsecond=0) - timedelta(hours=3)
    rng = random.Random(3)
    rows = [
        (1, sensor, base + timedelta(minutes=7 * i), round(rng.uniform(-20, 10), 2))
        for i in range(30)
        for sensor in (1, 2)
    ]
    rng.shuffle(rows)
    with app.app_context():
        upgrade()
        assert store_readings(db.session, rows[:40]) == 40
        assert store_readings(db.session, rows[20:]) == 20  # 20 re-sent
        db.session.commit()
        hour = func.strftime("%Y-%m-%d %H", Reading.ts)
        raw = db.session.execute(
            select(Reading.sensor, hour, *hour_of_readings())
            .group_by(Reading.sensor, hour)
            .order_by(Reading.sensor, hour)
        ).all()
        rolled = db.session.execute(
            select(ReadingHourly.sensor, ReadingHourly.bucket, *ROLLED_HOUR).order_by(
                ReadingHourly.sensor, ReadingHourly.bucket
            )
        ).all()
        db.engine.dispose()
    assert len(raw) == len(rolled) == 8  # 2 sensors x 4 hours
    for (sensor, _hour, low, high, total, count, first, last), row in zip(raw, rolled, strict=True):
        assert (row.sensor, row.min_value, row.max_value, row.count) == (sensor, low, high, count)
        assert row.sum_value == pytest.approx(total)
        assert row.bucket == row.first_ts.replace(minute=0, second=0, microsecond=0)
        assert (row.first_ts, row.last_ts) == (first, last)


def test_sqlite_takes_http_uploads_through_the_group_commit(tmp_path):
    """`make run` serves device uploads on SQLite too: authenticated as a group (one query on SQLite's
    own statement), stored, answered; a wrong key is refused."""
    app = embedded_app(tmp_path)
    now = utcnow()
    with app.app_context():
        upgrade()
        [device] = add_loggers(["880000000003"], now - timedelta(days=1))
        guid, key = device.guid, device_secret(device.guid, device.credential_version)
        db.engine.dispose()
    client = app.test_client()
    record = {"ts": int((now - timedelta(minutes=2)).timestamp() * 1000), "readings": {"1": 4.5, "2": 55.0}}

    def post(device_key: str):
        headers = {"Host": "localhost", "X-Device-Id": guid, "X-Device-Key": device_key}
        return client.post("/api/device/DeviceData/upload", json={"guid": guid, "records": [record]}, headers=headers)

    answer = post(key)
    assert answer.status_code == 200 and answer.get_json()["data"]["accepted"] == 2, answer.get_json()
    assert post(key).get_json()["data"] == {"accepted": 0, "duplicates": 2, "rejected": [], "conflicts": 0}
    assert post("not-its-key").status_code == 401
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Reading)) == 2
        db.engine.dispose()
