"""api and RQ workers are stateless (issue 27): two api processes (gunicorn) and two RQ workers on
one PostgreSQL and one Redis. A session opened on one api works on the other and a sign-out on one
ends it on both; the sign-in rate limit counts attempts on both together; uploads through both to
the same devices add up exactly, and both report the same totals; queued jobs are shared by the
two workers, each run once."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from rq import Queue
from rq.job import Job
from sqlalchemy import func, select

from api.extensions.db import db
from api.jobs import DEFAULT, redis_connection
from api.telemetry.models import Reading, ReadingHourly
from tests.api.account_helpers import BASE, PASSWORD, make_account
from tests.api.device_helpers import add, guids, minutes_ago
from tests.api.gunicorn_helpers import Api

__all__ = ["guids"]

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


@pytest.fixture
def two_apis(app):
    apis = [Api(app), Api(app)]
    try:
        for api in apis:
            api.wait_healthy()
        yield apis
    finally:
        for api in apis:
            api.close()


@pytest.fixture
def two_workers(app):
    env = {**os.environ, "DATABASE_URL": app.config["SQLALCHEMY_DATABASE_URI"], "REDIS_URL": app.config["REDIS_URL"]}
    command = [
        str(BIN / "rq"),
        "worker",
        "--worker-class",
        "api.jobs.worker.AppWorker",
        "--url",
        app.config["REDIS_URL"],
    ]
    workers = [
        subprocess.Popen(
            [*command, "--name", f"stateless-{n}-{os.getpid()}", DEFAULT],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for n in (1, 2)
    ]
    yield workers
    for worker in workers:
        worker.terminate()
    for worker in workers:
        worker.wait(30)


def sign_in(api: Api, password: str = PASSWORD, user_name: str = "demouser") -> tuple[int, dict]:
    return api.call("POST", f"{BASE}/login", {"userName": user_name, "password": password})


def test_a_session_from_one_api_works_on_the_other_and_ends_on_both(app, two_apis):
    make_account(app)
    a, b = two_apis
    status, body = sign_in(a)
    assert status == 200 and body["code"] == 0, body
    bearer = {"Authorization": f"Bearer {body['data']['token']}"}
    status, info = b.call("GET", f"{BASE}/accountInfo", headers=bearer)
    assert status == 200 and info["data"]["baseAccount"]["userName"] == "demouser", info
    status, _ = b.call("GET", f"{BASE}/loginOut", headers=bearer)
    assert status == 200
    status, _ = a.call("GET", f"{BASE}/accountInfo", headers=bearer)
    assert status == 401


def test_the_sign_in_limit_counts_both_apis_together(app, two_apis):
    """10 per minute per address (flask-limiter on Redis); a different name each time, so the
    per-account lock (in PostgreSQL, shared as well) is not what answers."""
    a, b = two_apis
    answers = [sign_in(api, "Wrong#2026", f"nobody{n}")[0] for n, api in enumerate((a, b) * 5)]
    assert 429 not in answers, answers
    assert sign_in(a, "Wrong#2026", "nobody-a")[0] == 429
    assert sign_in(b, "Wrong#2026", "nobody-b")[0] == 429


def test_uploads_through_both_apis_add_up_and_both_report_the_same_totals(app, client, guids, two_apis):
    make_account(app)
    _status, body = sign_in(two_apis[0])
    bearer = {"Authorization": f"Bearer {body['data']['token']}"}
    devices = [guids["th_a"], guids["th_b"]]
    ids = [add(client, {**bearer, "Host": "localhost"}, guid, name=f"Fridge {guid[-4:]}") for guid, _key in devices]
    uploads = []
    for i in range(40):
        guid, key = devices[i % 2]
        record = {"ts": minutes_ago(120 - i), "readings": {"1": 4.0, "2": 55}}
        headers = {"X-Device-Id": guid, "X-Device-Key": key}
        uploads.append((two_apis[i // 2 % 2], {"guid": guid, "records": [record]}, headers))
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda u: u[0].call("POST", "/api/device/DeviceData/upload", u[1], u[2]), uploads))
    assert all(status == 200 and body["data"]["accepted"] == 2 for status, body in answers), answers
    with app.app_context():
        readings = db.session.scalar(select(func.count()).select_from(Reading).where(Reading.device_id.in_(ids)))
        rolled = db.session.scalar(select(func.sum(ReadingHourly.count)).where(ReadingHourly.device_id.in_(ids)))
        db.session.remove()
    assert (readings, rolled) == (80, 80)
    counts = [api.call("GET", "/api/device/Device/statusCount", headers=bearer)[1]["data"] for api in two_apis]
    assert counts[0] == counts[1], counts


def test_queued_jobs_are_shared_by_two_workers_and_run_once(app, two_workers):
    with app.app_context():
        connection = redis_connection()
        queue = Queue(DEFAULT, connection=connection)
        jobs = [queue.enqueue(time.sleep, 0.3) for _ in range(12)]
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            fetched = Job.fetch_many([job.id for job in jobs], connection=connection)
            if all(job.is_finished for job in fetched):
                break
            time.sleep(0.1)
        assert all(job.is_finished for job in fetched), [job.get_status() for job in fetched]
        assert {job.worker_name for job in fetched} == {f"stateless-{n}-{os.getpid()}" for n in (1, 2)}
