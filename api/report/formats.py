"""Writing files: CSV (UTF-8 with BOM, so Excel reads Chinese) and XLSX (openpyxl write-only), both
streamed from the database; the PDF report is in pdf.py. Each writer takes the subjects of a file,
the requester's presentation and a `Progress` it ticks as readings go by."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from zoneinfo import ZoneInfo

from flask_babel import gettext
from sqlalchemy import text

from api.extensions.db import db, utcnow
from api.report.kinds import Sensor, Subject
from api.report.present import LocalTime, Units, neutralise
from api.report.stats import SeriesStats
from api.telemetry.queries import count_readings, stream_chunks, stream_rows

HEARTBEAT_SECONDS = 2.0
TICK_READINGS = 20_000


class CancelledError(Exception):
    """The file's row was deleted (or is no longer generating) while the job ran."""


@dataclass
class Presentation:
    zone: ZoneInfo
    units: Units
    locale: str
    platform: object
    requester: object
    local_time: LocalTime = field(init=False)

    def __post_init__(self):
        self.local_time = LocalTime(self.zone)


class Progress:
    """Percent done and a heartbeat, written on a connection of their own (the export's transaction
    holds the streaming cursor open) at most every HEARTBEAT_SECONDS."""

    def __init__(self, file_id: int, total: int, clock: Callable[[], float]):
        self.file_id, self.total, self.done = file_id, max(total, 1), 0
        self.clock = clock
        self.last = clock()

    def tick(self, readings: int) -> None:
        self.done += readings
        now = self.clock()
        if now - self.last >= HEARTBEAT_SECONDS:
            self.last = now
            self.write(min(99, int(self.done * 100 / self.total)))

    def write(self, percent: int) -> None:
        with db.engine.begin() as connection:
            updated = connection.execute(
                text(
                    "UPDATE export_file SET progress = :p, heartbeat_at = :now WHERE id = :id AND status = 'generating'"
                ),
                {"p": percent, "now": utcnow(), "id": self.file_id},
            ).rowcount
        if updated == 0:
            raise CancelledError()


def estimate(subjects: list[Subject]) -> int:
    return sum(count_readings(s.device.id, [x.probe for x in s.sensors], s.start, s.end) for s in subjects)


def time_header(presentation: Presentation) -> str:
    return gettext("Time (%(zone)s)", zone=presentation.zone.key)


def sensor_header(sensor: Sensor, units: Units) -> str:
    label = units.label(sensor)
    return neutralise(f"{sensor.name} ({label})" if label else sensor.name)


def csv_field(text: str) -> str:
    """One CSV field (RFC 4180 quoting), for text written once per device or header."""
    if any(ch in text for ch in ',"\r\n'):
        return '"' + text.replace('"', '""') + '"'
    return text


def write_csv(path, subjects: list[Subject], presentation: Presentation, progress: Progress) -> None:
    """One row per device and time: device name, GUID, local time, one column per sensor number.
    The hot loop builds lines itself (the device's quoted name and GUID are one prefix), a chunk of
    the cursor at a time; the csv module would cost a call per row."""
    columns: dict[int, str] = {}
    for subject in subjects:
        for sensor in subject.sensors:
            columns.setdefault(sensor.probe, sensor_header(sensor, presentation.units))
    probes = list(columns)
    fmt = presentation.local_time
    header = [gettext("Device name"), "GUID", time_header(presentation), *columns.values()]
    with open(path, "w", encoding="utf-8-sig", newline="", buffering=1 << 20) as out:
        out.write(",".join(csv_field(h) for h in header) + "\r\n")
        for subject in subjects:
            prefix = f"{csv_field(neutralise(subject.device.name))},{csv_field(subject.device.guid)},"
            convert = {s.probe: presentation.units.converter(s) for s in subject.sensors}
            if len(probes) == 1:
                (probe,) = probes
                conv = convert[probe]
                for chunk in stream_chunks(subject.device.id, [probe], subject.start, subject.end):
                    out.write(
                        "".join(
                            [f"{prefix}{fmt(ms)},{'' if value is None else conv(value)}\r\n" for ms, _s, value in chunk]
                        )
                    )
                    progress.tick(len(chunk))
                continue
            lines, pending = [], 0
            for ms, values in stream_rows(subject.device.id, list(convert), subject.start, subject.end):
                cells = []
                for probe in probes:
                    value = values.get(probe)
                    cells.append("" if value is None or probe not in convert else convert[probe](value))
                lines.append(f"{prefix}{fmt(ms)},{','.join(cells)}\r\n")
                pending += len(values)
                if pending >= TICK_READINGS:
                    out.write("".join(lines))
                    lines.clear()
                    progress.tick(pending)
                    pending = 0
            out.write("".join(lines))
            progress.tick(pending)


