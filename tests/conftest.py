"""Shared fixtures: the api on the real engines (PostgreSQL `test`, Redis db 14).

The schema is built by the migrations themselves (not create_all), so every test also proves the
migrations produce what the models expect; a database whose schema these very migrations built (their
fingerprint is the schema's comment) is reused, so a session starts in a second. Between tests every table is emptied
and the tenants are synced again.

`make test` runs the api suite on two pytest-xdist workers (the machine's two cores). Each worker
has a database, a Redis database and file folders of its own (`isolate_worker`); the tests that use
the MQTT broker share one xdist group, so they run on one worker, one at a time (a subscriber takes
every device's telemetry, and both workers' databases issue the same GUIDs). Likewise the tests that
read the api's source tree share the group "source_tree" with the one that plants a file in it
(tests/api/test_layers.py), so no reader sees the planted file.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import pytest
from sqlalchemy import make_url, text

from api import create_app
from api.extensions.db import db
from api.extensions.ratelimit import limiter
from api.extensions.snapshots import clear_all as clear_snapshots
from api.jobs import redis_connection
from api.platform.services import sync_tenants
from api.settings import TestConfig
from api.validation.installation import source_tree_hash

DEFAULT_HOST = "localhost"
JUNJIA_HOST = "junjia.localhost"
# Redis databases of the xdist workers gw0, gw1, ... (13 is the benchmarks', 15 the browser tests').
WORKER_REDIS_DBS = (14, 12, 11, 10, 9, 8, 7, 6)


def pytest_configure(config) -> None:
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker:
        isolate_worker(int(re.fullmatch(r"gw(\d+)", worker).group(1)))


def isolate_worker(number: int) -> None:
    """Point TestConfig (every app a test builds, and the processes it starts with that app's
    settings) at worker `number`'s own database, Redis database and folders. Worker 0 keeps the
    configured database and Redis database, so a run without xdist and gw0 are the same."""
    if number >= len(WORKER_REDIS_DBS):
        raise pytest.UsageError(f"at most {len(WORKER_REDIS_DBS)} xdist workers")
    database = make_url(TestConfig.SQLALCHEMY_DATABASE_URI)
    if number:
        database = database.set(database=f"{database.database}_gw{number}")
        create_database(database)
        TestConfig.SQLALCHEMY_DATABASE_URI = database.render_as_string(hide_password=False)
        TestConfig.REDIS_URL = urlsplit(TestConfig.REDIS_URL)._replace(path=f"/{WORKER_REDIS_DBS[number]}").geturl()
    folder = TestConfig.FILES_DIR.parent / "test-workers" / f"gw{number}"
    TestConfig.FILES_DIR = folder / "files"
    TestConfig.UPLOAD_DIR = folder / "uploads"
    TestConfig.AUDIT_HEAD_EXPORT_DIR = str(folder / "audit-heads")


def create_database(url) -> None:
    """Create the database of `url` (an SQLAlchemy URL) on its server unless it exists."""
    with psycopg.connect(
        host=url.host,
        port=url.port or 5432,
        user=url.username,
        password=url.password,
        dbname="postgres",
        autocommit=True,
    ) as connection:
        if connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", (url.database,)).fetchone() is None:
            connection.execute(f'CREATE DATABASE "{url.database}"')


MIGRATIONS = Path(__file__).resolve().parents[1] / "api" / "migrations"


def migrations_fingerprint() -> str:
    """SHA-256 over the migration scripts: the schema they build is the schema a session needs."""
    return source_tree_hash(MIGRATIONS)[0]


def schema_is_current(connection, fingerprint: str) -> bool:
    """The schema was built by these very migrations and stands at their head (a test that steps a
    migration back and was killed before stepping forward leaves another revision)."""
    from alembic.script import ScriptDirectory
    from flask import current_app

    comment = text("SELECT obj_description(CAST('public' AS regnamespace), 'pg_namespace')")
    built_by = connection.execute(comment).scalar()
    if built_by != fingerprint:
        return False
    if connection.execute(text("SELECT to_regclass('alembic_version')")).scalar() is None:
        return False
    heads = ScriptDirectory.from_config(current_app.extensions["migrate"].migrate.get_config()).get_heads()
    return set(connection.execute(text("SELECT version_num FROM alembic_version")).scalars()) == set(heads)


def reset_schema(app) -> None:
    """Build the schema by the migrations, unless this database already holds what they build: a
    session then starts at once (the tables are emptied before each test in any case)."""
    from flask_migrate import upgrade

    fingerprint = migrations_fingerprint()
    with app.app_context():
        with db.engine.begin() as connection:
            if schema_is_current(connection, fingerprint):
                return
            connection.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
            connection.execute(text("CREATE SCHEMA public"))
        upgrade()
        with db.engine.begin() as connection:
            connection.execute(text(f"COMMENT ON SCHEMA public IS '{fingerprint}'"))


# Every sequence (identity and serial) back to its start; setval on all of them takes milliseconds.
RESTART_SEQUENCES = text(
    "SELECT setval(CAST(sequence.oid AS regclass), 1, false) FROM pg_class AS sequence "
    "JOIN pg_namespace AS namespace ON namespace.oid = sequence.relnamespace "
    "WHERE sequence.relkind = 'S' AND namespace.nspname = current_schema()"
)


APPEND_ONLY = {"operation_log", "fda_signature", "fda_record_version", "hash_legacy_cutoff"}


def empty_tables() -> None:
    """Empty the tables a test wrote to and restart their ids, as a TRUNCATE of every table would.
    Only those: a TRUNCATE of all 100 tables (with the reading partitions and their indexes) took
    most of a second for every test, and a DELETE of a few small tables takes milliseconds."""
    tables = [table.name for table in db.metadata.sorted_tables]
    probe = " UNION ALL ".join(f"SELECT '{name}' WHERE EXISTS (SELECT 1 FROM \"{name}\")" for name in tables)
    written = set(db.session.execute(text(probe)).scalars())
    # The trail's tables refuse DELETE (migration 0035); TRUNCATE fires no row trigger.
    append_only = sorted(written & APPEND_ONLY)
    if append_only:
        db.session.execute(text(f"TRUNCATE {', '.join(append_only)}"))
    for name in reversed(tables):  # children before the rows they reference
        if name in written and name not in APPEND_ONLY:
            db.session.execute(text(f'DELETE FROM "{name}"'))
    db.session.execute(RESTART_SEQUENCES)
    db.session.commit()


@pytest.fixture(scope="session")
def app():
    app = create_app(TestConfig)
    reset_schema(app)
    return app


@pytest.fixture(autouse=True)
def clean_database(request, app):
    if "app" not in request.fixturenames and "client" not in request.fixturenames:
        yield
        return
    with app.app_context():
        empty_tables()
        # The exported chain heads name entries of the emptied trail (read-only files, writable folder).
        shutil.rmtree(app.config["AUDIT_HEAD_EXPORT_DIR"], ignore_errors=True)
        clear_snapshots()
        sync_tenants()
        # Rate-limit counters and queued jobs of one test must not leak into the next. (The limiter
        # is one object shared by every app a test builds, so reset its storage, whichever it is.)
        connection = redis_connection()
        if connection is not None:
            connection.flushdb()
        limiter.reset()
    yield
    with app.app_context():
        db.session.remove()


class ApiClient:
    """Test client that speaks as a browser on a given site and language."""

    def __init__(self, app, host: str = DEFAULT_HOST, lang: str = "zh-CN"):
        self.flask_client = app.test_client()
        self.host = host
        self.lang = lang

    def headers(self, extra=None):
        return {"Host": self.host, "Accept-Language": self.lang, **(extra or {})}

    def get(self, url, headers=None, **kwargs):
        return self.flask_client.get(url, headers=self.headers(headers), **kwargs)

    def post(self, url, headers=None, **kwargs):
        return self.flask_client.post(url, headers=self.headers(headers), **kwargs)

    def put(self, url, headers=None, **kwargs):
        return self.flask_client.put(url, headers=self.headers(headers), **kwargs)

    def delete(self, url, headers=None, **kwargs):
        return self.flask_client.delete(url, headers=self.headers(headers), **kwargs)


@pytest.fixture
def client(app):
    return ApiClient(app)


@pytest.fixture
def make_client(app):
    def make(host: str = DEFAULT_HOST, lang: str = "zh-CN") -> ApiClient:
        return ApiClient(app, host, lang)

    return make


@pytest.fixture
def run_jobs(app):
    """Run every queued job now, in this process, as a worker would."""
    from rq import Queue, SimpleWorker

    from api.jobs import QUEUES

    def run() -> None:
        with app.app_context():
            connection = redis_connection()
            SimpleWorker([Queue(q, connection=connection) for q in QUEUES], connection=connection).work(burst=True)

    return run
