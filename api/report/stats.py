"""Statistics of a reading series, computed in one streaming pass (nothing is kept per reading).

Mean kinetic temperature (USP <1079.2>, ICH Q1A):

    MKT = (ΔH/R) / -ln( Σ exp(-ΔH / (R·Tᵢ)) / n )      Tᵢ in kelvin, ΔH/R = 10,000 K (ΔH = 83.144 kJ/mol)

Each reading is weighted equally (a logger records at a fixed interval). Time above or below a limit
is the time from an out-of-range reading to the next reading (the last reading counts one logging
interval; a gap longer than three intervals counts one interval, so an offline period is not
presented as an excursion of unknown length). An excursion is a run of consecutive out-of-range
readings on the same side that lasted the alarm delay (as the alarm area opens an alarm: last
out-of-range reading minus the first >= delay); its duration runs from its first out-of-range reading
to the first reading back in range, as the alarm's (breach start to close). Gaps (no reading for
more than `gap_s`) are listed with their duration.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

DELTA_H_OVER_R = 10_000.0  # kelvin
KELVIN = 273.15
GAP_INTERVALS = 3


def mean_kinetic_temperature(celsius: list[float] | tuple[float, ...]) -> float | None:
    """MKT in °C of a whole series (the streaming `SeriesStats` gives the same figure)."""
    if not celsius:
        return None
    total = sum(math.exp(-DELTA_H_OVER_R / (value + KELVIN)) for value in celsius)
    return mkt_from_sum(total, len(celsius))


def mkt_from_sum(exp_sum: float, count: int) -> float | None:
    if count == 0 or exp_sum <= 0:
        return None
    return DELTA_H_OVER_R / -math.log(exp_sum / count) - KELVIN


def celsius_to_fahrenheit(value: float) -> float:
    return value * 9 / 5 + 32


@dataclass
class SeriesStats:
    """Feed readings in time order with `add`; read the figures afterwards."""

    lower: float | None = None
    upper: float | None = None
    temperature: bool = True  # MKT only means something for a temperature in °C
    delay_s: float = 0.0  # the alarm delay: shorter runs outside the limits are not excursions
    gap_s: float | None = None  # no reading for longer than this is a gap
    count: int = 0
    minimum: float | None = None
    maximum: float | None = None
    total: float = 0.0
    exp_sum: float = 0.0
    first: tuple[int, float] | None = None  # (epoch ms, value)
    last: tuple[int, float] | None = None
    seconds_above: float = 0.0
    seconds_below: float = 0.0
    excursions: int = 0
    longest_excursion_s: float = 0.0
    excursion_list: list[tuple[int, int | None, int]] = field(default_factory=list)  # (start ms, end ms, side)
    gaps: list[tuple[int, int]] = field(default_factory=list)  # (last ms before, first ms after)
    # Limit changes inside the range, in time order: (epoch ms from which they apply, lower, upper,
    # delay s). Each reading is judged by the limits in force at its time.
    changes: list[tuple[int, float | None, float | None, float]] = field(default_factory=list)
    _next_change: int = 0
    periods: list[Any] = field(default_factory=list)  # the limit periods of the range, for printing
    _side: int = 0  # -1 below, 0 in range, +1 above (of the previous reading)
    _run: tuple[int, int] | None = None  # (first ms, last ms) of the current out-of-range run
    _intervals: Counter = field(default_factory=Counter)
    _mode: int | None = None  # the most frequent step so far, kept as steps are counted

    def add(self, ms: int, value: float) -> None:
        """One reading (epoch milliseconds, value in the basic unit), in time order."""
        last = self.last
        if last is not None:
            step = (ms - last[0]) / 1000
            if step > 0:
                key = round(step)
                self._intervals[key] += 1
                if key != self._mode:
                    self._update_mode(key)
            if self.gap_s is not None and step > self.gap_s:
                self.gaps.append((last[0], ms))
            if self._side:  # a reading in range charges nothing
                self._charge(step)
        while self._next_change < len(self.changes) and ms >= self.changes[self._next_change][0]:
            _at, self.lower, self.upper, self.delay_s = self.changes[self._next_change]
            self._next_change += 1
        side = 0
        if self.upper is not None and value > self.upper:
            side = 1
        elif self.lower is not None and value < self.lower:
            side = -1
        if side != self._side:
            self._end_run(ms)
            if side:
                self._run = (ms, ms)
        elif side and self._run is not None:
            self._run = (self._run[0], ms)
        self._side = side
        self.count += 1
        self.total += value
        # As min() and max(): the figure changes only for a strictly lower / higher value.
        if self.minimum is None or value < self.minimum:
            self.minimum = value
        if self.maximum is None or value > self.maximum:
            self.maximum = value
        if self.temperature:
            self.exp_sum += math.exp(-DELTA_H_OVER_R / (value + KELVIN))
        if self.first is None:
            self.first = (ms, value)
        self.last = (ms, value)

    def _end_run(self, end_ms: int | None) -> None:
        """The out-of-range run ends (at the first reading back in range, or open at the end)."""
        if self._run is None:
            return
        first, last = self._run
        self._run = None
        if (last - first) / 1000 < self.delay_s:
            return  # recovered within the alarm delay: no alarm, no excursion
        self.excursions += 1
        self.excursion_list.append((first, end_ms, self._side))
        self.longest_excursion_s = max(self.longest_excursion_s, ((end_ms or last) - first) / 1000)

    def _charge(self, step: float) -> None:
        interval = self.interval_s
        if interval and step > GAP_INTERVALS * interval:
            step = interval
        if self._side > 0:
            self.seconds_above += step
        elif self._side < 0:
            self.seconds_below += step

    def finish(self) -> SeriesStats:
        """Charge the last reading with one logging interval (call once, after the last `add`)."""
        if self.last is not None and self.interval_s:
            self._charge(self.interval_s)
        self._end_run(None)
        return self

    def _update_mode(self, step: int) -> None:
        """A step other than the most frequent one was just counted: is it the most frequent now?
        Decided as Counter.most_common(1) would (on a tie, the first seen), so interval_s costs
        nothing: asking the Counter at every reading was a third of an export's CPU."""
        mode = self._mode
        if mode is None or self._ranks_before(step, mode):
            self._mode = step

    def _ranks_before(self, step: int, other: int) -> bool:
        """More often, or as often and seen first (the order a Counter keeps)."""
        counts = self._intervals
        if counts[step] != counts[other]:
            return counts[step] > counts[other]
        return next(k for k in counts if k in (step, other)) == step

    @property
    def interval_s(self) -> int | None:
        """The logging interval: the most frequent step between readings."""
        return self._mode

    @property
    def mean(self) -> float | None:
        return self.total / self.count if self.count else None

    @property
    def mkt(self) -> float | None:
        return mkt_from_sum(self.exp_sum, self.count) if self.temperature else None
