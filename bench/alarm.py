"""Alarm benchmark (issue 7): a reading out of range in -> the first notification handed to the SMS
provider, through the whole path: HTTP upload, ingestion + evaluation, outbox row in the same
transaction, enqueue after commit, one real `rq worker` (forking, as in production), the HTTP
provider adapter. Prints `BENCH alarm_to_provider_p99_ms` (target <= 2000 ms).

Then (issue 48) `BENCH alarm_ack_by_reply_ms`: the SMS reply carrying an alarm's code, posted by the
provider fake as it signs its callbacks to the api's `/api/notify/provider/inbound`, until the api
answers with the acknowledgement committed (the alarm's repeats and escalation stopped): p50 and p99."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path

from sqlalchemy import select
from werkzeug.wrappers import Request, Response

from api.account.services import ensure_account
from api.alarm import push
from api.alarm.models import Alarm, AlarmStatus, SensorLimit
from api.device.catalogue import sync_catalogue
from api.device.models import Device
from api.device.services import claim, issue_guids
from api.extensions.db import db, utcnow
from api.identity.models import AccountType
from api.platform.services import sync_tenants
from api.tenancy import find_platform
from bench._util import BENCH_DATABASE_URL, BENCH_REDIS_URL, bench_app, percentile, report, sized
from tests.fakes import SmsProvider

ROOT = Path(__file__).resolve().parent.parent
EXCURSIONS = sized(60, 3)
ACKS = sized(40, 3)  # alarms acknowledged by an SMS reply
WARMUP = 5  # excursions before the timed ones, to warm the worker up


class TimedProvider(SmsProvider):
    """The fake provider, noting when each message arrived."""

    def __init__(self):
        super().__init__()
        self.arrived: list[float] = []
        self.changed = threading.Condition()

    def handle(self, request: Request) -> Response:
        response = super().handle(request)
        with self.changed:
            self.arrived.append(time.perf_counter())
            self.changed.notify_all()
        return response

    def wait_for_key(self, prefix: str, timeout: float = 30.0) -> dict:
        """The message whose idempotency key starts with `prefix` (the alarm's first SMS: earlier
        alarms' sends and back-in-range notices may still arrive after it was planned)."""

        def found():
            return next((m for m in self.received if m["idempotencyKey"].startswith(prefix)), None)

        with self.changed:
            if not self.changed.wait_for(found, timeout):
                raise RuntimeError(f"no message {prefix!r} in {timeout}s")
            return found()

    def wait_for(self, count: int, timeout: float = 30.0) -> float:
        with self.changed:
            if not self.changed.wait_for(lambda: len(self.arrived) >= count, timeout):
                raise RuntimeError(f"the provider got {len(self.arrived)} of {count} messages in {timeout}s")
            return self.arrived[count - 1]


def run() -> None:
    with TimedProvider() as provider:
        overrides = {
            "SMS_API_URL": f"{provider.url}/send",
            "SMS_API_KEY": provider.key,
            "SMS_API_SECRET": provider.secret,
        }
        app = bench_app()
        app.config.update(overrides)
        with app.app_context():
            sync_tenants()
            types = sync_catalogue()
            platform = find_platform("localhost")
            account = ensure_account(platform, "alarmbench", "Bench#2026", account_type=AccountType.ENTERPRISE)
            db.session.commit()
            [(guid, key)] = issue_guids(platform, types[0x8002], 1, "ALARMBENCH")
            device = db.session.scalar(select(Device).where(Device.guid == guid))
            claim(device, account.id, "Bench", "UTC")
            # Issued before the excursions' readings (they are timed in the past): a reading older than
            # its device's GUID is refused, as the demo's devices are back-dated for their history.
            device.created_at = utcnow() - timedelta(days=1)
            device.sms_count = (WARMUP + EXCURSIONS + ACKS) * 2  # one SMS an excursion, warm-up ones too
            db.session.add(SensorLimit(device_id=device.id, sensor=1, upper=8.0, lower=2.0))
            recipients = [{"name": "Bench", "phone": "+8613900139000", "email": None, "lang": "en-US"}]
            setting = {
                "device_id": device.id,
                "enabled": True,
                "multi_level": False,
                "levels": [{"level": 1, "minutes": 0, "recipients": recipients}],
                "channels": ["sms"],
                "repeat_count": 0,
                "interval_minutes": 10,
                "delay_minutes": 0,
                "schedule_start": None,
                "schedule_end": None,
                "urgent_kinds": [],
                "webhook_url": None,
            }
            push.save(device, setting)
            db.session.commit()
            from api.jobs import redis_connection

            redis_connection().flushdb()
        env = {
            **os.environ,
            "APP_ENV": "test",
            "TEST_DATABASE_URL": BENCH_DATABASE_URL,
            "TEST_REDIS_URL": BENCH_REDIS_URL,
            **{k: str(v) for k, v in overrides.items()},
        }
        worker = subprocess.Popen(  # noqa: S603 - our own worker
            [
                str(ROOT / ".venv/bin/rq"),
                "worker",
                "--worker-class",
                "api.jobs.worker.AppWorker",
                "--url",
                BENCH_REDIS_URL,
                "notifications",
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            # Timed from a listening worker: its start (building the app) is not an alarm's latency.
            _wait_until_listening(worker)
            base = time.time() - (WARMUP + EXCURSIONS + ACKS + 1) * 120  # every record in the past
            latencies = _excursions(app, guid, key, provider, base)
            acks = _acks(app, guid, key, provider, base + (WARMUP + EXCURSIONS) * 120)
        finally:
            worker.terminate()
            worker.wait(timeout=10)
    report("alarm_to_provider_p50_ms", percentile(latencies, 50), "ms")
    report("alarm_to_provider_p99_ms", percentile(latencies, 99), "ms")
    report("alarm_ack_by_reply_p50_ms", percentile(acks, 50), "ms")
    report("alarm_ack_by_reply_ms", percentile(acks, 99), "ms")


def _wait_until_listening(worker: subprocess.Popen, timeout: float = 600.0) -> None:
    """Until the worker says it listens on its queues; its output is drained on after that."""
    listening = threading.Event()
    lines: list[str] = []

    def read() -> None:
        for line in worker.stdout:
            lines.append(line)
            if "Listening on" in line:
                listening.set()

    threading.Thread(target=read, daemon=True).start()
    if not listening.wait(timeout):
        raise RuntimeError(f"the worker did not listen within {timeout:.0f}s: {''.join(lines[-20:])}")


def _sender(app, guid: str, key: str):
    client = app.test_client()
    headers = {"Host": "localhost", "X-Device-Id": guid, "X-Device-Key": key}

    def send(ts: float, value: float) -> None:
        record = {"ts": int(ts * 1000), "readings": {"1": value, "2": 50.0}}
        body = client.post("/api/device/DeviceData/upload", json={"guid": guid, "records": [record]}, headers=headers)
        if body.get_json()["code"] != 0:
            raise RuntimeError(body.get_json())

    return send


def _acks(app, guid: str, key: str, provider: TimedProvider, base: float) -> list[float]:
    """Each alarm's SMS answered by its code from the phone it went to: the signed callback in, the
    api's answer (the acknowledgement committed) out."""
    send, client = _sender(app, guid, key), app.test_client()
    latencies = []
    for index in range(ACKS):
        send(base + index * 120, 12.5)  # an alarm opens; its SMS carries the code
        message = provider.wait_for_key(f"alarm:{_open_alarm(app, guid)}:L1:sms:")
        code = re.search(r"Reply (\d{4}) to acknowledge", message["text"]).group(1)
        body, headers = provider.reply(message["to"], f"OK {code}")
        start = time.perf_counter()
        answer = client.post("/api/notify/provider/inbound", data=body, headers={**headers, "Host": "localhost"})
        latencies.append((time.perf_counter() - start) * 1000)
        if answer.get_json()["data"]["outcome"] != "acknowledged":
            raise RuntimeError(answer.get_json())
        send(base + index * 120 + 60, 5.0)  # back in range: closed
    return latencies


def _open_alarm(app, guid: str) -> int:
    with app.app_context():
        return db.session.scalar(
            select(Alarm.id)
            .join(Device, Device.id == Alarm.device_id)
            .where(Device.guid == guid, Alarm.status == AlarmStatus.OPEN)
            .order_by(Alarm.id.desc())
            .limit(1)
        )


def _excursions(app, guid: str, key: str, provider: TimedProvider, base: float) -> list[float]:
    send = _sender(app, guid, key)
    latencies = []

    for index in range(WARMUP + EXCURSIONS):
        start = time.perf_counter()
        send(base + index * 120, 12.0 + (index % 10) / 10)  # out of range: an alarm opens, level 1 due now
        arrived = provider.wait_for(index + 1)
        if index >= WARMUP:
            latencies.append((arrived - start) * 1000)
        send(base + index * 120 + 60, 5.0)  # back in range: it closes, the next excursion is a new alarm
    return latencies


if __name__ == "__main__":  # pragma: no cover
    sys.exit(run())
