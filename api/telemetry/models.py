"""The time-series store.

`reading` holds every value, unique on (device, sensor, ts) so a re-sent reading is a duplicate,
not a second row. On PostgreSQL it is range-partitioned by month (partitions are created ahead by
a periodic job); SQLite keeps the same table unpartitioned. `reading_hourly` is the rollup that
long ranges read: per hour min, max, sum and count, so averages stay exact and no excursion is lost.
`reading_packed` holds the readings older than READING_PACK_AFTER_DAYS, one row per device, sensor
and UTC day (api/telemetry/compaction.py); api/telemetry/readings.py reads both as one source.
"""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import ARRAY, JSON, BigInteger, Float, ForeignKey, Index, SmallInteger, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from api.extensions.db import Model


class Reading(Model):
    __tablename__ = "reading"
    __table_args__ = {"postgresql_partition_by": "RANGE (ts)"}

    device_id: Mapped[int] = mapped_column(primary_key=True)
    sensor: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    ts: Mapped[datetime] = mapped_column(primary_key=True)
    value: Mapped[float] = mapped_column(Float)
    # When the platform stored it (NULL for readings stored before this column existed): a reading
    # received long after its timestamp is back-filled, and charts, exports and reports say so.
    received_at: Mapped[datetime | None] = mapped_column()


class ReadingHourly(Model):
    __tablename__ = "reading_hourly"

    device_id: Mapped[int] = mapped_column(primary_key=True)
    sensor: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    bucket: Mapped[datetime] = mapped_column(primary_key=True)
    min_value: Mapped[float] = mapped_column(Float)
    max_value: Mapped[float] = mapped_column(Float)
    sum_value: Mapped[float] = mapped_column(Float)
    count: Mapped[int] = mapped_column(BigInteger)
    first_ts: Mapped[datetime] = mapped_column()
    last_ts: Mapped[datetime] = mapped_column()


class ReadingPacked(Model):
    """One device's sensor for one UTC day, in time order. `deltas`: microseconds from the day's start
    to the first reading, then from each reading to the next (regular data compresses to almost
    nothing); `vals`: the exact values; `delays`: microseconds from ts to received_at, each as its step
    from the previous known one (a batch received at once compresses like regular times), an element
    NULL where received_at is, the whole array NULL when all are. PostgreSQL only (SQLite keeps
    everything in `reading`; the table exists there so the schema is one)."""

    __tablename__ = "reading_packed"

    device_id: Mapped[int] = mapped_column(primary_key=True)
    sensor: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    day: Mapped[date] = mapped_column(primary_key=True)
    count: Mapped[int] = mapped_column()
    first_ts: Mapped[datetime] = mapped_column()
    last_ts: Mapped[datetime] = mapped_column()
    deltas: Mapped[list[int]] = mapped_column(ARRAY(BigInteger).with_variant(JSON(), "sqlite"))
    vals: Mapped[list[float]] = mapped_column(ARRAY(Float).with_variant(JSON(), "sqlite"))
    delays: Mapped[list[int | None] | None] = mapped_column(ARRAY(BigInteger).with_variant(JSON(), "sqlite"))


class DeviceSample(Model):
    """Battery, signal and position over time (tracks, battery history); one per device and time."""

    __tablename__ = "device_sample"

    device_id: Mapped[int] = mapped_column(primary_key=True)
    ts: Mapped[datetime] = mapped_column(primary_key=True)
    battery: Mapped[float | None] = mapped_column(Float)
    signal: Mapped[float | None] = mapped_column(Float)
    lat: Mapped[float | None] = mapped_column(Float)
    lng: Mapped[float | None] = mapped_column(Float)


class ReadingConflict(Model):
    """A value received for a time a sensor already has a different reading for: the first value
    stays the record (`reading`), this one is kept beside it and reports list it, never dropped
    silently. An identical re-sent value is a plain duplicate (idempotent uploads) and is not kept."""

    __tablename__ = "reading_conflict"
    __table_args__ = (
        UniqueConstraint("device_id", "sensor", "ts", "value"),
        Index("ix_reading_conflict_device_ts", "device_id", "ts"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    device_id: Mapped[int] = mapped_column(ForeignKey("device.id", ondelete="CASCADE"))
    sensor: Mapped[int] = mapped_column(SmallInteger)
    ts: Mapped[datetime] = mapped_column()
    value: Mapped[float] = mapped_column(Float)  # the conflicting value received
    stored_value: Mapped[float] = mapped_column(Float)  # the reading kept as the record
    received_at: Mapped[datetime] = mapped_column()
