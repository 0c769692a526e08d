"""Issue 46: what a CSV export costs per reading, without a byte of its output changing.

The export of 5.26 M readings had gone from 13.1 s to 37.5 s: the statistics asked a Counter for the
logging interval at every reading, each row's time looked its zone offset up twice, and the stream of
one sensor was sorted by PostgreSQL before its first row (the raw and packed readings' union could not
use the index order). Each test below fails on that code and passes on the fix; the export tests
(test_report.py, test_reading_compaction.py) hold the files themselves byte for byte. Found on the
way: a zone that changes its offset on the half hour got the hour's first offset for the whole hour.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from api.extensions.db import db
from api.report.present import LocalTime
from api.report.stats import SeriesStats
from api.telemetry.queries import POSTGRES_STREAM, POSTGRES_STREAM_ONE_SENSOR
from api.telemetry.readings import packed_days

MINUTE = 60_000


class CountingCounter(Counter):
    """A Counter that tells how often it was asked for its most common entries."""

    asked = 0

    def most_common(self, n=None):
        CountingCounter.asked += 1
        return super().most_common(n)


@pytest.mark.parametrize("seed", range(8))
def test_the_interval_is_the_most_common_step_after_every_reading(seed):
    """The mode kept as steps are counted is Counter.most_common's, ties (the first seen) included."""
    rng = random.Random(seed)
    steps = rng.choice([[60, 61], [60, 120, 59], [600, 60, 1, 3600], [5, 10, 15, 20]])
    stats, seen, ms = SeriesStats(lower=2.0, upper=8.0), Counter(), 0
    stats.add(ms, 5.0)
    assert stats.interval_s is None
    for _ in range(400):
        step = rng.choice(steps)
        ms += step * 1000
        stats.add(ms, rng.choice([1.0, 5.0, 9.0]))
        seen[step] += 1
        assert stats.interval_s == seen.most_common(1)[0][0]


def test_a_sub_second_step_and_equal_times_count_as_the_counter_counts_them():
    stats = SeriesStats(upper=8.0)
    for ms in (0, 400, 400, 1_400, 2_400, 2_700, 3_100):  # steps 0.4 (-> 0), 0 (skipped), 1, 1, 0.3, 0.4
        stats.add(ms, 9.0)
    assert stats.interval_s == Counter([0, 1, 1, 0, 0]).most_common(1)[0][0] == 0


def test_the_interval_is_not_recounted_for_every_reading():
    """A day out of range (every reading charges time above the limit) asks the Counter nothing."""
    stats = SeriesStats(upper=8.0)
    stats._intervals = CountingCounter()
    CountingCounter.asked = 0
    for i in range(1_440):
        stats.add(i * MINUTE, 9.0)
    stats.finish()
    assert CountingCounter.asked == 0
    assert stats.seconds_above == 1_440 * 60 and stats.interval_s == 60


ZONES = ["Europe/Berlin", "America/St_Johns", "Asia/Kathmandu", "Australia/Lord_Howe", "Asia/Shanghai", "UTC"]


@pytest.mark.parametrize("zone", ZONES)
def test_a_rows_time_and_offset_across_daylight_saving(zone):
    """with_offset is the local time and its UTC offset, in the hours a change skips or repeats, also
    where it changes on the half hour (St John's, Lord Howe): the offset was cached per UTC hour as it
    was at the hour's start, so the half hour after such a change showed the time 30 minutes off."""
    formatter, reference = LocalTime(ZoneInfo(zone)), LocalTime(ZoneInfo(zone))
    changes = (datetime(2026, 3, 7, 12), datetime(2026, 3, 29), datetime(2026, 10, 3, 12), datetime(2026, 10, 31, 12))
    for moment in (change.replace(tzinfo=UTC) for change in changes):
        for step in range(0, 48 * 3600, 433):  # two days, every 7 min 13 s
            ms = int((moment + timedelta(seconds=step)).timestamp() * 1000) + step % 1000
            local = datetime.fromtimestamp(ms / 1000, ZoneInfo(zone))
            minutes = int(local.utcoffset().total_seconds()) // 60
            sign = "-" if minutes < 0 else "+"
            expected = f"{local:%Y-%m-%d %H:%M:%S} {sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"
            assert formatter.with_offset(ms) == expected
            assert expected == f"{reference(ms)} {reference.offset_text(ms)}"


def test_a_rows_offset_is_looked_up_once_per_hour(monkeypatch):
    """A day of one-second rows looks the zone offset up once per UTC hour, not twice per row."""
    formatter = LocalTime(ZoneInfo("Europe/Berlin"))
    lookups = []
    original = LocalTime.offset_ms
    monkeypatch.setattr(LocalTime, "offset_ms", lambda self, ms: lookups.append(ms) or original(self, ms))
    start = int(datetime(2026, 3, 29, tzinfo=UTC).timestamp() * 1000)
    texts = [formatter.with_offset(start + i * 1000) for i in range(86_400)]
    assert len(lookups) <= 2 * 24  # offset and its text, once per hour
    assert texts[0] == "2026-03-29 01:00:00 +01:00" and texts[3600] == "2026-03-29 03:00:00 +02:00"


postgres_only = pytest.mark.skipif(
    "postgresql" not in os.environ.get("TEST_DATABASE_URL", "postgresql"), reason="PostgreSQL's plan"
)


def _raw_scans_under_a_sort(plan: dict, sorted_above: bool = False) -> list[str]:
    """The scans of the raw `reading` table that some Sort node of the plan sorts."""
    sorted_here = sorted_above or plan["Node Type"] == "Sort"
    found = [plan["Node Type"]] if sorted_here and plan.get("Relation Name", "").startswith("reading") else []
    if plan.get("Relation Name", "").startswith("reading_packed"):
        found = []
    for child in plan.get("Plans", []):
        found += _raw_scans_under_a_sort(child, sorted_here)
    return found


def _plan(statement: str, params: dict) -> dict:
    raw = db.session.connection().connection.driver_connection
    with raw.cursor() as cursor:
        # Whatever the table's size: a plan that needs no sort of the raw readings is taken if one exists.
        cursor.execute("SET LOCAL enable_sort = off")
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("EXPLAIN (FORMAT JSON) " + statement, params)
        (document,) = cursor.fetchone()
    return document[0]["Plan"]


@postgres_only
def test_one_sensors_readings_come_in_index_order_without_a_sort(app):
    """A year of one probe streams straight from the (device_id, sensor, ts) index merged with the
    packed days; `sensor = ANY(...)` sorts the whole range before the first row."""
    start = datetime(2025, 1, 1, tzinfo=UTC)
    end = start + timedelta(days=365)
    params = {"late": 1800, "device": 1, "start": start, "end": end} | packed_days(start, end)
    with app.app_context():
        one = _plan(POSTGRES_STREAM_ONE_SENSOR, params | {"sensor": 1})
        several = _plan(POSTGRES_STREAM, params | {"sensors": [1, 2]})
        db.session.rollback()
    assert _raw_scans_under_a_sort(one) == []
    assert _raw_scans_under_a_sort(several) != []  # two sensors in time order: sorted, as before
