"""Work on the driver's own connection (a COPY) fails as SQLAlchemy's statements do
(api/extensions/db.py driver_errors): callers tell a bad row from a lost database by SQLAlchemy's
exceptions, as the MQTT subscriber does to decide between dropping a message and a redelivery."""

from __future__ import annotations

import contextlib

import psycopg
import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import IntegrityError, OperationalError

from api.extensions.db import driver_errors
from api.settings import TestConfig
from tests.api.test_db_ping import terminate

COPY = "COPY copied (n) FROM STDIN"


@pytest.fixture
def engine():
    engine = create_engine(TestConfig.SQLALCHEMY_DATABASE_URI, pool_size=1, max_overflow=0)
    yield engine
    engine.dispose()


def copy_rows(connection, rows, wrapped: bool = True) -> None:
    cursor = connection.connection.driver_connection.cursor()
    with driver_errors(connection, COPY) if wrapped else contextlib.nullcontext(), cursor.copy(COPY) as copy:
        for row in rows:
            copy.write_row(row)


def test_a_bad_row_is_sqlalchemys_integrity_error_on_a_live_connection(engine):
    with engine.connect() as connection:
        connection.execute(text("CREATE TEMP TABLE copied (n integer NOT NULL)"))
        with pytest.raises(IntegrityError) as raised:
            copy_rows(connection, [(1,), (None,)])
        assert isinstance(raised.value.orig, psycopg.errors.NotNullViolation)
        assert not raised.value.connection_invalidated and not connection.invalidated
        connection.rollback()
        connection.execute(text("CREATE TEMP TABLE copied (n integer NOT NULL)"))
        # Unwrapped, the driver's own error escapes (what the wrapper exists for).
        with pytest.raises(psycopg.errors.NotNullViolation):
            copy_rows(connection, [(None,)], wrapped=False)


def test_a_lost_connection_is_an_operational_error_and_the_connection_invalidated(engine):
    with engine.connect() as connection:
        terminate(connection.execute(text("SELECT pg_backend_pid()")).scalar_one())  # as a server restart would
        with pytest.raises(OperationalError) as raised:
            copy_rows(connection, [(1,)])
        assert raised.value.connection_invalidated and connection.invalidated
