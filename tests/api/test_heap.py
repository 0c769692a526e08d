"""Each long-running process freezes its startup heap (api/extensions/heap.py) once its app is
built: a gunicorn worker (gunicorn.conf.py), an RQ worker (AppWorker) and the MQTT subscriber. Without
it, every full collection walks the whole app: the fleet benchmark's MQTT p99 was 561-1,103 ms
without the freeze and 150-192 ms with it, on the same machine. The app is built in full before the
freeze: its models' relationships are resolved (SQLAlchemy's configure_mappers) by create_app."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Starts one process kind as its entry point does (without serving) and prints how many objects
# are frozen and how many the collector still walks.
ENTRY = """
import gc, os, runpy, sys

from redis import Redis

from api import create_app
from api.jobs.worker import AppWorker
from api.telemetry import mqtt

kind = sys.argv[1]
if kind == "gunicorn":
    app = create_app()
    runpy.run_path("gunicorn.conf.py")["post_worker_init"](None)
elif kind == "rq":
    AppWorker(["default"], connection=Redis.from_url(os.environ["REDIS_URL"]))
elif kind == "mqtt":
    mqtt.build_subscriber = lambda app, client_id: None  # no broker, no serving: the startup only
    mqtt.serve = lambda client: None
    mqtt.run_subscriber(create_app())
from api.extensions.db import db

configured = all(mapper.configured for mapper in db.Model.registry.mappers)
print(gc.get_freeze_count(), len(gc.get_objects()), int(configured))
"""


@pytest.mark.parametrize("kind", ["gunicorn", "rq", "mqtt", "none"])
def test_a_long_running_process_freezes_its_built_app(app, kind):
    env = {
        **{k: v for k, v in os.environ.items() if k != "APP_ENV"},
        "DATABASE_URL": app.config["SQLALCHEMY_DATABASE_URI"],
        "REDIS_URL": app.config["REDIS_URL"],
    }
    done = subprocess.run(
        [sys.executable, "-c", ENTRY, kind], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    frozen, walked, configured = (int(n) for n in done.stdout.split())
    if kind == "none":  # the control: an app built by no entry point stays in the collector's walks
        assert frozen == 0 and walked > 50_000
        return
    # The app (its modules, models and schemas) is frozen, so it was built before the freeze.
    assert frozen > 100_000
    assert walked < frozen / 20
    # The models' relationships were resolved by create_app, inside the frozen heap: left to the
    # first query, that took 170 ms of an MQTT subscriber's first batch (the fleet's p99 was its
    # start: 762 ms; 134 ms once resolved at build).
    assert configured
