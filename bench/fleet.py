"""A real fleet on one machine (issue 27): many devices, one small record per message, over the network.

- fleet_mqtt_msgs_per_s / fleet_mqtt_p99_ms: BENCH_FLEET_DEVICES (10,000) devices, several publisher
  processes sharing a pool of MQTT connections, each message ONE record of 4 readings (plus battery
  and signal) at QoS 1, offered at BENCH_FLEET_RATE (6,000) messages/s for BENCH_FLEET_S (60) s
  through a private Mosquitto to `flask ingest mqtt --workers BENCH_FLEET_SUBSCRIBERS` (alarms
  evaluated, state and samples written). The rate is the messages stored over the time from the first
  publish to the last stored reading; the latency is publish (the record's own timestamp, taken when
  it is published) -> stored (`received_at`, the time of the committing transaction's insert). Every
  message must be stored exactly once: readings, rollup counts and samples are counted, and the
  subscribers' own counts must equal the published messages with no duplicate reading. The rate
  offered is a fifth above the goal, so the figure shows what the machine sustains (an offered
  5,000/s measures at most 5,000/s, less the last message's latency).
  fleet_state_hot_update_pct: the share of those messages' device_state updates done in place (HOT).
  fleet_mqtt_subscriber_cpu_us_per_msg / _postgres_ / _mosquitto_: the CPU time each server's
  processes spent over the run, per message (a figure that moves with the code even when the machine
  keeps up with the rate offered).
- fleet_http_msgs_per_s / fleet_http_p99_ms: the same records over HTTP to gunicorn, one record per
  request, BENCH_HTTP_CONNECTIONS (100) keep-alive connections in 2 client processes, each a closed
  loop over its share of the fleet (bench/_device_http.py).
  fleet_http_api_cpu_us_per_req / fleet_http_postgres_cpu_us_per_req: the CPU time gunicorn's workers
  and PostgreSQL spent per answered request (steadier than the rate, which varies by a third here).
  fleet_http_floor_msgs_per_s / fleet_http_vs_floor: the same clients against a bare Flask app on
  the same gunicorn (bench/_floor_app.py), the most this stack answers here, and the api's share.
  fleet_http_c_parser: 1 when gunicorn parsed the requests in C (gunicorn_h1c built), else 0.
- ingest_batch_vs_copy: the 500-record batches of bench/telemetry.py posted to gunicorn over HTTP,
  as a ratio to COPY of as many readings, in BENCH_BATCH_ROUNDS (5) alternating rounds (the machine's
  speed drifts within a minute); _round_min / _round_max: the spread of the rounds' own ratios.
  ingest_copy_per_upload_vs_copy: COPY committed per upload's 2,000 readings, as a ratio to COPY in
  one transaction (what the per-upload commits alone cost: the most an upload can reach), and
  ingest_batch_vs_copy_per_upload: the uploads as a ratio to that.
- offline_sweep_10k_ms / offline_sweep_100k_ms: the periodic offline / battery sweep (run until it
  finds nothing) over 10,000 and 100,000 live devices, 1% of them past their deadline;
  expiry_sweep_10k_ms / expiry_sweep_100k_ms: the service-expiry reminders over the same devices.
- soak_rss_mb_growth / soak_rss_growth_pct: RSS of gunicorn's workers, an RQ worker and the MQTT
  subscribers, after a warm-up and at the end of a BENCH_SOAK_S (120 s; 600 for the full soak) fleet
  run (MQTT at BENCH_SOAK_RATE messages/s plus HTTP uploads); the largest growth of any process.
"""

from __future__ import annotations

import contextlib
import http.client
import importlib.util
import json
import multiprocessing
import os
import random
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import paho.mqtt.client as mqtt
import psutil
from sqlalchemy import select, text

