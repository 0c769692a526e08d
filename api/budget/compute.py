"""The budget used, in one streaming pass over a probe's readings (nothing is kept per reading).

Bands. A profile has a labelled storage range [range_low, range_high] (both ends inside: no budget is
spent there) and bands outside it. A band above the range (low >= range_high) holds the values
low < v <= high ("up to 25 °C" holds 25 °C itself; no high: no upper end); a band below it
(high <= range_low) holds low <= v < high ("below 0 °C" does not hold 0 °C; no low: no lower end).
A value outside the range that no band holds is counted as `unbanded` (shown, spends nothing).

Time. Each reading's value holds from its time until the next reading, as the reports count time
above / below a limit (api/report/stats.py): when the next reading comes more than three logging
intervals later (a gap, `GAP_INTERVALS`), the value holds one interval and the rest of the gap is
`unknown` and listed. The window's end acts as the next reading (for a live window: now). The time
from the window's start to its first reading is unknown too. Readings are fed in time order (the
database sorts them: a back-filled reading takes its place by its own time, whenever it arrived).

MKT: every reading of the window weighted equally, ΔH/R = 10,000 K (the reports' figure).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from api.report.stats import DELTA_H_OVER_R, GAP_INTERVALS, KELVIN, mkt_from_sum

HOUR_S = 3600


@dataclass(frozen=True)
class Band:
    low: float | None
    high: float | None
    hours: float

    def above(self, range_high: float) -> bool:
        return self.low is not None and self.low >= range_high

    def holds(self, value: float, range_high: float) -> bool:
        if self.above(range_high):
            return value > self.low and (self.high is None or value <= self.high)
        return (self.low is None or value >= self.low) and self.high is not None and value < self.high


@dataclass(frozen=True)
class Profile:
    range_low: float
    range_high: float
    bands: tuple[Band, ...]
    mkt_limit: float | None = None
    alert_percent: int = 80

    @classmethod
    def of(cls, row: Any) -> Profile:
        bands = tuple(Band(b.get("low"), b.get("high"), float(b["hours"])) for b in row.bands)
        return cls(row.range_low, row.range_high, bands, row.mkt_limit, row.alert_percent)

    def band_of(self, value: float) -> int | None:
        """The band holding the value: its index, -1 inside the labelled range, None in no band."""
        if self.range_low <= value <= self.range_high:
            return -1
        for index, band in enumerate(self.bands):
            if band.holds(value, self.range_high):
                return index
        return None


@dataclass
class BudgetPass:
    """Feed (epoch ms, value) in time order with `add`, then `result()`."""

    profile: Profile
    start_ms: int
    end_ms: int
    interval_s: int | None = None
    used_s: list[float] = field(default_factory=list)
    in_range_s: float = 0.0
    unbanded_s: float = 0.0
    unknown_s: float = 0.0
    gaps: list[tuple[int, int]] = field(default_factory=list)
    count: int = 0
    exp_sum: float = 0.0
    last: tuple[int, float] | None = None

    def __post_init__(self) -> None:
        self.used_s = [0.0] * len(self.profile.bands)

    def add(self, ms: int, value: float) -> None:
        if ms < self.start_ms or ms > self.end_ms:
            return
        if self.last is None:
            if ms > self.start_ms:
                self._unknown(self.start_ms, ms)
        else:
            self._hold(self.last, ms)
        self.last = (ms, value)
        self.count += 1
        self.exp_sum += math.exp(-DELTA_H_OVER_R / (value + KELVIN))

    def _unknown(self, from_ms: int, to_ms: int) -> None:
        self.unknown_s += (to_ms - from_ms) / 1000
        self.gaps.append((from_ms, to_ms))

    def _hold(self, previous: tuple[int, float], until_ms: int) -> None:
        ms, value = previous
        step = (until_ms - ms) / 1000
        interval = self.interval_s
        if interval and step > GAP_INTERVALS * interval:
            self._unknown(ms + interval * 1000, until_ms)
            step = interval
        band = self.profile.band_of(value)
        if band is None:
            self.unbanded_s += step
        elif band < 0:
            self.in_range_s += step
        else:
            self.used_s[band] += step

    def result(self) -> dict:
        if self.last is None:
            if self.end_ms > self.start_ms:
                self._unknown(self.start_ms, self.end_ms)
        else:
            self._hold(self.last, self.end_ms)
            self.last = None  # result() is final: a second call adds nothing
            self.end_ms = self.start_ms
        return summary(self.profile, self.used_s, self)


def band_figures(band: Band, used_s: float, alert_percent: int) -> dict:
    allowed = band.hours * HOUR_S
    # A band that allows no time is all used by any time in it.
    percent = used_s / allowed * 100 if allowed > 0 else (100.0 if used_s > 0 else 0.0)
    return {
        "low": band.low,
        "high": band.high,
        "allowedSeconds": round(allowed),
        "usedSeconds": round(used_s),
        "remainingSeconds": round(max(0.0, allowed - used_s)),
        "usedPercent": round(percent, 1),
        "alert": used_s > 0 and percent >= alert_percent,
        "exhausted": used_s > 0 and used_s >= allowed,
    }


def summary(profile: Profile, used_s: list[float], totals: BudgetPass) -> dict:
    bands = [band_figures(band, used, profile.alert_percent) for band, used in zip(profile.bands, used_s, strict=True)]
    mkt = mkt_from_sum(totals.exp_sum, totals.count)
    mkt = None if mkt is None else round(mkt, 2)
    mkt_exceeded = profile.mkt_limit is not None and mkt is not None and mkt > profile.mkt_limit
    return {
        "bands": bands,
        "inRangeSeconds": round(totals.in_range_s),
        "unbandedSeconds": round(totals.unbanded_s),
        "unknownSeconds": round(totals.unknown_s),
        "gaps": [{"start": start, "end": end} for start, end in totals.gaps],
        "readings": totals.count,
        "mkt": mkt,
        "mktLimit": profile.mkt_limit,
        "mktExceeded": mkt_exceeded,
        "alert": mkt_exceeded or any(b["alert"] for b in bands),
        "exhausted": mkt_exceeded or any(b["exhausted"] for b in bands),
    }


def worst(results: list[dict]) -> dict | None:
    """Several probes (a storage's): each band the most used of any probe, the most unknown time, the
    highest MKT: a lot is judged by its worst place."""
    if not results:
        return None
    if len(results) == 1:
        return results[0]
    combined = dict(max(results, key=lambda r: (r["mkt"] is not None, r["mkt"] or 0)))
    combined["bands"] = [
        max(column, key=lambda b: b["usedSeconds"]) for column in zip(*(r["bands"] for r in results), strict=True)
    ]
    for key in ("unknownSeconds", "unbandedSeconds"):
        combined[key] = max(r[key] for r in results)
    combined["inRangeSeconds"] = min(r["inRangeSeconds"] for r in results)
    combined["readings"] = sum(r["readings"] for r in results)
    combined["gaps"] = [gap for r in results for gap in r["gaps"]]
    combined["alert"] = any(r["alert"] for r in results)
    combined["exhausted"] = any(r["exhausted"] for r in results)
    combined["mktExceeded"] = any(r["mktExceeded"] for r in results)
    return combined
