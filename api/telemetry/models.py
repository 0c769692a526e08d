"""The time-series store.

`reading` holds every value, unique on (device, sensor, ts) so a re-sent reading is a duplicate,
not a second row. On PostgreSQL it is range-partitioned by month (partitions are created ahead by
a periodic job); SQLite keeps the same table unpartitioned. `reading_hourly` is the rollup that
long ranges read: per hour min, max, sum and count, so averages stay exact and no excursion is lost.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, Float, SmallInteger
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


class DeviceSample(Model):
    """Battery, signal and position over time (tracks, battery history); one per device and time."""

    __tablename__ = "device_sample"

    device_id: Mapped[int] = mapped_column(primary_key=True)
    ts: Mapped[datetime] = mapped_column(primary_key=True)
    battery: Mapped[float | None] = mapped_column(Float)
    signal: Mapped[float | None] = mapped_column(Float)
    lat: Mapped[float | None] = mapped_column(Float)
    lng: Mapped[float | None] = mapped_column(Float)
