"""Statements sent together (api/extensions/pipeline.py): one round trip on PostgreSQL, and the same
rows, names and types as SQLAlchemy gives for each statement run alone."""

from __future__ import annotations

import pytest
from psycopg.pq import Trace
from sqlalchemy import literal, select, text
from sqlalchemy.exc import DBAPIError

from api.alarm import lifecycle
from api.alarm.evaluation import LIMITS_AND_ACTIVE_ALARMS
from api.alarm.models import Alarm, SensorLimit
from api.device.models import Device, DeviceState
from api.extensions.db import db
from api.extensions.pipeline import fetch_together
from api.waybill.services import OPEN_WAYBILL_DEVICES
from tests.api.device_helpers import add, guids, minutes_ago, owner, upload

__all__ = ["guids", "owner"]


@pytest.fixture
def alarming_fridge(app, client, owner, guids):
    """A claimed device with a limit on sensor 1, an open alarm on it and a state."""
    guid, key = guids["th_a"]
    device_id = add(client, owner, guid, name="Fridge")
    with app.app_context():
        db.session.add(SensorLimit(device_id=device_id, sensor=1, upper=8.0, lower=2.0, delay_minutes=0))
        db.session.commit()
    body = upload(client, guid, key, [{"ts": minutes_ago(1), "readings": {"1": 12.5, "2": 50}, "battery": 90}])
    assert body.get_json()["data"]["accepted"] == 2
    return device_id


def test_the_rows_are_those_sqlalchemy_gives(app, alarming_fridge):
    device_id = alarming_fridge
    with app.app_context():  # the lookups' statements are built for the app's database
        queries = [
            # A union with NULL columns and an expanding IN of enums, as ingestion's lookups read.
            (LIMITS_AND_ACTIVE_ALARMS.statement(), {"ids": [device_id, 0]}),
            (OPEN_WAYBILL_DEVICES.statement(), {"ids": [device_id]}),
            # Time-zone aware times (a TypeDecorator), JSON, floats, booleans, strings.
            (
                select(Device.guid, Device.created_at, Device.enabled, DeviceState.values, DeviceState.last_data_at)
                .join(DeviceState, DeviceState.device_id == Device.id)
                .where(Device.id == device_id),
                {},
            ),
            (select(Alarm.id, Alarm.kind, Alarm.status).where(Alarm.status.in_(lifecycle.ACTIVE)), {}),
            (text("SELECT count(*) AS readings FROM reading WHERE device_id = :id"), {"id": device_id}),
        ]
        connection = db.session.connection()
        together = fetch_together(connection, queries)
        alone = [connection.execute(statement, params).all() for statement, params in queries]
        db.session.rollback()
    assert [len(rows) for rows in together] == [2, 0, 1, 1, 1]  # the limit and the open alarm's id
    for rows, expected in zip(together, alone, strict=True):
        assert [tuple(row) for row in rows] == [tuple(row) for row in expected]
        assert [[type(value) for value in row] for row in rows] == [[type(value) for value in row] for row in expected]
        assert all(row._fields == tuple(expected_row._fields) for row, expected_row in zip(rows, expected, strict=True))
    limit = next(row for row in together[0] if row.alarm_id is None)
    assert (limit.device_id, limit.sensor, limit.upper, limit.lower) == (device_id, 1, 8.0, 2.0)
    assert together[2][0].created_at.tzinfo is not None


def test_the_statements_go_out_before_the_first_answer(app, tmp_path):
    # One round trip: every message to the server (libpq's trace, "F") precedes its first answer ("B").
    trace = tmp_path / "libpq.trace"
    with app.app_context():
        connection = db.session.connection()
        connection.execute(text("SELECT 1"))  # the transaction begun: psycopg's BEGIN is not part of it
        pgconn = connection.connection.driver_connection.pgconn
        with trace.open("w") as out:
            pgconn.trace(out.fileno())
            pgconn.set_trace_flags(Trace.SUPPRESS_TIMESTAMPS)
            try:
                rows = fetch_together(
                    connection, [(select(literal(n).label("n")), {}) for n in range(3)] + [(text("SELECT 4 AS n"), {})]
                )
            finally:
                pgconn.untrace()
        db.session.rollback()
    assert [[row.n for row in found] for found in rows] == [[0], [1], [2], [4]]
    directions = [line.split("\t", 1)[0] for line in trace.read_text().splitlines() if line.strip()]
    assert directions.count("F") >= 4 * 4  # parse, bind, describe and execute of each
    assert "F" not in directions[directions.index("B") :]


def test_a_failing_statement_fails_like_one_run_alone(app, alarming_fridge):
    device_id = alarming_fridge
    with app.app_context():
        connection = db.session.connection()
        with pytest.raises(DBAPIError) as raised:
            fetch_together(
                connection,
                [(select(literal(1).label("one")), {}), (text("SELECT 1 / 0"), {}), (text("SELECT 2"), {})],
            )
        assert raised.value.orig.sqlstate == "22012"  # division by zero
        db.session.rollback()
        # The session goes on after its rollback, as after any failed statement.
        assert db.session.scalar(select(Device.id).where(Device.id == device_id)) == device_id
