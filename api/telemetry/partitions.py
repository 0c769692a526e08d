"""Monthly partitions of `reading` on PostgreSQL (no-op elsewhere).

The migration creates a default partition and the months around now; the periodic job
`ensure_upcoming_partitions` keeps three months ahead, so live data never lands in the default one.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from sqlalchemy import text
from sqlalchemy.engine import Connection

MONTHS_AHEAD = 3
MONTHLY = re.compile(r"reading_(\d{4})(\d{2})")


def month_start(moment: datetime, offset: int = 0) -> datetime:
    index = moment.year * 12 + (moment.month - 1) + offset
    return datetime(index // 12, index % 12 + 1, 1, tzinfo=UTC)


def ensure_partitions(
    connection: Connection, now: datetime, months_back: int = 2, months_ahead: int = MONTHS_AHEAD
) -> list[str]:
    """Create the missing monthly partitions from `months_back` before now to `months_ahead` after."""
    if connection.dialect.name != "postgresql":
        return []
    connection.execute(text("CREATE TABLE IF NOT EXISTS reading_default PARTITION OF reading DEFAULT"))
    created = []
    for offset in range(-months_back, months_ahead + 1):
        start, end = month_start(now, offset), month_start(now, offset + 1)
        name = f"reading_{start:%Y%m}"
        exists = connection.execute(text("SELECT to_regclass(:name)"), {"name": name}).scalar()
        if exists is None:
            bounds = f"FROM ('{start.isoformat()}') TO ('{end.isoformat()}')"
            connection.execute(text(f"CREATE TABLE {name} PARTITION OF reading FOR VALUES {bounds}"))
            created.append(name)
    return created


def monthly_partitions(connection: Connection) -> list[tuple[str, datetime]]:
    """The monthly partitions of `reading` (named as ensure_partitions names them) and where each ends."""
    if connection.dialect.name != "postgresql":
        return []
    names = connection.execute(
        text(
            "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
            "WHERE i.inhparent = 'reading'::regclass ORDER BY c.relname"
        )
    ).scalars()
    out = []
    for name in names:
        match = MONTHLY.fullmatch(name)
        if match:
            out.append((name, month_start(datetime(int(match[1]), int(match[2]), 1, tzinfo=UTC), 1)))
    return out
