"""Data that knows its calibration (issue 48): each probe's certificates and the time its calibration
was overdue, for charts, exports and reports.

The calibration area answers (`probe_calibrations` in its manifest; telemetry and report never import
it): `finder(device_id, sensors) -> {sensor: [ProbeCertificate, ...]}`. A reading was taken while its
probe's calibration was overdue when it lies after the due date of the probe's latest certificate and
before the next certificate's calibration date (or open-ended while there is none). A probe that never
had a certificate is "no certificate", never overdue: nothing says when it should have been calibrated.

Marks are computed from intervals, never by a lookup per reading: `OverdueMarks` walks the sorted
interval edges alongside the readings (which come in time order), one comparison per reading.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from itertools import pairwise


@dataclass(frozen=True)
class CalibrationPoint:
    reference: float
    measured: float
    deviation: float  # measured - reference


@dataclass(frozen=True)
class ProbeCertificate:
    """One certificate of one probe (sensor number) of a device."""

    number: str
    issuer: str  # the lab's name, or the outside lab's
    calibrated_at: datetime  # UTC
    due_at: datetime  # UTC
    passed: bool
    points: tuple[CalibrationPoint, ...] = ()
    own_lab: bool = True  # issued by the platform's lab (else uploaded by the customer)
    key: str = ""  # the record's identity for reminders: "lab-<id>" or "probe-<id>"


# sensors of one device -> {sensor: certificates}; what the manifests declare (`probe_calibrations`),
# installed by api/assembly.py.
CalibrationFinder = Callable[[int, list[int]], dict[int, list[ProbeCertificate]]]
CALIBRATION_FINDERS: list[CalibrationFinder] = []


def probe_certificates(device_id: int, sensors: Iterable[int]) -> dict[int, list[ProbeCertificate]]:
    """Every certificate of each probe, oldest calibration first (one query per finder for all probes)."""
    sensors = sorted(set(sensors))
    found: dict[int, list[ProbeCertificate]] = {s: [] for s in sensors}
    for finder in CALIBRATION_FINDERS:
        if sensors:
            for sensor, certificates in finder(device_id, sensors).items():
                found.setdefault(sensor, []).extend(certificates)
    for certificates in found.values():
        certificates.sort(key=lambda c: (c.calibrated_at, c.due_at, c.number))
    return found


def overdue_intervals(certificates: list[ProbeCertificate]) -> list[tuple[datetime, datetime | None]]:
    """[start, end) spans during which the probe's calibration was overdue: from a certificate's due
    date to the next certificate's calibration date (None: still overdue). `certificates` sorted by
    calibration date; a later certificate calibrated before an earlier one's due date closes no gap."""
    spans: list[tuple[datetime, datetime | None]] = []
    for i, cert in enumerate(certificates):
        following = [c.calibrated_at for c in certificates[i + 1 :]]
        # A certificate is the probe's latest until the next calibration; it lapses at its due date.
        end = min(following) if following else None
        if end is not None and end <= cert.due_at:
            continue
        spans.append((cert.due_at, end))
    return spans


def overdue_since(certificates: list[ProbeCertificate], at: datetime) -> datetime | None:
    """When the probe's calibration became overdue if it is overdue at `at`, else None."""
    for start, end in overdue_intervals(certificates):
        if start <= at and (end is None or at < end):
            return start
    return None


def _ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def overdue_ms(
    device_id: int, sensors: Iterable[int], start: datetime, end: datetime
) -> dict[int, list[tuple[int, int]]]:
    """Per sensor, its overdue spans clipped to [start, end), in epoch milliseconds."""
    start_ms, end_ms = _ms(start), _ms(end)
    out: dict[int, list[tuple[int, int]]] = {}
    for sensor, certificates in probe_certificates(device_id, sensors).items():
        spans = []
        for s, e in overdue_intervals(certificates):
            lo, hi = max(_ms(s), start_ms), min(_ms(e) if e else end_ms, end_ms)
            if lo < hi:
                spans.append((lo, hi))
        out[sensor] = spans
    return out


