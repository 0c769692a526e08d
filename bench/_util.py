from __future__ import annotations

import os
import statistics
import subprocess
import threading
import time
from collections.abc import Callable

# `python -m bench --quick` (BENCH_QUICK=1): every module at its smallest size, to prove it still runs
# end to end (tests/api/test_bench_modules.py); its figures are not measurements.
QUICK = os.environ.get("BENCH_QUICK") == "1"


def sized(full, quick):
    """A module's size: `full` for `make bench`, `quick` for the quick run."""
    return quick if QUICK else full


def report(name: str, value: float, unit: str) -> None:
    print(f"BENCH {name} {value:.3f} {unit}", flush=True)


def timings_ms(call: Callable[[], object], repeat: int, warmup: int = 20) -> list[float]:
    for _ in range(warmup):
        call()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def percentile(samples: list[float], q: float) -> float:
    return statistics.quantiles(samples, n=100)[int(q) - 1]


# Overridable so two checkouts can benchmark side by side without sharing a database.
BENCH_DATABASE = os.environ.get("BENCH_DATABASE", "coldchain_bench")
BENCH_DATABASE_URL = os.environ.get(
    "BENCH_DATABASE_URL", f"postgresql+psycopg://postgres@127.0.0.1:5432/{BENCH_DATABASE}"
)
BENCH_REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")


def bench_app():
    """The api on its own PostgreSQL database (created if missing, schema rebuilt by migrations),
    so benchmarks never disturb the test database. The quick run empties the tables of a schema
    already at the migrations' head instead (as the tests do between tests): rebuilding the schema
    takes most of a minute on a loaded machine, longer than a quick module runs."""
    from sqlalchemy import make_url

    from api import create_app
    from api.extensions.db import db
    from api.settings import TestConfig
    from tests.conftest import create_database, empty_tables, reset_schema

    create_database(make_url(BENCH_DATABASE_URL))
    app = create_app(TestConfig, {"SQLALCHEMY_DATABASE_URI": BENCH_DATABASE_URL, "REDIS_URL": BENCH_REDIS_URL})
    if QUICK and _schema_at_head(app):
        with app.app_context():
            empty_tables()
            db.session.remove()
    else:
        reset_schema(app)
    return app


def _schema_at_head(app) -> bool:
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    from api.extensions.db import db

    with app.app_context():
        heads = set(ScriptDirectory(app.extensions["migrate"].directory).get_heads())
        with db.engine.connect() as connection:
            return set(MigrationContext.configure(connection).get_current_heads()) == heads


def serve_gunicorn(arguments: list[str], env: dict, workers: int, timeout: float = 180.0) -> subprocess.Popen:
    """gunicorn (bench/_gunicorn_ready.py's settings) with `arguments`, returned once each of its
    `workers` has loaded the app and serves: a measurement never waits for a worker's imports."""
    from bench._gunicorn_ready import READY

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    command = [arguments[0], "-c", os.path.join(root, "bench", "_gunicorn_ready.py"), *arguments[1:]]
    process = subprocess.Popen(  # noqa: S603 - our own gunicorn
        command, cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    serving: set[str] = set()
    all_serve = threading.Event()

    def read_log() -> None:  # drained to the end: a full pipe would stop gunicorn's logging
        for line in process.stderr:
            if line.startswith(READY):
                serving.add(line.split()[-1])
                if len(serving) >= workers:
                    all_serve.set()

    threading.Thread(target=read_log, daemon=True).start()
    if not all_serve.wait(timeout):
        process.kill()
        raise RuntimeError(f"gunicorn: {len(serving)} of {workers} workers served after {timeout:.0f} s")
    return process
