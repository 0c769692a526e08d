"""Data completeness: how many readings a report's sensor should hold over its range, and how many
it holds. The one computation every format prints (the PDF's statistics, the CSV's and the XLSX's
summary), so the three never disagree (issue 47: the PDF said 36 of 42 where CSV and XLSX said 41).

- Only a measurement channel (a probe: param type "sensor") has a completeness. A controller's state
  channels (compressor, fan, defrosting, door open, setpoint, light: uploaded with each record and
  again on every change) and its energy meter are not readings the report counts: None for them.
- Received: the sensor's own readings in the range, start inclusive, end exclusive ([start, end):
  what the streaming query returns and the statistics are fed), nothing else.
- Expected: the whole recording intervals in [start, end), end capped at the moment the file was
  requested (a range reaching into the future expects nothing past it). A range of exactly N intervals
  expects N readings (at start, start + 1 interval, ... start + (N - 1) intervals; a reading at the end
  instant belongs to the next range); a partial interval at the end expects none. The recording
  interval is the most frequent step between the sensor's readings, else the device's configured one.
  The cap is the file's request time, never the clock at writing: every format of one request, and
  the same file generated again, print the same figures.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from api.report.kinds import Sensor, Subject
from api.report.stats import SeriesStats


@dataclass(frozen=True)
class Completeness:
    received: int
    expected: int

    @property
    def percent(self) -> float | None:
        """Received of expected, at most 100 (None when nothing was expected)."""
        return min(100.0, self.received * 100 / self.expected) if self.expected else None


def recording_interval_s(subject: Subject, stat: SeriesStats) -> int:
    return max(stat.interval_s or subject.device.interval_s or 1, 1)


def expected_count(start: datetime, end: datetime, as_of: datetime, interval_s: int) -> int:
    """Whole intervals in [start, min(end, as_of))."""
    until = min(end, as_of)
    return max(0, int((until - start).total_seconds() // interval_s))


def completeness(subject: Subject, sensor: Sensor, stat: SeriesStats, as_of: datetime) -> Completeness | None:
    """The expected and received readings of one sensor of a report (None: not a measurement channel).
    `stat` is the sensor's finished statistics over the subject's range; `as_of` the file's request time."""
    if not sensor.measurement:
        return None
    expected = expected_count(subject.start, subject.end, as_of, recording_interval_s(subject, stat))
    return Completeness(received=stat.count, expected=expected)
