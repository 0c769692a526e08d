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
    _side: int = 0  # -1 below, 0 in range, +1 above (of the previous reading)
    _run: tuple[int, int] | None = None  # (first ms, last ms) of the current out-of-range run
    _intervals: Counter = field(default_factory=Counter)

    def add(self, ms: int, value: float) -> None:
        """One reading (epoch milliseconds, value in the basic unit), in time order."""
        if self.last is not None:
            step = (ms - self.last[0]) / 1000
            if step > 0:
                self._intervals[round(step)] += 1
            if self.gap_s is not None and step > self.gap_s:
                self.gaps.append((self.last[0], ms))
            self._charge(step)
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
        self.minimum = value if self.minimum is None else min(self.minimum, value)
        self.maximum = value if self.maximum is None else max(self.maximum, value)
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

    @property
    def interval_s(self) -> int | None:
        """The logging interval: the most frequent step between readings."""
        if not self._intervals:
            return None
        return self._intervals.most_common(1)[0][0]

    @property
    def mean(self) -> float | None:
        return self.total / self.count if self.count else None

    @property
    def mkt(self) -> float | None:
        return mkt_from_sum(self.exp_sum, self.count) if self.temperature else None
