"""The budget computation (api/budget/compute.py) against worked examples computed by hand: several
bands, values exactly at band edges, gaps, the window's ends, MKT, the alert threshold."""

from __future__ import annotations

import math

import pytest

from api.budget.compute import Band, BudgetPass, Profile, worst

MIN = 60_000  # ms
# Labelled 2-8 °C; above it "up to 25 °C: 72 h" and "up to 40 °C: 6 h"; "below 0 °C: none allowed".
PROFILE = Profile(2.0, 8.0, (Band(8.0, 25.0, 72), Band(25.0, 40.0, 6), Band(None, 0.0, 0)), mkt_limit=None)


def run(readings, start_min, end_min, profile=PROFILE, interval_s=300):
    budget = BudgetPass(profile, start_min * MIN, end_min * MIN, interval_s)
    for minute, value in readings:
        budget.add(int(minute * MIN), value)
    return budget.result()


def used(result) -> list[int]:
    return [band["usedSeconds"] for band in result["bands"]]


def test_each_reading_holds_until_the_next_and_edges_fall_as_documented():
    # 0-10 5 °C (in range), 10-20 25 °C (the edge: "up to 25" holds it), 20-30 30 °C (second band),
    # 30-40 8 °C (the range's own edge: in range), 40-50 0 °C ("below 0" does not hold 0: no band),
    # 50-60 -0.5 °C (below 0, none allowed; the window's end is the next reading).
    result = run([(0, 5.0), (10, 25.0), (20, 30.0), (30, 8.0), (40, 0.0), (50, -0.5)], 0, 60)
    assert used(result) == [600, 600, 600]
    assert result["inRangeSeconds"] == 1200 and result["unbandedSeconds"] == 600 and result["unknownSeconds"] == 0
    first, second, below = result["bands"]
    assert first["allowedSeconds"] == 72 * 3600 and first["remainingSeconds"] == 72 * 3600 - 600
    assert not first["alert"] and not first["exhausted"]
    assert second["usedPercent"] == pytest.approx(round(600 / 21600 * 100, 1))
    assert below["exhausted"] and below["alert"] and below["remainingSeconds"] == 0 and below["usedPercent"] == 100
    assert result["exhausted"] and result["alert"] and result["readings"] == 6


def test_just_above_an_edge_is_the_next_band():
    result = run([(0, 25.0001), (10, 8.0001), (20, 40.0)], 0, 30)
    assert used(result) == [600, 1200, 0]


def test_a_gap_holds_one_interval_and_the_rest_is_unknown_and_listed():
    # Interval 5 min, so a gap is a step beyond 15 min. 10 °C at 0 and at 60 min, window -2 .. 70 min:
    # -2..0 unknown (before the first reading), 0..5 held, 5..60 unknown, 60..70 held.
    result = run([(0, 10.0), (60, 10.0)], -2, 70)
    assert used(result) == [900, 0, 0]
    assert result["unknownSeconds"] == 120 + 55 * 60
    assert result["gaps"] == [{"start": -2 * MIN, "end": 0}, {"start": 5 * MIN, "end": 60 * MIN}]
    # a step of exactly three intervals is not a gap
    assert run([(0, 10.0), (15, 5.0)], 0, 15)["unknownSeconds"] == 0
    assert used(run([(0, 10.0), (15, 5.0)], 0, 15)) == [900, 0, 0]


def test_the_last_reading_holds_until_the_end_or_one_interval_when_the_end_is_far():
    assert used(run([(0, 30.0)], 0, 10)) == [0, 600, 0]
    far = run([(0, 30.0)], 0, 60)
    assert used(far) == [0, 300, 0] and far["unknownSeconds"] == 55 * 60
    empty = run([], 0, 60)
    assert empty["unknownSeconds"] == 3600 and empty["mkt"] is None and not empty["alert"]


def test_readings_outside_the_window_are_ignored():
    result = run([(-10, 30.0), (0, 5.0), (10, 30.0), (20, 5.0)], 0, 20)
    assert used(result) == [0, 600, 0] and result["readings"] == 3


def test_alert_threshold_and_exhaustion():
    profile = Profile(2.0, 8.0, (Band(8.0, None, 1),), alert_percent=80)
    at_47 = run([(0, 12.0), (47, 5.0)], 0, 50, profile, interval_s=60 * 60)
    at_48 = run([(0, 12.0), (48, 5.0)], 0, 50, profile, interval_s=60 * 60)
    assert at_47["bands"][0]["usedPercent"] == pytest.approx(78.3) and not at_47["alert"]
    assert at_48["bands"][0]["usedPercent"] == 80 and at_48["alert"] and not at_48["exhausted"]
    full = run([(0, 12.0), (60, 5.0)], 0, 70, profile, interval_s=60 * 60)
    assert full["exhausted"] and full["bands"][0]["remainingSeconds"] == 0


def test_mkt_against_its_limit():
    profile = Profile(2.0, 8.0, (Band(8.0, None, 100),), mkt_limit=20.0)
    values = [10.0, 30.0]
    by_hand = 10_000 / -math.log(sum(math.exp(-10_000 / (v + 273.15)) for v in values) / 2) - 273.15
    result = run([(0, 10.0), (10, 30.0)], 0, 20, profile)
    assert result["mkt"] == pytest.approx(round(by_hand, 2)) and result["mkt"] > 20
    assert result["mktExceeded"] and result["alert"] and result["exhausted"]


def test_the_worst_probe_per_band():
    a = run([(0, 12.0), (10, 5.0)], 0, 20)
    b = run([(0, 30.0), (5, 5.0)], 0, 20)
    combined = worst([a, b])
    assert used(combined) == [600, 300, 0] and combined["readings"] == 4
    assert worst([]) is None
