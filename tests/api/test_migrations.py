"""Migrations upgrade from empty on PostgreSQL and SQLite, match the models, and step back."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask_migrate import downgrade, upgrade
from sqlalchemy import create_engine, inspect, make_url, text

from api import create_app
from api.extensions.db import db, include_in_migrations
from api.settings import TestConfig

PG_ADMIN_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
# Named after the test database, so two checkouts testing side by side never share a scratch database.
PG_SCRATCH = make_url(TestConfig.SQLALCHEMY_DATABASE_URI).database + "_migrations"


@pytest.fixture
def postgres_url():
    admin = create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f"DROP DATABASE IF EXISTS {PG_SCRATCH} WITH (FORCE)"))
        connection.execute(text(f"CREATE DATABASE {PG_SCRATCH}"))
    yield f"postgresql+psycopg://postgres@127.0.0.1:5432/{PG_SCRATCH}"
    with admin.connect() as connection:
        connection.execute(text(f"DROP DATABASE IF EXISTS {PG_SCRATCH} WITH (FORCE)"))
    admin.dispose()


@pytest.fixture
def sqlite_url(tmp_path):
    return f"sqlite:///{tmp_path / 'fresh.db'}"


def shape_by_table() -> dict[str, set[str]]:
    """Each table's columns and indexes (a step may change only an index)."""
    inspector = inspect(db.engine)
    return {
        table: {c["name"] for c in inspector.get_columns(table)}
        | {f"index {index['name']}" for index in inspector.get_indexes(table)}
        for table in inspector.get_table_names()
    }


def schema_drift(app) -> list:
    with db.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"include_name": include_in_migrations})
        return compare_metadata(context, db.metadata)


@pytest.mark.parametrize("url_fixture", ["postgres_url", "sqlite_url"])
def test_upgrade_from_empty_matches_models_and_steps_back(request, url_fixture):
    app = create_app(TestConfig, {"SQLALCHEMY_DATABASE_URI": request.getfixturevalue(url_fixture)})
    with app.app_context():
        upgrade()
        assert schema_drift(app) == []
        head = shape_by_table()
        assert {"platform", "platform_domain", "account", "account_session"} <= set(head)

        downgrade(revision="-1")
        assert shape_by_table() != head  # the last step really undid something
        assert schema_drift(app) != []
        upgrade()
        assert shape_by_table() == head
        assert schema_drift(app) == []

        downgrade(revision="base")
        assert set(inspect(db.engine).get_table_names()) <= {"alembic_version"}
        db.engine.dispose()


def _dummy(column) -> object:
    kind = str(column["type"]).upper()
    if "INT" in kind:
        return 1
    if "BOOL" in kind:
        return False
    if "DATE" in kind or "TIME" in kind:
        return "2026-01-01 00:00:00"
    if "JSON" in kind:
        return "{}"
    if "FLOAT" in kind or "REAL" in kind or "NUMERIC" in kind:
        return 0.0
    return "x"


def _insert(connection, table: str, values: dict) -> None:
    row = dict(values)
    for column in inspect(connection).get_columns(table):
        if column["name"] not in row and not column["nullable"] and column.get("default") is None:
            row[column["name"]] = _dummy(column)
    names = ", ".join(row)
    marks = ", ".join(f":{name}" for name in row)
    connection.execute(text(f"INSERT INTO {table} ({names}) VALUES ({marks})"), row)


def test_limits_kept_in_sensor_settings_move_to_the_alarm_area(sqlite_url):
    """Migration 0010: one home for limits; a sensor that already has an alarm limit keeps it."""
    app = create_app(TestConfig, {"SQLALCHEMY_DATABASE_URI": sqlite_url})
    with app.app_context():
        upgrade(revision="0009")
        with db.engine.begin() as connection:
            connection.execute(text("PRAGMA foreign_keys=OFF"))
            settings = '{"1": {"name": "Box", "upper": 8.0, "lower": 2.0}, "2": {"upper": 70.0}}'
            _insert(connection, "device", {"id": 1, "guid": "8002", "sensor_settings": settings})
            _insert(connection, "sensor_limit", {"id": 1, "device_id": 1, "sensor": 2, "upper": 80.0, "lower": None})
        upgrade()
        with db.engine.connect() as connection:
            limits = connection.execute(text("SELECT sensor, lower, upper FROM sensor_limit ORDER BY sensor")).all()
            kept = connection.execute(text("SELECT sensor_settings FROM device")).scalar()
        assert [tuple(row) for row in limits] == [(1, 2.0, 8.0), (2, None, 80.0)]
        assert kept.replace(" ", "") == '{"1":{"name":"Box"},"2":{}}'
        db.engine.dispose()
