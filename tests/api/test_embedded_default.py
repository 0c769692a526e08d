"""`make run` on a fresh machine: a SQLite file, no Redis, and the api still answers."""

from __future__ import annotations

import logging

from flask_migrate import upgrade

from api import create_app
from api.extensions.db import db
from api.health.jobs import record_heartbeat
from api.platform.services import sync_tenants
from api.settings import DevelopmentConfig

UNREACHABLE_REDIS = "redis://127.0.0.1:1/0"


class Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def test_fresh_sqlite_without_redis_serves_branding_and_runs_jobs_in_process(tmp_path):
    app = create_app(
        DevelopmentConfig,
        {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'coldchain.db'}", "REDIS_URL": UNREACHABLE_REDIS},
    )
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
