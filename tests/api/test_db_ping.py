"""Pooled connections are pinged only after a second idle (api/extensions/db.py ping_when_idle), and
the pool hands out the connection returned last (settings.py)."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from api.extensions.db import db, ping_when_idle
from api.settings import TestConfig


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def pinged_engine():
    clock = Clock()
    engine = create_engine(TestConfig.SQLALCHEMY_DATABASE_URI, pool_size=1, max_overflow=0)
    ping_when_idle(engine, after_s=1.0, clock=clock)
    yield engine, clock
    engine.dispose()


def backend_pid(engine) -> int:
    with engine.connect() as connection:
        return connection.execute(text("SELECT pg_backend_pid()")).scalar_one()


def terminate(pid: int) -> None:
    admin = create_engine(TestConfig.SQLALCHEMY_DATABASE_URI, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        assert connection.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid}).scalar_one()
    admin.dispose()


def test_a_connection_idle_for_a_second_is_pinged_and_replaced_when_dead(pinged_engine):
    engine, clock = pinged_engine
    dropped = backend_pid(engine)
    terminate(dropped)  # as a server restart would
    clock.now += 1.5
    assert backend_pid(engine) != dropped  # the ping found it dead: a new connection, no error


def test_a_connection_just_checked_in_is_used_without_a_ping(pinged_engine):
    engine, clock = pinged_engine
    dropped = backend_pid(engine)
    terminate(dropped)
    clock.now += 0.2
    # No ping within the second: the statement itself meets the dropped connection...
    with pytest.raises(OperationalError):
        backend_pid(engine)
    # ...and the pool replaces it for the next one.
    assert backend_pid(engine) != dropped


def test_a_request_takes_the_connection_returned_last(app):
    """The pool is LIFO (settings.py): after a burst, a lone client keeps reusing one warm connection
    (its statements prepared) instead of going through every connection the burst opened."""
    with app.app_context():
        engine = db.engine
        held = [engine.connect() for _ in range(3)]
        pids = [connection.execute(text("SELECT pg_backend_pid()")).scalar_one() for connection in held]
        for connection in held:
            connection.close()
        assert backend_pid(engine) == pids[-1]
        assert backend_pid(engine) == pids[-1]