from api.account.services import ensure_account
from api.alarm.evaluation import sweep
from api.device.catalogue import sync_catalogue
from api.device.credentials import device_secret
from api.device.expiry import send_expiry_notices
from api.device.models import Device
from api.extensions.db import db, utcnow
from api.extensions.heap import freeze_startup_heap
from api.identity.models import AccountType
from api.jobs import QUEUES
from api.platform.services import sync_tenants
from api.telemetry.partitions import ensure_partitions
from api.tenancy import find_platform
from bench._device_http import record, upload_for
from bench._util import BENCH_DATABASE_URL, BENCH_REDIS_URL, bench_app, percentile, report, serve_gunicorn, sized
from bench.telemetry import BATCH_RECORDS, UPLOADS, batches, bench_copy
from tests.reliability.engines import free_port, wait_port

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
# Each size: its environment variable, else the full run's default, else (--quick) the smallest.
DEVICES = int(os.environ.get("BENCH_FLEET_DEVICES", sized("10000", "100")))
RATE = float(os.environ.get("BENCH_FLEET_RATE", sized("6000", "200")))
SECONDS = float(os.environ.get("BENCH_FLEET_S", sized("60", "2")))
# Two even in the quick run: each forked subscriber prints the summary the exact count reads.
SUBSCRIBERS = int(os.environ.get("BENCH_FLEET_SUBSCRIBERS", "2"))
PUBLISHERS = int(os.environ.get("BENCH_FLEET_PUBLISHERS", sized("2", "1")))
# MQTT connections per publisher process
CONNECTIONS = int(os.environ.get("BENCH_FLEET_CONNECTIONS", sized("50", "4")))
# The HTTP fleet's pool of keep-alive connections: as many as the MQTT publishers hold (2 x 50).
HTTP_CONNECTIONS = int(os.environ.get("BENCH_HTTP_CONNECTIONS", sized("100", "4")))
HTTP_SECONDS = float(os.environ.get("BENCH_HTTP_S", sized("30", "2")))
BATCH_ROUNDS = int(os.environ.get("BENCH_BATCH_ROUNDS", sized("5", "1")))
SOAK_SECONDS = float(os.environ.get("BENCH_SOAK_S", sized("120", "5")))
SOAK_RATE = float(os.environ.get("BENCH_SOAK_RATE", sized("500", "50")))
SWEEP_SIZES = tuple(int(n) for n in os.environ.get("BENCH_SWEEP_SIZES", sized("10000,100000", "1000")).split(","))
# gunicorn.conf.py's workers and threads unless these say otherwise.
GUNICORN_WORKERS = os.environ.get("BENCH_GUNICORN_WORKERS")
GUNICORN_THREADS = os.environ.get("BENCH_GUNICORN_THREADS")
DEVICE_KEY = "bench-fleet-device-key"
PASSWORD = "Bench#2026"
TYPE_CODE = 0x8003  # a 4-probe controller
FIRST_GUID = 7_000_000_000_000  # 13 digits: GUIDs of the fleet
SWEEP_FIRST_GUID = 8_000_000_000_000


def run() -> None:
    app = bench_app()
    app.config["DEVICE_KEY_SECRET"] = DEVICE_KEY
    freeze_startup_heap()  # the sweeps run in this process, as in an RQ worker: its built app frozen
    offline_sweeps(app)
    fleet = make_fleet(app, DEVICES)
    broker = PrivateBroker()
    try:
        fleet_mqtt(app, fleet, broker)
        with Gunicorn(broker.url) as api:
            http_rate = fleet_http(app, fleet, api)
            batch_vs_copy(app, fleet, api)
        http_floor(fleet, http_rate, broker.url)
        soak(app, fleet, broker)
    finally:
        broker.close()


# ---- engines and processes -----------------------------------------------------------------------


