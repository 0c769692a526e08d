"""Jobs on the real Redis: named queues, a worker runs them, periodic jobs are declared as data."""

from __future__ import annotations

import pytest
from rq import Queue, SimpleWorker

from api.health.jobs import HEARTBEAT_KEY, record_heartbeat
from api.hooks import periodic_jobs
from api.jobs import QUEUES, JobsUnavailableError, job, redis_connection
from api.jobs.schedule import resolve


@pytest.fixture
def redis(app):
    with app.app_context():
        connection = redis_connection()
        assert connection is not None, "the tests need Redis at TEST_REDIS_URL"
        connection.flushdb()
        yield connection
        connection.flushdb()


def test_enqueue_goes_to_the_named_queue_and_a_worker_runs_it(app, redis, client):
    with app.app_context():
        queued = record_heartbeat.enqueue()
    assert queued.origin == "default"
    assert redis.get(HEARTBEAT_KEY) is None  # not run yet: it waits in the queue

    worker = SimpleWorker([Queue(name, connection=redis) for name in QUEUES], connection=redis)
    assert worker.work(burst=True)
    assert redis.get(HEARTBEAT_KEY) is not None
    assert client.get("/api/health").get_json()["data"]["cronHeartbeatAge"] < 60


def test_jobs_need_redis_when_the_fallback_is_off(app):
    with app.app_context():
        redis_url = app.config["REDIS_URL"]
        app.config.update(JOBS_INLINE_FALLBACK=False, REDIS_URL="redis://127.0.0.1:1/0")
        app.extensions["jobs"] = {"redis": None, "down_until": 0.0}
        try:
            with pytest.raises(JobsUnavailableError):
                record_heartbeat.enqueue()
        finally:
            app.config.update(JOBS_INLINE_FALLBACK=True, REDIS_URL=redis_url)
            app.extensions.pop("jobs")


def test_unknown_queue_is_refused():
    with pytest.raises(ValueError, match="unknown queue"):
        job("emails")


def test_periodic_jobs_are_declared_jobs_on_known_queues():
    assert periodic_jobs()
    for periodic in periodic_jobs():
        func = resolve(periodic.func)
        assert func.queue_name in QUEUES
        assert (periodic.cron is None) != (periodic.interval is None)
