from __future__ import annotations

import os
import statistics
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