class PrivateBroker:
    """The real Mosquitto on its own port, so the fleet never loads the shared broker. Its queue per
    session holds 10 million messages (not 0, "no limit": Mosquitto 2.0.11 then stops sending queued
    messages to a client that had a backlog; and not the default of 1,000, which drops QoS 1 messages of a subscriber
    that falls behind, which the exact count would then report as lost)."""

    def __init__(self):
        self.dir = Path(tempfile.mkdtemp(prefix="bench-fleet-mqtt-"))
        self.port = free_port()
        conf = [
            f"listener {self.port} 127.0.0.1",
            "allow_anonymous true",
            "persistence false",
            "max_queued_messages 10000000",
            "max_inflight_messages 1000",
        ]
        if os.geteuid() == 0:
            conf.append("user root")
        if os.environ.get("BENCH_MQTT_LOG"):
            conf += [f"log_dest file {os.environ['BENCH_MQTT_LOG']}", "log_type all"]
        (self.dir / "mosquitto.conf").write_text("\n".join(conf) + "\n", encoding="utf-8")
        binary = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
        self.process = subprocess.Popen(  # noqa: S603 - the real broker
            [binary, "-c", str(self.dir / "mosquitto.conf")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        wait_port(self.port, timeout=60.0)

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(10)
        shutil.rmtree(self.dir, ignore_errors=True)


def server_env(mqtt_url: str) -> dict:
    return {
        **os.environ,
        "APP_ENV": "production",
        "SECRET_KEY": "bench-secret-key-fleet",
        "DEVICE_KEY_SECRET": DEVICE_KEY,
        "HOST_ALIASES": "localhost=default",
        "DATABASE_URL": BENCH_DATABASE_URL,
        "REDIS_URL": BENCH_REDIS_URL,
        "MQTT_URL": mqtt_url,
        "MQTT_SHARE_GROUP": "bench-ingest",
        "RATELIMIT_ENABLED": "0",
        "FLASK_APP": "api",
    }


class Subscribers:
    """`flask ingest mqtt --workers N`; on exit each subscriber prints what it handled."""

    def __init__(self, mqtt_url: str, workers: int = SUBSCRIBERS):
        self.client_id = f"bench-ingest-{os.getpid()}"
        self.log = tempfile.NamedTemporaryFile("w+", prefix="bench-ingest-", suffix=".log")  # noqa: SIM115
        self.process = subprocess.Popen(  # noqa: S603 - our own subscriber
            [str(BIN / "flask"), "ingest", "mqtt", "--workers", str(workers), "--client-id", self.client_id],
            cwd=ROOT,
            env=server_env(mqtt_url),
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )

    def ready(self, workers: int = SUBSCRIBERS, timeout: float = 120.0) -> Subscribers:
        """Wait until every subscriber's subscription is acknowledged: a message published before
        that has no subscriber and is rightly never delivered."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._ready_lines() >= workers:
                return self
            if self.process.poll() is not None:
                break
            time.sleep(0.2)
        raise RuntimeError("the MQTT subscribers did not subscribe")

    def _ready_lines(self) -> int:
        self.log.seek(0)
        return sum(1 for line in self.log.read().splitlines() if "MQTT ingest" in line and " ready (" in line)

    def pids(self) -> list[int]:
        return [child.pid for child in psutil.Process(self.process.pid).children()]

    def stop(self) -> tuple[int, int]:
        """(messages handled, duplicate readings) over all subscribers."""
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(30)
        self.log.seek(0)
        messages = duplicates = 0
        text = self.log.read()
        Path(tempfile.gettempdir(), "bench-ingest-last.log").write_text(text, encoding="utf-8")
        for line in text.splitlines():
            if line.startswith("MQTT ingest summary"):
                fields = dict(part.split("=", 1) for part in line.split()[3:])
                messages += int(fields["messages"])
                duplicates += int(fields["duplicates"])
            elif "Traceback" in line or "Error" in line:
                print(f"  subscriber: {line}", file=sys.stderr)
        self.log.close()
        return messages, duplicates


class Gunicorn:
    def __init__(self, mqtt_url: str, app: str = "bench._load_app:app"):
        self.port = free_port()
        command = [str(BIN / "gunicorn"), "--backlog", "2048", "-b", f"127.0.0.1:{self.port}", app]
        command += ["-w", GUNICORN_WORKERS] if GUNICORN_WORKERS else []
        command += ["--threads", GUNICORN_THREADS] if GUNICORN_THREADS else []
        self.command, self.env = command, server_env(mqtt_url)
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> Gunicorn:
        # Measured once every worker serves (gunicorn.conf.py starts one per core by default).
        workers = int(GUNICORN_WORKERS) if GUNICORN_WORKERS else os.cpu_count() or 1
        self.process = serve_gunicorn(self.command, self.env, workers)
        return self

    def pids(self) -> list[int]:
        return [child.pid for child in psutil.Process(self.process.pid).children()]

    def __exit__(self, *exc) -> None:
        self.process.terminate()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


# ---- the fleet -----------------------------------------------------------------------------------


def make_fleet(app, count: int, first_guid: int = FIRST_GUID, user: str = "fleetbench", limits: bool = True):
    """`count` claimed, live devices (COPY), with limits on probe 1; returns [(id, guid, key)]."""
    now = datetime.now(UTC)
    with app.app_context():
        sync_tenants()
        types = sync_catalogue()
        platform = find_platform("localhost")
        account = ensure_account(platform, user, PASSWORD, account_type=AccountType.ENTERPRISE)
        db.session.commit()
        with db.engine.begin() as connection:
            ensure_partitions(connection, now, months_back=13)
        raw = db.engine.raw_connection()
        try:
            cursor = raw.cursor()
            cursor.execute("SELECT coalesce(max(id), 0) FROM device")
            first_id = cursor.fetchone()[0] + 1
            with cursor.copy(
                "COPY device (id, guid, device_type_id, platform_id, owner_account_id, name, time_zone, "
                "interval_s, enabled, deleted, focus, credential_version, claimed_at, service_expires_at, "
                "sensor_settings, created_at, updated_at) FROM STDIN"
            ) as copy:
                for i in range(count):
                    # 1 in 50 devices' service ends within 30 days (the expiry run finds them).
                    expires = now + (timedelta(days=1 + i % 29) if i % 50 == 0 else timedelta(days=365))
                    copy.write_row(
                        (
                            *(first_id + i, str(first_guid + i), types[TYPE_CODE].id, platform.id, account.id),
                            *(f"Cold room {i}", "UTC", 60, True, False, False, 1, now, expires, "{}"),
                            *(now - timedelta(days=30), now),
                        )
                    )
            if limits:
                with cursor.copy(
                    "COPY sensor_limit (device_id, sensor, upper, lower, delay_minutes, enabled) FROM STDIN"
                ) as copy:
                    for i in range(count):
                        copy.write_row((first_id + i, 1, -10.0, -25.0, 0, True))
            cursor.execute("SELECT setval('device_id_seq', (SELECT max(id) FROM device))")
            cursor.execute("ANALYZE device")
            raw.commit()
        finally:
            raw.close()
        return [(first_id + i, str(first_guid + i), device_secret(str(first_guid + i), 1)) for i in range(count)]


def fleet_counts(app, first_id: int, last_id: int) -> tuple[int, int, int]:
    """(readings, rollup count, samples) of the fleet's devices."""
    with app.app_context():
        row = db.session.execute(
            text("""
            SELECT (SELECT count(*) FROM reading WHERE device_id BETWEEN :a AND :b),
                   (SELECT coalesce(sum(count), 0) FROM reading_hourly WHERE device_id BETWEEN :a AND :b),
                   (SELECT count(*) FROM device_sample WHERE device_id BETWEEN :a AND :b)"""),
            {"a": first_id, "b": last_id},
        ).one()
        db.session.remove()
    return int(row[0]), int(row[1]), int(row[2])


def state_updates(app) -> tuple[int, int]:
    """(updates, of which in place (HOT)) of device_state so far, as PostgreSQL counts them."""
    with app.app_context():
        db.session.execute(text("SELECT pg_stat_clear_snapshot()"))
        row = db.session.execute(
            text("SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = 'device_state'")
        ).one()
        db.session.remove()
    return int(row[0]), int(row[1])


def cpu_seconds(pids: list[int]) -> dict[int, float]:
    """CPU time (user + system) so far of each process still running."""
    seconds = {}
    for pid in pids:
        with contextlib.suppress(psutil.NoSuchProcess):
            times = psutil.Process(pid).cpu_times()
            seconds[pid] = times.user + times.system
    return seconds


def postgres_pids() -> list[int]:
    """PostgreSQL's processes: the server's own and a backend per connection."""
    return [p.pid for p in psutil.process_iter(["name"]) if p.info["name"] == "postgres"]


def cpu_used(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds between two readings; a process started in between counts from its start."""
    return sum(seconds - before.get(pid, 0.0) for pid, seconds in after.items())


@contextlib.contextmanager
def servers_cpu(**servers: Callable[[], list[int]]):
    """The CPU seconds each server's processes spend while the block runs, filled in as it ends. Each
    server's processes are listed again at the end: PostgreSQL's backends for connections opened
    meanwhile count from their start."""
    before = {name: cpu_seconds(pids()) for name, pids in servers.items()}
    used: dict[str, float] = {}
    yield used
    used.update({name: cpu_used(before[name], cpu_seconds(pids())) for name, pids in servers.items()})


def wait_stored(app, first_id: int, last_id: int, expected: int, stall_s: float = 30.0) -> int:
    """Wait until `expected` readings are stored (or nothing moved for `stall_s`)."""
    last, moved = -1, time.monotonic()
    while True:
        stored = fleet_counts(app, first_id, last_id)[0]
        if stored >= expected:
            return stored
        if stored != last:
            last, moved = stored, time.monotonic()
        elif time.monotonic() - moved > stall_s:
            return stored
        time.sleep(0.5)


# ---- MQTT ------------------------------------------------------------------------------------------


def _serve(selector: selectors.BaseSelector, clients: list, timeout: float) -> None:
    """One turn of the publishers' own loop: read what the broker sent (CONNACKs, PUBACKs), write
    what a full socket left behind, keep the connections alive."""
    for key, _events in selector.select(timeout):
        key.data.loop_read(max_packets=1000)
    for client in clients:
        if client.want_write():
            client.loop_write()


def _publisher(port: int, devices: list, rate: float, seconds: float, connections: int, out) -> None:
    """One publisher process: `connections` MQTT clients, the devices spread over them round robin,
    one message per device in turn at `rate` messages/s. One thread drives all the clients through
    paho's own loop functions (a network thread per client would spend the simulated fleet's CPU on
    contending for the GIL, and the fleet shares this machine with the platform it measures)."""
    rng = random.Random(os.getpid())  # noqa: S311 - benchmark data
    clients = []
    selector = selectors.DefaultSelector()
    for n in range(connections):
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"bench-pub-{os.getpid()}-{n}")
        client.max_inflight_messages_set(1000)
        client.max_queued_messages_set(0)
        client.connect("127.0.0.1", port, keepalive=60)
        selector.register(client.socket(), selectors.EVENT_READ, client)
        clients.append(client)
    deadline = time.monotonic() + 30
    while not all(client.is_connected() for client in clients) and time.monotonic() < deadline:
        _serve(selector, clients, 0.05)
    sent, infos = 0, []
    started = time.perf_counter()
    kept_alive = started
    while (elapsed := time.perf_counter() - started) < seconds:
        due = int(elapsed * rate)
        while sent < due:
            _id, guid, key = devices[sent % len(devices)]
            payload = json.dumps({"guid": guid, "key": key, "records": [record(rng)]})
            infos.append(clients[sent % connections].publish(f"devices/{guid}/telemetry", payload, qos=1))
            sent += 1
        _serve(selector, clients, 0.002)
        if time.perf_counter() - kept_alive > 5:
            kept_alive = time.perf_counter()
            for client in clients:
                client.loop_misc()
    deadline = time.monotonic() + 60
    while any(not info.is_published() for info in infos) and time.monotonic() < deadline:
        _serve(selector, clients, 0.05)
    acknowledged = sum(info.is_published() for info in infos)
    for client in clients:
        client.disconnect()
    out.put((sent, acknowledged))


def publish_fleet(port: int, fleet: list, rate: float, seconds: float) -> tuple[int, int]:
    context = multiprocessing.get_context("fork")
    out = context.Queue()
    shares = [fleet[n::PUBLISHERS] for n in range(PUBLISHERS)]
    processes = [
        context.Process(target=_publisher, args=(port, share, rate / PUBLISHERS, seconds, CONNECTIONS, out))
        for share in shares
    ]
    for process in processes:
        process.start()
    results = [out.get(timeout=seconds + 300) for _ in processes]
    for process in processes:
        process.join(30)
    return sum(r[0] for r in results), sum(r[1] for r in results)


def fleet_mqtt(app, fleet: list, broker: PrivateBroker) -> None:
    first_id, last_id = fleet[0][0], fleet[-1][0]
    before = fleet_counts(app, first_id, last_id)
    updates_before = state_updates(app)
    subscribers = Subscribers(broker.url).ready()
    since = utcnow()
    with servers_cpu(
        subscriber=subscribers.pids, postgres=postgres_pids, mosquitto=lambda: [broker.process.pid]
    ) as cpu:
        sent, acknowledged = publish_fleet(broker.port, fleet, RATE, SECONDS)
        expected = before[0] + sent * 4
        wait_stored(app, first_id, last_id, expected)
    handled, duplicates = subscribers.stop()  # their backends report their counts as they end
    updates, in_place = (a - b for a, b in zip(state_updates(app), updates_before, strict=True))
    readings, rolled, samples = (a - b for a, b in zip(fleet_counts(app, first_id, last_id), before, strict=True))
    with app.app_context():
        first_ts, last_stored, p50, p99 = db.session.execute(
            text("""
            SELECT min(ts), max(received_at),
                   percentile_cont(0.5) WITHIN GROUP (ORDER BY received_at - ts),
                   percentile_cont(0.99) WITHIN GROUP (ORDER BY received_at - ts)
            FROM reading WHERE device_id BETWEEN :a AND :b AND sensor = 1 AND received_at >= :since"""),
            {"a": first_id, "b": last_id, "since": since},
        ).one()
        db.session.remove()
    elapsed = (last_stored - first_ts).total_seconds()
    print(
        f"  fleet mqtt: {len(fleet)} devices, offered {RATE:.0f}/s for {SECONDS:.0f} s: published {sent}, "
        f"acknowledged {acknowledged}, handled {handled}, duplicate readings {duplicates}, readings {readings}, "
        f"rollup {rolled}, samples {samples}, over {elapsed:.1f} s",
        file=sys.stderr,
    )
    exact = acknowledged == sent and handled == sent and duplicates == 0
    exact = exact and readings == rolled == sent * 4 and samples == sent
    report("fleet_mqtt_messages", sent, "messages")
    report("fleet_mqtt_exact", int(exact), "bool")
    report("fleet_mqtt_msgs_per_s", sent / elapsed, "messages/s")
    report("fleet_mqtt_readings_per_s", sent * 4 / elapsed, "readings/s")
    report("fleet_mqtt_p50_ms", p50.total_seconds() * 1000, "ms")
    report("fleet_mqtt_p99_ms", p99.total_seconds() * 1000, "ms")
    # Each message moves its device's state: in place (HOT) it writes no index entry and leaves no
    # dead row version for a vacuum (migration 0029).
    report("fleet_state_hot_update_pct", 100 * in_place / max(updates, 1), "%")
    # What each message costs the servers, whatever the rate offered: the subscribers (all of them),
    # PostgreSQL (every process of the server, idle ones included) and the broker.
    for name, seconds in cpu.items():
        report(f"fleet_mqtt_{name}_cpu_us_per_msg", seconds * 1e6 / max(sent, 1), "us")
    if not exact:
        raise RuntimeError("fleet MQTT: a message was lost or stored twice (see the counts above)")


# ---- HTTP ------------------------------------------------------------------------------------------


def fleet_http(app, fleet: list, api: Gunicorn) -> float:
    """The api's rate of one-record uploads (returned for the ratio to the framework's floor)."""
    first_id, last_id = fleet[0][0], fleet[-1][0]
    before = fleet_counts(app, first_id, last_id)[0]
    with servers_cpu(api=api.pids, postgres=postgres_pids) as cpu:
        latencies, errors = upload_for(api.port, fleet, HTTP_CONNECTIONS, HTTP_SECONDS)
    stored = fleet_counts(app, first_id, last_id)[0] - before
    print(
        f"  fleet http: {HTTP_CONNECTIONS} keep-alive connections for {HTTP_SECONDS:.0f} s: "
        f"{len(latencies)} answered 200, {errors} errors, {stored} readings stored",
        file=sys.stderr,
    )
    rate = len(latencies) / HTTP_SECONDS
    report("fleet_http_msgs_per_s", rate, "requests/s")
    report("fleet_http_p50_ms", percentile(latencies, 50), "ms")
    report("fleet_http_p99_ms", percentile(latencies, 99), "ms")
    report("fleet_http_errors", errors, "requests")
    report("fleet_http_exact", int(stored == len(latencies) * 4 and errors == 0), "bool")
    # gunicorn parses requests in C when gunicorn_h1c was built (pyproject.toml, fast), else in Python.
    report("fleet_http_c_parser", int(importlib.util.find_spec("gunicorn_h1c") is not None), "bool")
    for name, seconds in cpu.items():
        report(f"fleet_http_{name}_cpu_us_per_req", seconds / max(len(latencies), 1) * 1e6, "us")
    return rate


def http_floor(fleet: list, api_rate: float, mqtt_url: str) -> None:
    """The same clients against a bare Flask app on the same gunicorn (bench/_floor_app.py): the
    most this stack answers on this machine, and the api's share of it."""
    with Gunicorn(mqtt_url, app="bench._floor_app:app") as floor:
        latencies, errors = upload_for(floor.port, fleet, HTTP_CONNECTIONS, HTTP_SECONDS / 2)
    if errors:
        raise RuntimeError(f"the bare Flask floor answered {errors} errors")
    rate = len(latencies) / (HTTP_SECONDS / 2)
    report("fleet_http_floor_msgs_per_s", rate, "requests/s")
    report("fleet_http_vs_floor", api_rate / rate, "ratio")


def batch_vs_copy(app, fleet: list, api: Gunicorn) -> None:
    """bench/telemetry.py's 500-record batches of one device posted one after another to gunicorn,
    and COPY of as many readings, in BATCH_ROUNDS alternating rounds: this machine's speed drifts by
    a third within a minute (one batch run then one COPY gave 0.26-0.48 for the same code), and
    alternating makes both sides meet the same machine. The ratio is of the totals; the rounds'
    own ratios are printed too.

    Each round also COPies the readings committed per upload's worth (2,000 readings a transaction,
    as each upload is committed before it is answered): how much of the gap to COPY the commits alone
    make (`ingest_copy_per_upload_vs_copy`, the most a committed upload can reach), and the uploads
    against that (`ingest_batch_vs_copy_per_upload`)."""
    connection = http.client.HTTPConnection("127.0.0.1", api.port, timeout=120)
    per_round = UPLOADS * BATCH_RECORDS * 4
    copy_base = utcnow() - timedelta(days=2)
    http_s = copy_s = committed_s = 0.0
    stored = 0
    rounds = []
    for index, (_id, guid, key) in enumerate(fleet[:BATCH_ROUNDS]):  # a device a round, as one run had
        headers = {"Host": "localhost", "Content-Type": "application/json", "X-Device-Id": guid, "X-Device-Key": key}
        bodies = [
            json.dumps({"guid": guid, "records": records}) for records in batches(utcnow() - timedelta(days=3), UPLOADS)
        ]
        started = time.perf_counter()
        for body in bodies:
            connection.request("POST", "/api/device/DeviceData/upload", body=body, headers=headers)
            answer = json.loads(connection.getresponse().read())
            stored += answer["data"]["accepted"]
        elapsed = time.perf_counter() - started
        # Each COPY a range of its own (the committed one a day earlier): a range an earlier one
        # deleted holds dead index entries, which would slow the COPY and flatter the ratio.
        round_start = copy_base + timedelta(seconds=index * per_round // 4)
        copy_elapsed = per_round / bench_copy(app, per_round, round_start)
        committed_s += per_round / bench_copy(
            app, per_round, round_start - timedelta(days=1), commit_every=BATCH_RECORDS * 4
        )
        http_s, copy_s = http_s + elapsed, copy_s + copy_elapsed
        rounds.append(copy_elapsed / elapsed)
    connection.close()
    if stored != BATCH_ROUNDS * per_round:
        raise RuntimeError(f"HTTP batches stored {stored}")
    print(f"  batch vs COPY, round by round: {', '.join(f'{ratio:.3f}' for ratio in rounds)}", file=sys.stderr)
    report("ingest_batch_http_per_s", stored / http_s, "readings/s")
    report("ingest_batch_copy_per_s", stored / copy_s, "readings/s")
    report("ingest_batch_vs_copy", copy_s / http_s, "ratio")
    report("ingest_batch_vs_copy_round_min", min(rounds), "ratio")
    report("ingest_batch_vs_copy_round_max", max(rounds), "ratio")
    report("ingest_copy_per_upload_vs_copy", copy_s / committed_s, "ratio")
    report("ingest_batch_vs_copy_per_upload", committed_s / http_s, "ratio")


# ---- soak --------------------------------------------------------------------------------------------


def rss_mb(pids: list[int]) -> dict[int, float]:
    sizes = {}
    for pid in pids:
        with contextlib.suppress(psutil.NoSuchProcess):
            sizes[pid] = psutil.Process(pid).memory_info().rss / 2**20
    return sizes


def soak(app, fleet: list, broker: PrivateBroker) -> None:
    """The fleet at a steady rate against the api, a worker and the subscribers; RSS after a warm-up
    (a fifth of the run) and at the end."""
    worker = subprocess.Popen(  # noqa: S603 - our own worker
        [str(BIN / "rq"), "worker", "--worker-class", "api.jobs.worker.AppWorker", "--url", BENCH_REDIS_URL, *QUEUES],
        cwd=ROOT,
        env=server_env(broker.url),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    subscribers = Subscribers(broker.url).ready()
    context = multiprocessing.get_context("fork")
    try:
        with Gunicorn(broker.url) as api:
            time.sleep(3)
            out = context.Queue()
            publisher = context.Process(
                target=_publisher, args=(broker.port, fleet, SOAK_RATE, SOAK_SECONDS, CONNECTIONS, out)
            )
            uploader = threading.Thread(target=upload_for, args=(api.port, fleet, 2, SOAK_SECONDS))
            publisher.start()
            uploader.start()
            time.sleep(SOAK_SECONDS / 5)
            pids = {"api": api.pids(), "worker": [worker.pid], "ingest": subscribers.pids()}
            warm = {name: rss_mb(group) for name, group in pids.items()}
            out.get(timeout=SOAK_SECONDS + 300)
            publisher.join(30)
            uploader.join(SOAK_SECONDS + 300)
            end = {name: rss_mb(group) for name, group in pids.items()}
    finally:
        subscribers.stop()
        worker.terminate()
        worker.wait(30)
    growth_mb, growth_pct = 0.0, 0.0
    for name, sizes in warm.items():
        for pid, before in sizes.items():
            after = end[name].get(pid, before)
            print(f"  soak {name} {pid}: {before:.1f} -> {after:.1f} MB", file=sys.stderr)
            growth_mb = max(growth_mb, after - before)
            growth_pct = max(growth_pct, 100 * (after - before) / before)
    report("soak_seconds", SOAK_SECONDS, "s")
    report("soak_rss_mb_growth", growth_mb, "MB")
    report("soak_rss_growth_pct", growth_pct, "%")


# ---- sweeps ------------------------------------------------------------------------------------------


def offline_sweeps(app) -> None:
    """The sweeps over growing fleets (cumulative: the 100k run includes the 10k devices)."""
    made = 0
    for size in SWEEP_SIZES:
        add = size - made
        devices = make_fleet(app, add, SWEEP_FIRST_GUID + made, user="sweepbench", limits=False)
        made = size
        now = utcnow()
        with app.app_context():
            raw = db.engine.raw_connection()
            try:
                cursor = raw.cursor()
                # Every device reported recently; 1% are past their deadline.
                with cursor.copy(
                    "COPY device_state (device_id, last_data_at, offline_at, values, battery, signal, "
                    "alarm_active, fault) FROM STDIN"
                ) as copy:
                    for n, (device_id, _guid, _key) in enumerate(devices):
                        late = n % 100 == 0
                        last = now - timedelta(minutes=30 if late else 1)
                        offline_at = last + timedelta(minutes=15)
                        copy.write_row((device_id, last, offline_at, '{"1": -18.0}', 80, -70, False, False))
                del devices  # the bench's own list: a worker running the sweep holds no such heap
                cursor.execute("ANALYZE device")
                cursor.execute("ANALYZE device_state")
                raw.commit()
            finally:
                raw.close()
            started = time.perf_counter()
            opened = 0
            while True:
                found = sweep(now)
                opened += found
                if not found:
                    break
            offline_ms = (time.perf_counter() - started) * 1000
            started = time.perf_counter()
            reminders = send_expiry_notices(now)
            db.session.commit()
            expiry_ms = (time.perf_counter() - started) * 1000
            live = db.session.scalar(select(db.func.count()).select_from(Device))
            db.session.remove()
        label = f"{size // 1000}k"
        print(
            f"  sweep {label}: {live} devices, {opened} offline alarms opened, {reminders} reminders",
            file=sys.stderr,
        )
        report(f"offline_sweep_{label}_ms", offline_ms, "ms")
        report(f"expiry_sweep_{label}_ms", expiry_ms, "ms")