def sheet_title(name: str, taken: set[str]) -> str:
    """Excel sheet names: at most 31 characters, none of []:*?/\\, unique."""
    cleaned = "".join("_" if ch in "[]:*?/\\" else ch for ch in name).strip("'") or "Sheet"
    title, n = cleaned[:31], 1
    while title in taken:
        n += 1
        title = f"{cleaned[:27]} ({n})"
    taken.add(title)
    return title


def write_xlsx(path, subjects: list[Subject], presentation: Presentation, progress: Progress) -> None:
    from openpyxl import Workbook

    units = presentation.units
    book = Workbook(write_only=True)
    summary = book.create_sheet(sheet_title(gettext("Summary"), taken := set()))
    summary.append(
        [
            gettext("Device name"),
            "GUID",
            gettext("Sensor"),
            gettext("Unit"),
            gettext("Readings"),
            gettext("Minimum"),
            gettext("Maximum"),
            gettext("Average"),
            gettext("Mean kinetic temperature"),
            gettext("First reading"),
            gettext("Last reading"),
        ]
    )
    all_stats: list[tuple[Subject, Sensor, SeriesStats]] = []
    for subject in subjects:
        sheet = book.create_sheet(sheet_title(subject.device.name or subject.device.guid, taken))
        sheet.append([time_header(presentation), *(sensor_header(s, units) for s in subject.sensors)])
        stats = {s.probe: SeriesStats(s.lower, s.upper, s.temperature) for s in subject.sensors}
        order = {s.probe: i for i, s in enumerate(subject.sensors)}
        sensors = {s.probe: s for s in subject.sensors}
        pending = 0
        for ms, values in stream_rows(subject.device.id, list(order), subject.start, subject.end):
            stamp = presentation.local_time.datetime(ms)
            row: list = [stamp] + [None] * len(order)
            for probe, value in values.items():
                if value is None:
                    continue
                sensor = sensors[probe]
                row[1 + order[probe]] = round(units.value(sensor, value), sensor.precision)
                stats[probe].add(ms, value)
            sheet.append(row)
            pending += len(values)
            if pending >= TICK_READINGS:
                progress.tick(pending)
                pending = 0
        progress.tick(pending)
        all_stats.extend((subject, s, stats[s.probe].finish()) for s in subject.sensors)
    for subject, sensor, stat in all_stats:
        summary.append(
            [
                neutralise(subject.device.name),
                subject.device.guid,
                neutralise(sensor.name),
                units.label(sensor),
                stat.count,
                _rounded(units.value(sensor, stat.minimum), sensor.precision),
                _rounded(units.value(sensor, stat.maximum), sensor.precision),
                _rounded(units.value(sensor, stat.mean), sensor.precision + 1),
                _rounded(units.value(sensor, stat.mkt), 2),
                presentation.local_time.datetime(stat.first[0]) if stat.first else None,
                presentation.local_time.datetime(stat.last[0]) if stat.last else None,
            ]
        )
    book.save(path)


def _rounded(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)
