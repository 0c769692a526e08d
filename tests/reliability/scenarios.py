"""Fault scenarios on private engines (tests/reliability/engines.py). Each returns its figures:
sent / acknowledged / stored / lost / duplicated (and recovery seconds), and prints them.

- worker_notifications: an RQ worker (and its work-horse) killed with SIGKILL while it sends the
  outbox (api/notify); a new worker takes over, the abandoned job is retried.
- worker_long_job: the same kill during a long export-like job that writes its file in chunks.
- redis_restart: jobs queued, Redis killed and restarted from its append-only file, then worked off.
- postgres_restart: HTTP ingestion through gunicorn while PostgreSQL crashes and restarts; the
  client retries whatever was not acknowledged.
- mqtt_restart: MQTT ingestion (QoS 1, persistent sessions on both sides) while Mosquitto restarts.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from contextlib import ExitStack, contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import requests
from sqlalchemy import func, select, text

from tests.reliability.engines import PrivateMosquitto, PrivatePostgres, PrivateRedis, free_port, wait_port

ROOT = Path(__file__).resolve().parents[2]
WORKER_CLASS = ["--worker-class", "api.jobs.worker.AppWorker"]
BIN = Path(sys.executable).parent


def report(name: str, **figures) -> dict:
    line = " ".join(f"{k}={v}" for k, v in figures.items())
    print(f"FAULT {name}: {line}", flush=True)
    return figures


@contextmanager
def private_stack(*, redis: bool = True, mqtt: bool = False):
    """A private PostgreSQL (schema by the migrations), Redis and Mosquitto, and the app on them."""
    from api import create_app
    from api.device.catalogue import sync_catalogue
    from api.extensions.db import db
    from api.platform.services import sync_tenants
    from api.settings import TestConfig
    from tests.conftest import reset_schema

    with ExitStack() as stack:
        pg = PrivatePostgres()
        stack.callback(pg.close)
        pg.start()
        engines = {"pg": pg}
        overrides = {"SQLALCHEMY_DATABASE_URI": pg.url}
        if redis:
            engines["redis"] = PrivateRedis()
            stack.callback(engines["redis"].close)
            engines["redis"].start()
            overrides["REDIS_URL"] = engines["redis"].url
        if mqtt:
            engines["mqtt"] = PrivateMosquitto()
            stack.callback(engines["mqtt"].close)
            engines["mqtt"].start()
            overrides["MQTT_URL"] = engines["mqtt"].url
        app = create_app(TestConfig, overrides)
        reset_schema(app)
        with app.app_context():
            sync_tenants()
            sync_catalogue()
            db.session.commit()
        stack.callback(lambda: _dispose(app))
        yield app, engines


def _dispose(app) -> None:
    from api.extensions.db import db

    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def child_env(app, **extra) -> dict:
    env = {
        **os.environ,
        "APP_ENV": "development",
        "DATABASE_URL": app.config["SQLALCHEMY_DATABASE_URI"],
        "REDIS_URL": app.config["REDIS_URL"],
        "MQTT_URL": app.config.get("MQTT_URL", ""),
        "PYTHONPATH": str(ROOT),
        "JOBS_INLINE_FALLBACK": "0",
        # The local fakes (SMTP sink ...) the children connect to: listed as in the app's settings.
        "OUTBOUND_ALLOWED_HOSTS": ",".join(app.config.get("OUTBOUND_ALLOWED_HOSTS", ())),
    }
    env.update({k: str(v) for k, v in extra.items()})
    return env


def start_worker(app, queues: list[str], **env) -> subprocess.Popen:
    """An RQ worker in its own process group (so SIGKILL reaches the worker and its work-horse)."""
    return subprocess.Popen(
        [str(BIN / "rq"), "worker", "--url", app.config["REDIS_URL"], "--with-scheduler", *WORKER_CLASS, *queues],
        env=child_env(app, **env),
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def kill_group(process: subprocess.Popen) -> None:
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def stop_group(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            kill_group(process)


def wait_until(predicate, timeout: float, step: float = 0.2) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return predicate()


def reap_abandoned(app, queues: list[str]) -> None:
    """What every worker's periodic maintenance does: jobs of a dead worker whose heartbeat expired
    are retried (or failed). A worker runs it every few minutes; the test runs it when due."""
    from rq import Queue
    from rq.registry import StartedJobRegistry

    from api.jobs import redis_connection

    with app.app_context():
        connection = redis_connection()
        for name in queues:
            StartedJobRegistry(queue=Queue(name, connection=connection)).cleanup()


def started_jobs(app, queues: list[str]) -> int:
    from rq import Queue
    from rq.registry import StartedJobRegistry

    from api.jobs import redis_connection

    with app.app_context():
        connection = redis_connection()
        return sum(
            len(StartedJobRegistry(queue=Queue(n, connection=connection)).get_job_ids(cleanup=False)) for n in queues
        )


def drain_abandoned(app, queues: list[str], timeout: float = 150.0) -> None:
    """Reap the dead worker's job once its heartbeat has expired (about a minute after the kill)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and started_jobs(app, queues):
        reap_abandoned(app, queues)
        time.sleep(2)


