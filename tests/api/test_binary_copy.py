"""Readings in PostgreSQL's binary COPY format (api/telemetry/binary_copy.py): what the server stores
is exactly what was written, and the stream reaches the COPY in blocks as the rows come."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import text

from api.extensions.db import db
from api.telemetry.binary_copy import BLOCK_BYTES, SIGNATURE, TRAILER, write_readings

TABLE = (
    "copy_probe (device_id integer, sensor smallint, ts timestamptz, value double precision, received_at timestamptz)"
)
ROW_BYTES = 52  # its field count, 5 lengths and 30 bytes of values


def copied(app, rows, received) -> tuple[list[tuple], list[tuple[int, int]]]:
    """The rows as PostgreSQL stored them, and for each block handed to the COPY its size and how
    many rows had been taken from `rows` when it was handed over."""
    taken = 0

    def counted():
        nonlocal taken
        for row in rows:
            taken += 1
            yield row

    blocks: list[tuple[int, int]] = []
    with app.app_context():
        connection = db.session.connection()
        connection.execute(text(f"CREATE TEMP TABLE {TABLE}"))
        cursor = connection.connection.driver_connection.cursor()
        with cursor.copy("COPY copy_probe FROM STDIN (FORMAT BINARY)") as copy:

            def write(block):
                blocks.append((len(block), taken))
                copy.write(block)

            write_readings(write, counted(), received)
        stored = connection.execute(text("SELECT * FROM copy_probe ORDER BY device_id, sensor, ts")).all()
        db.session.rollback()
    return [tuple(row) for row in stored], blocks


def test_what_postgresql_stores_is_what_was_written(app):
    received = datetime(2026, 11, 27, 9, 30, 15, 123456, tzinfo=UTC)
    times = [
        datetime(2026, 11, 24, 23, 59, 59, 999999, tzinfo=UTC),
        datetime(1999, 12, 31, 23, 59, 59, 500000, tzinfo=UTC),  # before PostgreSQL's epoch
        datetime(2038, 1, 19, 3, 14, 8, 1, tzinfo=UTC),
    ]
    rows = [
        (2_147_483_647, 32_767, times[0], -18.123456789012),
        (1, 1, times[1], 0.0),
        (1, 2, times[1], -1e-300),
        (42, 4, times[2], 1.5e300),
    ]
    stored, blocks = copied(app, rows, received)
    assert stored == sorted((*row, received) for row in rows)
    assert blocks == [(len(SIGNATURE) + 4 * ROW_BYTES + len(TRAILER), 4)]


def test_the_rows_go_out_in_blocks_as_they_come(app):
    # The server starts on the first block while later rows are still being made: about 8 KB each,
    # not one buffer of the whole batch.
    received = datetime.now(UTC)
    base = received - timedelta(days=1)
    rows = [(7, sensor, base + timedelta(seconds=10 * n), n / 10) for n in range(500) for sensor in (1, 2, 3, 4)]
    stored, blocks = copied(app, rows, received)
    assert len(stored) == 2000
    assert len(blocks) > 10
    assert all(BLOCK_BYTES <= size < BLOCK_BYTES + ROW_BYTES for size, _taken in blocks[:-1])
    assert blocks[0][1] < 200  # the first block left after 158 of the 2,000 rows