def merged(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """The union of [start, end) spans, sorted and non-overlapping."""
    out: list[tuple[int, int]] = []
    for lo, hi in sorted(spans):
        if out and lo <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out


@dataclass
class OverdueMarks:
    """Is a time (epoch ms, asked in ascending order) inside one of the spans? The edges are walked
    once: `edge` is the next time the answer changes, so the hot loops of the exports compare
    `ms >= marks.edge` and call `advance(ms)` only at an edge (a few times per file)."""

    spans: list[tuple[int, int]]
    edges: list[int] = field(init=False)
    index: int = field(init=False, default=0)
    inside: bool = field(init=False, default=False)
    edge: float = field(init=False)

    def __post_init__(self) -> None:
        self.edges = [t for span in merged(self.spans) for t in span]
        self.edge = self.edges[0] if self.edges else math.inf

    def advance(self, ms: int) -> bool:
        while self.index < len(self.edges) and ms >= self.edges[self.index]:
            self.index += 1
        self.inside = self.index % 2 == 1
        self.edge = self.edges[self.index] if self.index < len(self.edges) else math.inf
        return self.inside

    def __call__(self, ms: int) -> bool:
        return self.advance(ms) if ms >= self.edge else self.inside

    def __bool__(self) -> bool:  # any span at all
        return bool(self.edges)


def overdue_marks(device_id: int, sensors: Iterable[int], start: datetime, end: datetime) -> OverdueMarks:
    """One walker over the union of the sensors' overdue spans (a row is marked when one of its probes was)."""
    spans = overdue_ms(device_id, sensors, start, end)
    return OverdueMarks([span for per in spans.values() for span in per])


def correction(points: tuple[CalibrationPoint, ...]) -> Callable[[float], float] | None:
    """The certificate's correction of a measured value: minus the deviation, linearly interpolated
    between the points by measured value (held constant beyond the first and last point)."""
    pts = sorted(points, key=lambda p: p.measured)
    if not pts:
        return None

    def correct(value: float) -> float:
        if value <= pts[0].measured:
            return value - pts[0].deviation
        for low, high in pairwise(pts):
            if value <= high.measured:
                span = high.measured - low.measured
                share = 0.0 if span == 0 else (value - low.measured) / span
                return value - (low.deviation + share * (high.deviation - low.deviation))
        return value - pts[-1].deviation

    return correct


# ---- the optional correction (a device's `calibration_correction`) ----------------------------------


def correction_intervals(certificates: list[ProbeCertificate]) -> list[tuple[datetime, datetime, ProbeCertificate]]:
    """[start, end) spans in which a certificate's correction applies: a passed certificate with points,
    from its calibration date to its due date or the next certificate's calibration date, whichever
    comes first (`certificates` sorted by calibration date). No correction before a probe's first
    certificate, while it is overdue, or under a failed certificate."""
    spans = []
    for i, cert in enumerate(certificates):
        end = cert.due_at
        if i + 1 < len(certificates):
            end = min(end, certificates[i + 1].calibrated_at)
        if cert.passed and cert.points and cert.calibrated_at < end:
            spans.append((cert.calibrated_at, end, cert))
    return spans


@dataclass
class Corrections:
    """The correction in force at a time (epoch ms, asked in ascending order) for one probe: walked like
    `OverdueMarks`, so a file costs one comparison per reading and a function call per corrected value;
    `spans` are [start, end) with their certificate, sorted and disjoint."""

    spans: list[tuple[int, int, ProbeCertificate]]
    functions: list[Callable[[float], float]] = field(init=False)
    index: int = field(init=False, default=0)
    current: Callable[[float], float] | None = field(init=False, default=None)
    certificate: ProbeCertificate | None = field(init=False, default=None)
    edge: float = field(init=False)

    def __post_init__(self) -> None:
        self.functions = [correction(cert.points) for _lo, _hi, cert in self.spans]
        self.edge = self.spans[0][0] if self.spans else math.inf

    def advance(self, ms: int) -> Callable[[float], float] | None:
        while self.index < len(self.spans) and ms >= self.spans[self.index][1]:
            self.index += 1
        self.current = self.certificate = None
        if self.index == len(self.spans):
            self.edge = math.inf
        elif ms >= self.spans[self.index][0]:
            self.current, self.certificate = self.functions[self.index], self.spans[self.index][2]
            self.edge = self.spans[self.index][1]
        else:
            self.edge = self.spans[self.index][0]
        return self.current

    def __call__(self, ms: int) -> Callable[[float], float] | None:
        return self.advance(ms) if ms >= self.edge else self.current


def corrections(device_id: int, sensors: Iterable[int], start: datetime, end: datetime) -> dict[int, Corrections]:
    """Per sensor, the walker over its certificates' correction spans clipped to [start, end) (one
    finder call for all sensors; a sensor without any span is left out)."""
    start_ms, end_ms = _ms(start), _ms(end)
    out: dict[int, Corrections] = {}
    for sensor, certificates in probe_certificates(device_id, sensors).items():
        spans = []
        for lo, hi, cert in correction_intervals(certificates):
            lo_ms, hi_ms = max(_ms(lo), start_ms), min(_ms(hi), end_ms)
            if lo_ms < hi_ms:
                spans.append((lo_ms, hi_ms, cert))
        if spans:
            out[sensor] = Corrections(spans)
    return out