# ---- worker killed during notification sends -----------------------------------------------------


def worker_notifications(messages: int = 150) -> dict:
    from api.extensions.db import db
    from api.notify.adapters import message_id
    from api.notify.delivery import idempotency_key
    from api.notify.models import Channel, DeliveryStatus, OutboundMessage
    from api.notify.services import add_message
    from api.tenancy import find_platform
    from tests.fakes import SmtpServer

    with private_stack() as (app, _engines), SmtpServer() as smtp:
        smtp_env = {"SMTP_HOST": "127.0.0.1", "SMTP_PORT": smtp.port, "SMTP_STARTTLS": "0", "SMTP_USER": ""}
        with app.app_context():
            platform = find_platform("localhost")
            for i in range(messages):  # through the one outbox writer: sent after the commit
                add_message(
                    platform.id,
                    Channel.EMAIL,
                    f"user{i}@example.com",
                    f"alarm {i}",
                    subject=f"alarm {i}",
                    dedupe_key=f"reliability:{i}",
                )
            db.session.commit()
            rows = db.session.scalars(select(OutboundMessage).order_by(OutboundMessage.id)).all()
            # The Message-ID the email adapter really sends: derived from each row's idempotency key.
            domain = app.config["MAIL_FROM"].rpartition("@")[2] or "localhost"
            expected = {message_id(idempotency_key(row), domain) for row in rows}
        worker = start_worker(app, ["notifications"], **smtp_env)
        try:
            wait_until(lambda: len(smtp.inbox.messages) >= messages // 3, 60, 0.01)
            kill_group(worker)
            killed_at = time.monotonic()
            delivered_at_kill = len(smtp.inbox.messages)
            worker = start_worker(app, ["notifications"], **smtp_env)
            drain_abandoned(app, ["notifications"])

            def all_sent():
                with app.app_context():
                    pending = db.session.scalar(
                        select(func.count()).where(OutboundMessage.status != DeliveryStatus.SENT)
                    )
                    db.session.rollback()
                    return pending == 0

            wait_until(all_sent, 120, 0.5)
            recovery = time.monotonic() - killed_at
        finally:
            stop_group(worker)
        with app.app_context():
            acknowledged = db.session.scalar(select(func.count()).where(OutboundMessage.status == DeliveryStatus.SENT))
        ids = Counter(m["Message-ID"] for m in smtp.inbox.messages)
        delivered = set(ids)
        if ids and not delivered & expected:
            # Counting by a key the adapter does not send would report every delivery as lost (and
            # hide a real loss among them): fail loudly instead of printing a figure.
            raise AssertionError(
                f"none of the {len(ids)} delivered Message-IDs matches an outbox row's key "
                f"(e.g. {next(iter(ids))!r} vs {next(iter(expected))!r})"
            )
        return report(
            "worker_notifications",
            sent=messages,
            acknowledged=acknowledged,
            stored=len(delivered & expected),
            lost=len(expected - delivered),
            # The same outbox row delivered twice (a crash between the provider's "accepted" and the
            # commit): counted as a duplicate, although its stable Message-ID lets a mail store fold it.
            duplicated=sum(n - 1 for n in ids.values()),
            delivered_at_kill=delivered_at_kill,
            recovery_s=round(recovery, 1),
        )


# ---- worker killed during a long job ---------------------------------------------------------------


def worker_long_job(jobs: int = 3, chunks: int = 40) -> dict:
    from api.jobs import redis_connection

    out = Path(tempfile.mkdtemp(prefix="reliab-export-"))
    with private_stack() as (app, _engines):
        from tests.reliability.jobs import long_export

        with app.app_context():
            for n in range(jobs):
                long_export.enqueue(str(out), n, chunks, job_id=f"export-{n}")
        worker = start_worker(app, ["exports"])
        try:
            wait_until(lambda: any(out.glob("*.part")), 60, 0.05)
            time.sleep(0.5)
            kill_group(worker)
            killed_at = time.monotonic()
            worker = start_worker(app, ["exports"])
            drain_abandoned(app, ["exports"])
            wait_until(lambda: len(list(out.glob("export-*.csv"))) == jobs, 120, 0.5)
            recovery = time.monotonic() - killed_at
        finally:
            stop_group(worker)
        with app.app_context():
            finished = Counter(int(x) for x in (redis_connection().lrange("reliab:export-finished", 0, -1) or []))
        files = sorted(out.glob("export-*.csv"))
        complete = [f for f in files if f.read_text().count("\n") == chunks]
        result = report(
            "worker_long_job",
            sent=jobs,
            acknowledged=len(finished),
            stored=len(complete),
            lost=jobs - len(complete),
            duplicated=sum(n - 1 for n in finished.values()),
            recovery_s=round(recovery, 1),
        )
    for f in out.iterdir():
        f.unlink()
    out.rmdir()
    return result


# ---- Redis restarted while jobs are queued ----------------------------------------------------------


def redis_restart(jobs: int = 120) -> dict:
    from api.jobs import redis_connection
    from tests.reliability.jobs import count_once

    with private_stack() as (app, engines):
        with app.app_context():
            for n in range(jobs):
                count_once.enqueue(n, job_id=f"count-{n}")
        engines["redis"].kill()
        engines["redis"].start()
        restarted_at = time.monotonic()
        with app.app_context():
            app.extensions["jobs"] = {"redis": None, "down_until": 0.0}  # forget the dead connection
            queued = len(__import__("rq").Queue("default", connection=redis_connection()))
        worker = start_worker(app, ["default"])
        try:

            def done():
                with app.app_context():
                    return redis_connection().scard("reliab:counted") >= jobs

            wait_until(done, 120, 0.5)
            recovery = time.monotonic() - restarted_at
        finally:
            stop_group(worker)
        with app.app_context():
            connection = redis_connection()
            counted = connection.scard("reliab:counted")
            runs = connection.llen("reliab:runs")
        return report(
            "redis_restart",
            sent=jobs,
            acknowledged=queued,
            stored=counted,
            lost=jobs - counted,
            duplicated=runs - counted,
            recovery_s=round(recovery, 1),
        )


# ---- PostgreSQL restarted during HTTP ingestion -----------------------------------------------------


def _claimed_device(app, type_code: int = 0x8002):
    from api.account.services import ensure_account
    from api.device.models import Device, DeviceType
    from api.device.services import claim, issue_guids
    from api.extensions.db import db
    from api.identity.models import AccountType
    from api.tenancy import find_platform

    with app.app_context():
        platform = find_platform("localhost")
        account = ensure_account(platform, "faultuser", "Fault#2026", account_type=AccountType.ENTERPRISE)
        device_type = db.session.scalar(select(DeviceType).where(DeviceType.type_code == type_code))
        guid, key = issue_guids(platform, device_type, 1, "FAULT")[0]
        device = db.session.scalar(select(Device).where(Device.guid == guid))
        claim(device, account.id, "fault", "UTC")
        # Issued a month ago: the scenarios send records of the last day (a record older than the
        # device's issuance is refused).
        device.created_at = datetime.now(UTC) - timedelta(days=30)
        db.session.commit()
        device_id = device.id
    return guid, key, device_id


def epoch_ms(start: datetime, n: int) -> int:
    return int((start + timedelta(seconds=n)).timestamp() * 1000)


def _stored_ts(app, device_id: int) -> set[int]:
    from api.extensions.db import db

    with app.app_context():
        rows = db.session.execute(
            text("SELECT (extract(epoch FROM ts) * 1000)::bigint FROM reading WHERE device_id = :d"), {"d": device_id}
        )
        found = {int(v) for v in rows.scalars().all()}
        db.session.rollback()
        return found


def _stored(app, device_id: int) -> tuple[int, int]:
    from api.extensions.db import db

    with app.app_context():
        row = db.session.execute(
            text("SELECT count(*), count(DISTINCT (sensor, ts)) FROM reading WHERE device_id = :d"), {"d": device_id}
        ).one()
        db.session.rollback()
        return row[0], row[1]


def postgres_restart(batches: int = 120, records_per_batch: int = 20, down_s: float = 3.0) -> dict:
    with private_stack(redis=False) as (app, engines):
        guid, key, device_id = _claimed_device(app)
        port = free_port()
        server = subprocess.Popen(
            [str(BIN / "gunicorn"), "-w", "2", "-b", f"127.0.0.1:{port}", "api:create_app()"],
            env=child_env(app, REDIS_URL="redis://127.0.0.1:1/0", HOST_ALIASES="127.0.0.1=default"),
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            wait_port(port)
            url = f"http://127.0.0.1:{port}/api/device/DeviceData/upload"
            headers = {"X-Device-Id": guid, "X-Device-Key": key, "Host": "127.0.0.1"}
            start = datetime.now(UTC) - timedelta(days=1)
            acknowledged: set[int] = set()
            attempts = failures = rejected = 0
            recovery = 0.0
            crash_at = batches // 3
            restart_thread = None
            for b in range(batches):
                records = []
                for r in range(records_per_batch):
                    n = b * records_per_batch + r
                    records.append({"ts": epoch_ms(start, n), "readings": {"1": round((n % 50) / 10, 1)}})
                if b == crash_at:
                    restart_thread = threading.Thread(target=_crash_and_restart, args=(engines["pg"], down_s))
                    restart_thread.start()
                    failed_since = time.monotonic()
                while True:  # the device's rule: re-send until the server acknowledges
                    attempts += 1
                    try:
                        answer = requests.post(
                            url, json={"guid": guid, "records": records}, headers=headers, timeout=30
                        )
                        body = answer.json()
                        ok = answer.status_code == 200 and body.get("code") == 0
                    except (requests.RequestException, ValueError):
                        ok = False
                    if ok:
                        bad = {item["index"] for item in body["data"]["rejected"]}
                        rejected += len(bad)
                        acknowledged.update(
                            epoch_ms(start, b * records_per_batch + i) for i in range(records_per_batch) if i not in bad
                        )
                        if b >= crash_at and not recovery and failures:
                            recovery = time.monotonic() - failed_since
                        break
                    failures += 1
                    time.sleep(0.2)
            if restart_thread:
                restart_thread.join()
        finally:
            stop_group(server)
        stored, distinct = _stored(app, device_id)
        values = _stored_ts(app, device_id)
        sent = batches * records_per_batch
        return report(
            "postgres_restart",
            sent=sent,
            acknowledged=len(acknowledged),
            stored=stored,
            lost=len(acknowledged - values),
            duplicated=stored - distinct,
            unacknowledged_but_stored=len(values - acknowledged),
            rejected=rejected,
            refused_attempts=failures,
            recovery_s=round(recovery, 1),
        )


def _crash_and_restart(pg: PrivatePostgres, down_s: float) -> None:
    pg.crash()
    time.sleep(down_s)
    pg.start()


# ---- Mosquitto restarted during MQTT ingestion --------------------------------------------------------


def mqtt_restart(messages: int = 300, records_per_message: int = 5) -> dict:
    import paho.mqtt.client as mqtt

    with private_stack(redis=False, mqtt=True) as (app, engines):
        guid, key, device_id = _claimed_device(app)
        broker = engines["mqtt"]
        ingest = subprocess.Popen(
            [str(BIN / "flask"), "--app", "api", "ingest", "mqtt"],
            env=child_env(app, REDIS_URL="redis://127.0.0.1:1/0"),
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=(broker.dir / "ingest.log").open("w"),
            start_new_session=True,
        )
        try:
            time.sleep(2)  # the subscriber connects and subscribes (persistent session)
            device = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"dev-{guid}", clean_session=False)
            device.max_queued_messages_set(0)
            device.reconnect_delay_set(1, 2)
            device.connect("127.0.0.1", broker.port, keepalive=10)
            device.loop_start()
            start = datetime.now(UTC) - timedelta(days=1)
            # Warm-up: until the subscriber's persistent session exists, the broker keeps nothing for it.
            warmup = json.dumps(
                {"guid": guid, "key": key, "records": [{"ts": epoch_ms(start, -3600), "readings": {"1": 1}}]}
            )

            def warmed() -> bool:
                device.publish(f"devices/{guid}/telemetry", warmup, qos=1)
                return _stored(app, device_id)[0] > 0

            wait_until(warmed, 60, 0.5)
            baseline = _stored(app, device_id)[0]
            infos = []
            restarted_at = None
            for m in range(messages):
                records = []
                for r in range(records_per_message):
                    n = m * records_per_message + r
                    records.append({"ts": epoch_ms(start, n), "readings": {"1": round((n % 50) / 10, 1)}})
                payload = json.dumps({"guid": guid, "key": key, "records": records})
                while True:  # the device keeps what the broker has not taken and sends it again
                    info = device.publish(f"devices/{guid}/telemetry", payload, qos=1)
                    if info.rc == mqtt.MQTT_ERR_SUCCESS:
                        break
                    time.sleep(0.2)
                infos.append(info)
                if m == messages // 3:
                    broker.restart_gracefully()
                    restarted_at = time.monotonic()
                time.sleep(0.005)
            wait_until(lambda: all(_published(i) for i in infos), 90, 0.5)
            acknowledged = sum(1 for i in infos if _published(i)) * records_per_message
            sent = messages * records_per_message
            wait_until(lambda: _stored(app, device_id)[1] - baseline >= sent, 90, 0.5)
            recovery = time.monotonic() - (restarted_at or time.monotonic())
            device.loop_stop()
            device.disconnect()
        finally:
            stop_group(ingest)
        stored, distinct = (n - baseline for n in _stored(app, device_id))
        return report(
            "mqtt_restart",
            sent=sent,
            acknowledged=acknowledged,
            stored=stored,
            lost=sent - distinct,
            duplicated=stored - distinct,
            recovery_s=round(recovery, 1),
        )


def _published(info) -> bool:
    try:
        return info.is_published()
    except RuntimeError:
        return False


SCENARIOS = {
    "worker_notifications": worker_notifications,
    "worker_long_job": worker_long_job,
    "redis_restart": redis_restart,
    "postgres_restart": postgres_restart,
    "mqtt_restart": mqtt_restart,
}
