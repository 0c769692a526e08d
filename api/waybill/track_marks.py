"""What a track shows besides its line: the stops (where the truck stood still) and, per point, whether
the temperature was outside the waybill's limits there. Computed here once, so the map, a template's
choices and any later report read the same facts."""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from datetime import datetime

from api.waybill.geo import distance

STOP_RADIUS_M = 150.0  # positions within this of where the truck stopped count as standing still
MIN_STOP_MINUTES = 5  # shorter halts (traffic lights, queues) are not stops


@dataclass(frozen=True)
class Position:
    ts: datetime
    lat: float
    lng: float


def stops(positions: list[Position], min_minutes: int = MIN_STOP_MINUTES) -> list[dict]:
    """Stretches of at least `min_minutes` during which every position stayed within STOP_RADIUS_M of
    the first one: [{lat, lng, startedAt, endedAt, minutes}], in time order."""
    found: list[dict] = []
    index = 0
    while index < len(positions):
        anchor = positions[index]
        last = index
        while last + 1 < len(positions) and distance(anchor, positions[last + 1]) <= STOP_RADIUS_M:
            last += 1
        minutes = (positions[last].ts - anchor.ts).total_seconds() / 60
        if minutes >= min_minutes:
            stretch = positions[index : last + 1]
            found.append(
                {
                    "lat": sum(p.lat for p in stretch) / len(stretch),
                    "lng": sum(p.lng for p in stretch) / len(stretch),
                    "startedAt": anchor.ts,
                    "endedAt": positions[last].ts,
                    "minutes": int(minutes),
                }
            )
        index = last + 1
    return found


def breaches(times_ms: list[int], temperatures: list[list], lower: float, upper: float) -> list[str | None]:
    """Per point time (ms): 'upper' or 'lower' when the temperature last measured at or before it was
    outside the limits, else None (no reading yet, or within them)."""
    stamps = [point[0] for point in temperatures]
    result: list[str | None] = []
    for at in times_ms:
        found = bisect.bisect_right(stamps, at) - 1
        value = temperatures[found][1] if found >= 0 else None
        if value is None:
            result.append(None)
        elif value > upper:
            result.append("upper")
        elif value < lower:
            result.append("lower")
        else:
            result.append(None)
    return result
