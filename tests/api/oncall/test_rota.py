"""on_call_at: the person on call at an instant, computed in the schedule's zone (api/oncall/rota.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from zoneinfo import ZoneInfo

import pytest

from api.oncall.rota import on_call_at

ANN, BOB, CY, DOT = ({"name": n, "email": f"{n.lower()}@example.com"} for n in ("Ann", "Bob", "Cy", "Dot"))
BERLIN, NEW_YORK, SHANGHAI = ZoneInfo("Europe/Berlin"), ZoneInfo("America/New_York"), ZoneInfo("Asia/Shanghai")


def schedule(rota=(), overrides=(), zone="Europe/Berlin"):
    return SimpleNamespace(time_zone=zone, rota=list(rota), overrides=list(overrides))


def entry(weekday, time, person):
    return {"weekday": weekday, "time": time, "person": person}


def at(zone, *parts):
    return datetime(*parts, tzinfo=zone)


def name(found):
    return None if found is None else found.person["name"]


# Monday 2026-11-30 .. Sunday 2026-12-06 (winter time in Berlin, UTC+1).
WEEK = schedule([entry(1, "08:00", ANN), entry(3, "20:00", BOB), entry(5, "18:00", CY)])


class TestHandOvers:
    def test_the_hand_over_minute_belongs_to_the_new_person(self):
        assert name(on_call_at(WEEK, at(BERLIN, 2026, 12, 2, 19, 59, 59))) == "Ann"
        assert name(on_call_at(WEEK, at(BERLIN, 2026, 12, 2, 20, 0))) == "Bob"
        found = on_call_at(WEEK, at(BERLIN, 2026, 12, 3, 9, 0))
        assert found.since == datetime(2026, 12, 2, 19, 0, tzinfo=UTC) and found.source == "rota"

    def test_the_week_wraps_from_sunday_to_mondays_first_hand_over(self):
        assert name(on_call_at(WEEK, at(BERLIN, 2026, 12, 6, 23, 59))) == "Cy"
        assert name(on_call_at(WEEK, at(BERLIN, 2026, 11, 30, 7, 59))) == "Cy"  # Monday before 08:00
        assert on_call_at(WEEK, at(BERLIN, 2026, 11, 30, 7, 59)).since == at(BERLIN, 2026, 11, 27, 18, 0)
        assert name(on_call_at(WEEK, at(BERLIN, 2026, 11, 30, 8, 0))) == "Ann"

    def test_read_in_the_schedules_zone_not_utc(self):
        # 07:30 UTC on Monday is 08:30 in Berlin (Ann) but 15:30 in Shanghai; 23:30 UTC Sunday is
        # already Monday 07:30 in Shanghai.
        instant = datetime(2026, 11, 30, 7, 30, tzinfo=UTC)
        assert name(on_call_at(WEEK, instant)) == "Ann"
        shanghai = schedule(WEEK.rota, zone="Asia/Shanghai")
        assert name(on_call_at(shanghai, datetime(2026, 11, 29, 23, 30, tzinfo=UTC))) == "Cy"
        assert name(on_call_at(shanghai, datetime(2026, 11, 30, 0, 0, tzinfo=UTC))) == "Ann"

    def test_a_single_entry_is_on_call_all_week(self):
        one = schedule([entry(4, "12:00", DOT)])
        monday = at(BERLIN, 2026, 11, 30, 0, 0)
        assert [name(on_call_at(one, monday + timedelta(hours=5 * step))) for step in range(34)] == ["Dot"] * 34

    def test_an_empty_rota_has_nobody(self):
        assert on_call_at(schedule(), datetime(2026, 12, 1, tzinfo=UTC)) is None


class TestDaylightSaving:
    # Berlin: clocks go 02:00 -> 03:00 on Sunday 2026-03-29 and 03:00 -> 02:00 on Sunday 2026-10-25.
    def test_a_hand_over_keeps_its_wall_clock_time_across_the_change(self):
        rota = schedule([entry(7, "09:00", ANN), entry(7, "21:00", BOB)])
        before, after = on_call_at(rota, at(BERLIN, 2026, 3, 22, 9, 0)), on_call_at(rota, at(BERLIN, 2026, 3, 29, 9, 0))
        assert name(before) == name(after) == "Ann"
        assert before.since == datetime(2026, 3, 22, 8, 0, tzinfo=UTC)  # UTC+1
        assert after.since == datetime(2026, 3, 29, 7, 0, tzinfo=UTC)  # UTC+2
        # 06:59 UTC on the 29th is 08:59 summer time: before the hand-over, Bob still (a week earlier,
        # 07:59 UTC was 08:59 winter time).
        assert name(on_call_at(rota, datetime(2026, 3, 22, 7, 59, tzinfo=UTC))) == "Bob"
        assert name(on_call_at(rota, datetime(2026, 3, 29, 6, 59, tzinfo=UTC))) == "Bob"

    def test_a_hand_over_in_the_skipped_hour_happens_when_the_clocks_go_forward(self):
        rota = schedule([entry(7, "02:30", ANN), entry(3, "12:00", BOB)])
        assert name(on_call_at(rota, datetime(2026, 3, 29, 0, 59, tzinfo=UTC))) == "Bob"  # 01:59 local
        found = on_call_at(rota, datetime(2026, 3, 29, 1, 0, tzinfo=UTC))  # 03:00 local (summer time)
        assert name(found) == "Ann" and found.since == datetime(2026, 3, 29, 1, 0, tzinfo=UTC)

    def test_a_hand_over_in_the_repeated_hour_happens_once_at_its_first_occurrence(self):
        rota = schedule([entry(7, "02:30", ANN), entry(3, "12:00", BOB)])
        first = datetime(2026, 10, 25, 0, 30, tzinfo=UTC)  # 02:30 summer time
        assert name(on_call_at(rota, first - timedelta(seconds=1))) == "Bob"
        assert name(on_call_at(rota, first)) == "Ann"
        # The clocks show 02:00-02:29 again after 01:00 UTC: Ann stays on call (no flip back to Bob).
        assert name(on_call_at(rota, datetime(2026, 10, 25, 1, 10, tzinfo=UTC))) == "Ann"
        assert on_call_at(rota, datetime(2026, 10, 25, 1, 10, tzinfo=UTC)).since == first

    def test_new_york_changes_on_another_day(self):
        rota = schedule([entry(7, "01:00", ANN), entry(7, "06:00", BOB)], zone="America/New_York")
        # 2026-03-08: New York springs forward; 06:00 EDT is 10:00 UTC (11:00 UTC a day earlier, EST).
        assert name(on_call_at(rota, datetime(2026, 3, 8, 9, 59, tzinfo=UTC))) == "Ann"
        assert name(on_call_at(rota, datetime(2026, 3, 8, 10, 0, tzinfo=UTC))) == "Bob"


class TestOverrides:
    def test_a_holiday_date_covers_the_whole_local_day_and_then_the_rota_resumes(self):
        holiday = schedule(WEEK.rota, [{"start": "2026-12-02", "end": "2026-12-02", "person": DOT}])
        assert name(on_call_at(holiday, at(BERLIN, 2026, 12, 1, 23, 59))) == "Ann"
        found = on_call_at(holiday, at(BERLIN, 2026, 12, 2, 0, 0))
        assert name(found) == "Dot" and found.source == "override" and found.index == 0
        assert name(on_call_at(holiday, at(BERLIN, 2026, 12, 2, 23, 59))) == "Dot"
        assert name(on_call_at(holiday, at(BERLIN, 2026, 12, 3, 0, 0))) == "Bob"  # Wednesday 20:00 passed

    def test_a_date_time_range_ends_at_its_end(self):
        swap = schedule(WEEK.rota, [{"start": "2026-12-01T12:00", "end": "2026-12-01T14:30", "person": DOT}])
        assert name(on_call_at(swap, at(BERLIN, 2026, 12, 1, 11, 59))) == "Ann"
        assert name(on_call_at(swap, at(BERLIN, 2026, 12, 1, 12, 0))) == "Dot"
        assert name(on_call_at(swap, at(BERLIN, 2026, 12, 1, 14, 30))) == "Ann"

    def test_the_override_starting_last_wins_and_an_override_works_without_a_rota(self):
        both = schedule(
            overrides=[
                {"start": "2026-12-01", "end": "2026-12-05", "person": CY},
                {"start": "2026-12-03T08:00", "end": "2026-12-03T10:00", "person": DOT},
            ]
        )
        assert name(on_call_at(both, at(BERLIN, 2026, 12, 3, 9, 0))) == "Dot"
        assert name(on_call_at(both, at(BERLIN, 2026, 12, 3, 10, 0))) == "Cy"
        assert on_call_at(both, at(BERLIN, 2026, 12, 6, 0, 0)) is None

    @pytest.mark.parametrize("zone", ["Asia/Shanghai", "America/New_York"])
    def test_override_bounds_are_local_to_the_schedule(self, zone):
        local = ZoneInfo(zone)
        day = schedule([entry(1, "00:00", ANN)], [{"start": "2026-12-02", "end": "2026-12-02", "person": DOT}], zone)
        assert name(on_call_at(day, at(local, 2026, 12, 2, 0, 0))) == "Dot"
        assert name(on_call_at(day, at(local, 2026, 12, 1, 23, 59))) == "Ann"
