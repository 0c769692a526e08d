"""kill -9 of the worker in the middle of sending: after a restart every outbox row ends sent
exactly once (or failed with a reason); nothing lost, nothing sent twice. Real Redis, a real
forking `rq worker`, a provider that honours the idempotency key like real SMS gateways do."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from sqlalchemy import func, select
from werkzeug.wrappers import Request, Response

from api.extensions.db import db
from api.notify.jobs import redeliver_stale
from api.notify.models import DeliveryStatus, OutboundMessage
from api.settings import TestConfig
from tests.api.alarm.helpers import outbox, record, save_push, set_limits
from tests.api.device_helpers import upload
from tests.fakes import SmsProvider

ROOT = Path(__file__).resolve().parents[3]
RECIPIENTS = 20


class SlowIdempotentProvider(SmsProvider):
    """Takes 150 ms per message; a key it has seen is acknowledged again, not sent again."""

    def __init__(self):
        super().__init__()
        self.by_key: dict[str, str] = {}
        self.calls = 0

    def handle(self, request: Request) -> Response:
        self.calls += 1
        time.sleep(0.15)
        key = request.headers.get("X-Idempotency-Key", "")
        if key and key in self.by_key:
            return Response(json.dumps({"id": self.by_key[key]}), content_type="application/json")
        response = super().handle(request)
        if response.status_code == 200 and key:
            self.by_key[key] = json.loads(response.get_data())["id"]
        return response


def start_worker(provider) -> subprocess.Popen:
    env = {
        **os.environ,
        "APP_ENV": "test",
        # This xdist worker's database and Redis (tests/conftest.py isolate_worker): the worker's app
        # would otherwise read gw0's outbox, and the test failed whenever it ran on another worker.
        "TEST_DATABASE_URL": TestConfig.SQLALCHEMY_DATABASE_URI,
        "TEST_REDIS_URL": TestConfig.REDIS_URL,
        "SMS_API_URL": f"{provider.url}/send",
        "SMS_API_KEY": provider.key,
        "SMS_API_SECRET": provider.secret,
    }
    return subprocess.Popen(
        [
            str(Path(sys.executable).parent / "rq"),
            "worker",
            "--worker-class",
            "api.jobs.worker.AppWorker",
            "--url",
            TestConfig.REDIS_URL,
            "notifications",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own process group: the kill reaches the work horse too
    )


def test_worker_killed_mid_send_loses_nothing_and_sends_nothing_twice(
    app, client, owner, fridge, run_jobs, monkeypatch
):
    device_id, guid, key = fridge
    recipients = [{"name": f"R{i}", "phone": f"1390013{i:04d}"} for i in range(RECIPIENTS)]
    with app.app_context():
        from api.device.models import Device

        db.session.get(Device, device_id).sms_count = RECIPIENTS
        db.session.commit()
    with SlowIdempotentProvider() as provider:
        for name, value in {"SMS_API_URL": f"{provider.url}/send", "SMS_API_KEY": provider.key}.items():
            monkeypatch.setitem(app.config, name, value)
        monkeypatch.setitem(app.config, "SMS_API_SECRET", provider.secret)
        levels = [{"level": 1, "minutes": 0, "recipients": recipients}]
        assert save_push(client, owner, device_id, channels=["sms"], levels=levels)["code"] == 0
        set_limits(client, owner, device_id, {"sensor": 1, "upperLimit": 8})
        worker = start_worker(provider)
        try:
            upload(client, guid, key, [record(1, 15.0)])  # the alarm: 20 outbox rows, 20 jobs
            deadline = time.monotonic() + 120  # a forking worker builds the app per job: slow on a busy machine
            while len(provider.received) < 3 and time.monotonic() < deadline:
                time.sleep(0.02)
            assert len(provider.received) >= 3, "the worker never started sending"
        finally:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait(timeout=10)
        with app.app_context():
            pending = db.session.scalar(
                select(func.count())
                .select_from(OutboundMessage)
                .where(OutboundMessage.status == DeliveryStatus.PENDING)
            )
        assert pending > 0, "the kill came too late to prove anything"

        # Restart: the periodic sweep puts every pending row back on the queue, a worker runs them.
        with app.app_context():
            assert redeliver_stale(older_than_s=0) == pending
        run_jobs()

    rows = outbox(app)
    assert len(rows) == RECIPIENTS
    assert all(row.status == DeliveryStatus.SENT for row in rows), [(r.status, r.last_error) for r in rows]
    delivered = Counter(message["to"] for message in provider.received)
    assert len(delivered) == RECIPIENTS and set(delivered.values()) == {1}
