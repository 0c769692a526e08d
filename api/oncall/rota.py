"""Who is on call at an instant: the schedule's rota and overrides read in the schedule's time zone.

A rota entry hands over at its weekday and wall-clock time (local, DST included) and lasts until the
next entry's hand-over; the week wraps (Sunday evening's person stays on until Monday's first
hand-over). A hand-over in the hour the clocks skip happens when they go forward (the first wall-clock
minute after it); one in the hour they repeat happens at its first occurrence. An override (a local
date or date-time range: a holiday, a swap) names another person for its range; among overrides that
cover the instant the one starting last wins. An empty rota without an override has nobody on call."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

MINUTE = timedelta(minutes=1)


@dataclass(frozen=True)
class OnCall:
    """The person on call (as stored: `{"accountId"}` or a contact), since when, where from
    ("rota" or "override") and the entry's index in its list."""

    person: dict[str, Any]
    since: datetime
    source: str
    index: int


def to_utc(wall: datetime, zone: ZoneInfo) -> datetime:
    """A local wall-clock time as an instant: its first occurrence when the clocks repeat it, the moment
    the clocks pass it when they skip it (a spring-forward gap)."""
    for _ in range(24 * 60):
        aware = wall.replace(tzinfo=zone, fold=0)
        if aware.astimezone(UTC).astimezone(zone).replace(tzinfo=None) == wall:
            return aware.astimezone(UTC)
        wall += MINUTE  # not a wall-clock time of this zone: the next minute that is
    raise ValueError("no such local time")


def parse_bound(text: str, *, end: bool) -> datetime:
    """An override's start or end as a local wall-clock time: a date alone is its midnight, and an
    end date includes its day (the next midnight)."""
    if "T" in text:
        return datetime.fromisoformat(text)
    day = date.fromisoformat(text)
    return datetime.combine(day + timedelta(days=1) if end else day, time())


def _hand_over(weekday: int, at: str) -> tuple[int, time]:
    return weekday, time.fromisoformat(at)


def last_hand_over(entry: dict, instant: datetime, zone: ZoneInfo) -> datetime:
    """The latest instant at or before `instant` at which this rota entry handed over."""
    weekday, at = _hand_over(entry["weekday"], entry["time"])
    local_day = instant.astimezone(zone).date()
    day = local_day - timedelta(days=(local_day.isoweekday() - weekday) % 7)
    start = to_utc(datetime.combine(day, at), zone)
    while start > instant:
        day -= timedelta(days=7)
        start = to_utc(datetime.combine(day, at), zone)
    return start


def on_call_at(schedule: Any, instant: datetime) -> OnCall | None:
    """The person on call at `instant` (an aware datetime) under `schedule` (anything with
    `time_zone`, `rota` and `overrides`), or None when nobody is."""
    zone = ZoneInfo(schedule.time_zone)
    best: OnCall | None = None
    for index, override in enumerate(schedule.overrides or []):
        start = to_utc(parse_bound(override["start"], end=False), zone)
        end = to_utc(parse_bound(override["end"], end=True), zone)
        if start <= instant < end and (best is None or start >= best.since):
            best = OnCall(override["person"], start, "override", index)
    if best is not None:
        return best
    for index, entry in enumerate(schedule.rota or []):
        since = last_hand_over(entry, instant, zone)
        if best is None or since > best.since:
            best = OnCall(entry["person"], since, "rota", index)
    return best
