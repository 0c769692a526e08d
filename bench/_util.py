from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable


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
BENCH_DATABASE_URL = f"postgresql+psycopg://postgres@127.0.0.1:5432/{BENCH_DATABASE}"
BENCH_REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")


def bench_app():
    """The api on its own PostgreSQL database (created if missing, schema rebuilt by migrations),
    so benchmarks never disturb the test database."""
    from sqlalchemy import make_url

    from api import create_app
    from api.settings import TestConfig
    from tests.conftest import create_database, reset_schema

    create_database(make_url(BENCH_DATABASE_URL))
    app = create_app(TestConfig, {"SQLALCHEMY_DATABASE_URI": BENCH_DATABASE_URL, "REDIS_URL": BENCH_REDIS_URL})
    reset_schema(app)
    return app
