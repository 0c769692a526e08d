"""The one telemetry format, shared by HTTP and MQTT, and its validation.

    {"guid": "86000000000001",
     "records": [{"ts": 1795300000000 | "2026-11-21T08:00:00Z",
                  "readings": {"1": 4.2, "2": 61.5},      # sensor number -> value (null = probe fault)
                  "battery": 87, "signal": -71,           # optional: %, dBm
                  "location": {"lat": 31.2, "lng": 121.5}}]}  # optional

Validation is hand-written, not a marshmallow schema: it runs for every record on the hot path.
Each bad record gets a reason; good records of the same batch are kept.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from flask_babel import lazy_gettext

MAX_RECORDS = 5000
EARLIEST = datetime(2000, 1, 1, tzinfo=UTC)
CLOCK_SKEW = timedelta(minutes=5)
RECORD_FIELDS = frozenset({"ts", "readings", "battery", "signal", "location"})


@dataclass(slots=True)
class Record:
    ts: datetime
    readings: dict[int, float | None]
    battery: float | None = None
    signal: float | None = None
    lat: float | None = None
    lng: float | None = None


@dataclass
class Parsed:
    records: list[Record] = field(default_factory=list)
    indexes: list[int] = field(default_factory=list)  # position of each good record in the batch
    rejected: list[dict] = field(default_factory=list)


def _number(value) -> float | None:
    """A finite number, else ValueError (also for an integer beyond a float: 400 digits ...)."""
    if type(value) is float:  # the usual reading: only its finiteness to check
        if math.isfinite(value):
            return value
        raise ValueError
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError
    try:
        number = float(value)
    except OverflowError as exc:
        raise ValueError from exc
    if not math.isfinite(number):
        raise ValueError
    return number


def _timestamp(value, latest: datetime, earliest: datetime = EARLIEST) -> datetime:
    """`value` as a UTC time within [earliest, latest], else ValueError (or TypeError ...)."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        ts = datetime.fromtimestamp(value / 1000, UTC)
    elif isinstance(value, str):
        ts = datetime.fromisoformat(value.replace("Z", "+00:00"))
        if ts.tzinfo is None:
            raise ValueError
        ts = ts.astimezone(UTC)
    else:
        raise ValueError
    if ts < earliest or ts > latest:
        raise ValueError
    return ts


def parse_records(
    raw_records,
    sensor_ranges: dict[int, tuple[float | None, float | None]],
    now: datetime,
    issued_at: datetime | None = None,
) -> Parsed:
    """`sensor_ranges`: the device type's sensors and their measurable range; `issued_at`: when the
    device's GUID was issued (nothing it measured can be older, give or take the clock skew)."""
    parsed = Parsed()
    for _record in checked_records(raw_records, sensor_ranges, now, issued_at, parsed):
        pass
    return parsed


def checked_records(
    raw_records,
    sensor_ranges: dict[int, tuple[float | None, float | None]],
    now: datetime,
    issued_at: datetime | None,
    parsed: Parsed,
) -> Iterator[Record]:
    """`parse_records` one record at a time: yields each good record as soon as it is checked (a
    large batch's readings are stored while the rest are checked), noting it and each refusal in
    `parsed`."""
    earliest = max(EARLIEST, issued_at - CLOCK_SKEW) if issued_at is not None else EARLIEST
    if not isinstance(raw_records, list):
        parsed.rejected.append({"index": None, "field": "records", "reason": lazy_gettext("Not a valid list.")})
        return
    if len(raw_records) > MAX_RECORDS:
        reason = lazy_gettext("At most %(max)s records per batch.", max=MAX_RECORDS)
        parsed.rejected.append({"index": None, "field": "records", "reason": reason})
        return
    # Per batch, not per record: the latest acceptable time and each sensor's key as sent ("1").
    latest = now + CLOCK_SKEW
    sensor_keys = {str(sensor): sensor for sensor in sensor_ranges}
    for index, raw in enumerate(raw_records):
        reason = _check(raw, sensor_ranges, latest, earliest, sensor_keys)
        if isinstance(reason, Record):
            parsed.records.append(reason)
            parsed.indexes.append(index)
            yield reason
        else:
            parsed.rejected.append({"index": index, "field": reason[0], "reason": reason[1]})


_BOUNDED = (("battery", 0, 100), ("signal", -150, 0))  # optional numbers of a record: name, min, max


def _check(raw, sensor_ranges, latest, earliest, sensor_keys) -> Record | tuple[str, str]:
    """One record checked: a Record, or the field at fault and why. `sensor_keys`: each sensor's
    number by its usual key ("1"); other keys that name a sensor (" 1", "01") are parsed."""
    if not isinstance(raw, dict):
        return "record", lazy_gettext("Not a valid object.")
    if not RECORD_FIELDS.issuperset(raw):
        return sorted(set(raw) - RECORD_FIELDS)[0], lazy_gettext("Unknown field.")
    try:
        ts = _timestamp(raw.get("ts"), latest)
    except (ValueError, TypeError, OverflowError, OSError):
        return "ts", lazy_gettext("Not a valid time: epoch milliseconds or ISO 8601 with offset, not in the future.")
    if ts < earliest:
        return "ts", lazy_gettext("This time is before the device's GUID was issued.")
    readings_raw = raw.get("readings", {})
    if not isinstance(readings_raw, dict):
        return "readings", lazy_gettext("Not a valid object.")
    readings: dict[int, float | None] = {}
    for key, value in readings_raw.items():
        sensor = sensor_keys.get(key)
        if sensor is None:
            try:
                sensor = int(key)
            except (TypeError, ValueError):
                sensor = None
            if sensor not in sensor_ranges:
                return f"readings.{key}", lazy_gettext("This device has no sensor %(sensor)s.", sensor=key)
        if value is None:
            readings[sensor] = None  # the probe reports a fault
            continue
        try:
            number = _number(value)
        except ValueError:
            return f"readings.{key}", lazy_gettext("Not a valid number.")
        low, high = sensor_ranges[sensor]
        if (low is not None and number < low) or (high is not None and number > high):
            return f"readings.{key}", lazy_gettext(
                "Outside the sensor's range %(low)s to %(high)s.", low=low, high=high
            )
        readings[sensor] = number
    record = Record(ts=ts, readings=readings)
    for name, low, high in _BOUNDED:
        reported = raw.get(name)
        if reported is not None:
            try:
                number = _number(reported)
            except ValueError:
                return name, lazy_gettext("Not a valid number.")
            if not low <= number <= high:
                return name, lazy_gettext("Must be between %(min)s and %(max)s.", min=low, max=high)
            setattr(record, name, number)
    location = raw.get("location")
    if location is not None:
        try:
            lat, lng = _number(location["lat"]), _number(location["lng"])
        except (ValueError, KeyError, TypeError):
            return "location", lazy_gettext("Not a valid position.")
        if not (-90 <= lat <= 90 and -180 <= lng <= 180):
            return "location", lazy_gettext("Not a valid position.")
        record.lat, record.lng = lat, lng
    if not readings and record.battery is None and record.signal is None and record.lat is None:
        return "readings", lazy_gettext("The record carries no data.")
    return record
