"""Writing files: CSV (UTF-8 with BOM, so Excel reads Chinese) and XLSX (openpyxl write-only), both
streamed from the database; the PDF report is in pdf.py. Each writer takes the subjects of a file,
the requester's presentation and a `Progress` it ticks as readings go by."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from zoneinfo import ZoneInfo

from flask_babel import gettext
from sqlalchemy import text

from api.alarm.limit_history import LimitPeriod, schedule
from api.extensions.db import db, utcnow
from api.report.alarm_list import alarm_table
from api.report.calibration_marks import (
    CORRECTED_HEADER,
    CORRECTION_LEGEND,
    LEGEND,
    OVERDUE,
    OVERDUE_HEADER,
    calibration_rows,
    corrections_of,
    corrects,
    marks_of,
)
from api.report.completeness import completeness
from api.report.corrected_rows import write_corrected_csv
from api.report.kinds import Sensor, Subject
from api.report.present import LocalTime, Units, neutralise
from api.report.stats import SeriesStats
from api.telemetry.queries import backfill_after_s, count_readings, gap_after_s, stream_chunks, stream_rows

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
    generated_at: datetime | None = None
    local_time: LocalTime = field(init=False)
    # The moment the file's figures are as of (its request time): data completeness expects nothing later.
    as_of: datetime = field(init=False)

    def __post_init__(self):
        self.local_time = LocalTime(self.zone)
        self.as_of = self.generated_at or utcnow()

    def moment(self, when: datetime) -> str:
        """A UTC time in the file's zone with its offset."""
        return self.local_time.with_offset(int(when.timestamp() * 1000))


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


def series_stats(subject: Subject, sensor: Sensor) -> SeriesStats:
    """Statistics of one sensor with the alarm area's limits and delay: the same figures everywhere.
    Each reading is judged by the limits in force at its time (api/alarm/limit_history); a sensor
    without a history has its current limits throughout."""
    periods = None if sensor.fixed_limits else schedule(subject.device.id, sensor.probe, subject.start, subject.end)
    if not periods:
        periods = [LimitPeriod(subject.start, sensor.lower, sensor.upper, sensor.delay_minutes)]
    first, *rest = periods
    return SeriesStats(
        first.lower,
        first.upper,
        sensor.temperature,
        delay_s=first.delay_minutes * 60,
        gap_s=gap_after_s(subject.device.interval_s),
        changes=[(int(p.start.timestamp() * 1000), p.lower, p.upper, p.delay_minutes * 60) for p in rest],
        periods=periods,
    )


def limits_in_force(stat: SeriesStats, side: str) -> list[float | None]:
    """The lower or upper limits in force over the range, in time order (a repeated value once)."""
    values: list[float | None] = []
    for period in stat.periods:
        value = getattr(period, side)
        if not values or values[-1] != value:
            values.append(value)
    return values


def has_limit(stat: SeriesStats, side: str) -> bool:
    return any(value is not None for value in limits_in_force(stat, side))


def limit_text(sensor: Sensor, stat: SeriesStats, side: str, units: Units) -> str:
    """ "8.0", or "8.0 → 7.5" when the limit changed inside the range; "-" for no limit."""
    values = limits_in_force(stat, side)
    return " → ".join("-" if v is None else f"{units.value(sensor, v):.{sensor.precision}f}" for v in values) or "-"


def stream_options(subject: Subject) -> dict:
    return {"backfill_s": backfill_after_s(subject.device.interval_s)}


def hours_minutes(seconds: float) -> str:
    minutes = round(seconds / 60)
    return f"{minutes // 60}:{minutes % 60:02d}"


def summary_rows(subjects_stats: list[tuple[Subject, Sensor, SeriesStats]], presentation: Presentation) -> list[list]:
    """The per-sensor summary of CSV and XLSX: limits, excursions and their time, completeness (the
    received and expected readings as the PDF counts them: api/report/completeness; blank for a state
    channel)."""
    units = presentation.units
    header = [
        gettext("Device name"),
        "GUID",
        gettext("Sensor"),
        gettext("Unit"),
        gettext("Readings"),
        gettext("Expected readings"),
        gettext("Minimum"),
        gettext("Maximum"),
        gettext("Average"),
        gettext("Mean kinetic temperature"),
        gettext("Lower limit"),
        gettext("Upper limit"),
        gettext("Excursions"),
        gettext("Longest excursion (h:mm)"),
        gettext("Time above upper limit (h:mm)"),
        gettext("Time below lower limit (h:mm)"),
        gettext("Gaps"),
    ]
    rows = [header]
    for subject, sensor, stat in subjects_stats:
        counted = completeness(subject, sensor, stat, presentation.as_of)
        rows.append(
            [
                neutralise(subject.device.name),
                subject.device.guid,
                neutralise(sensor.name),
                units.label(sensor),
                counted.received if counted else None,
                counted.expected if counted else None,
                _rounded(units.value(sensor, stat.minimum), sensor.precision),
                _rounded(units.value(sensor, stat.maximum), sensor.precision),
                _rounded(units.value(sensor, stat.mean), sensor.precision + 1),
                _rounded(units.value(sensor, stat.mkt), 2),
                _limit_cell(sensor, stat, "lower", units),
                _limit_cell(sensor, stat, "upper", units),
                stat.excursions,
                hours_minutes(stat.longest_excursion_s),
                hours_minutes(stat.seconds_above) if has_limit(stat, "upper") else "",
                hours_minutes(stat.seconds_below) if has_limit(stat, "lower") else "",
                len(stat.gaps),
            ]
        )
    return rows


def sensor_header(sensor: Sensor, units: Units) -> str:
    label = units.label(sensor)
    return neutralise(f"{sensor.name} ({label})" if label else sensor.name)


def csv_field(text: str) -> str:
    """One CSV field (RFC 4180 quoting), for text written once per device or header."""
    if any(ch in text for ch in ',"\r\n'):
        return '"' + text.replace('"', '""') + '"'
    return text


def write_csv(path, subjects: list[Subject], presentation: Presentation, progress: Progress) -> None:
    """One row per device and time: device name, GUID, local time with its UTC offset (a DST hour is
    never ambiguous), one column per sensor number and a back-filled mark; after a blank line, the
    per-sensor summary (limits, excursions, completeness). The hot loop builds lines itself (the
    device's quoted name and GUID are one prefix), a chunk of the cursor at a time; the csv module
    would cost a call per row."""
    columns: dict[int, str] = {}
    for subject in subjects:
        for sensor in subject.sensors:
            columns.setdefault(sensor.probe, sensor_header(sensor, presentation.units))
    probes = list(columns)
    # A device of the file applies its calibration correction: a corrected column beside each raw one.
    corrected = any(corrects(s) for s in subjects)
    if corrected:
        columns = {p: f"{csv_field(h)},{csv_field(gettext(CORRECTED_HEADER, sensor=h))}" for p, h in columns.items()}
    fmt = presentation.local_time.with_offset
    late = csv_field(gettext("back-filled"))
    over = csv_field(gettext(OVERDUE))
    header = [
        gettext("Device name"),
        "GUID",
        time_header(presentation),
        gettext("Back-filled"),
        gettext(OVERDUE_HEADER),
    ]
    header = [csv_field(h) for h in header]
    header[3:3] = [h if corrected else csv_field(h) for h in columns.values()]
    all_stats: list[tuple[Subject, Sensor, SeriesStats]] = []
    with open(path, "w", encoding="utf-8-sig", newline="", buffering=1 << 20) as out:
        out.write(",".join(header) + "\r\n")
        for subject in subjects:
            prefix = f"{csv_field(neutralise(subject.device.name))},{csv_field(subject.device.guid)},"
            convert = {s.probe: presentation.units.converter(s) for s in subject.sensors}
            stats = {s.probe: series_stats(subject, s) for s in subject.sensors}
            options = stream_options(subject)
            # The overdue mark: the next edge of the spans and the state up to it, kept in locals.
            marks = marks_of(subject, list(convert))
            edge, overdue = marks.edge, marks.inside
            if corrected:
                write_corrected_csv(
                    out,
                    subject,
                    probes,
                    convert,
                    stats,
                    marks,
                    prefix=prefix,
                    fmt=fmt,
                    late=late,
                    over=over,
                    progress=progress,
                    options=options,
                    tick=TICK_READINGS,
                )
            elif len(probes) == 1:
                (probe,) = probes
                conv, add = convert[probe], stats[probe].add
                for chunk in stream_chunks(subject.device.id, [probe], subject.start, subject.end, **options):
                    lines = []
                    for ms, _s, value, backfilled in chunk:
                        if value is not None:
                            add(ms, value)
                        text = "" if value is None else conv(value)
                        if ms >= edge:
                            overdue, edge = marks.advance(ms), marks.edge
                        lines.append(
                            f"{prefix}{fmt(ms)},{text},{late if backfilled else ''},{over if overdue else ''}\r\n"
                        )
                    out.write("".join(lines))
                    progress.tick(len(chunk))
            else:
                lines, pending = [], 0
                for ms, values, backfilled in stream_rows(
                    subject.device.id, list(convert), subject.start, subject.end, **options
                ):
                    cells = []
                    for probe in probes:
                        value = values.get(probe)
                        cells.append("" if value is None or probe not in convert else convert[probe](value))
                        if value is not None and probe in stats:
                            stats[probe].add(ms, value)
                    if ms >= edge:
                        overdue, edge = marks.advance(ms), marks.edge
                    marks_text = f"{late if backfilled else ''},{over if overdue else ''}"
                    lines.append(f"{prefix}{fmt(ms)},{','.join(cells)},{marks_text}\r\n")
                    pending += len(values)
                    if pending >= TICK_READINGS:
                        out.write("".join(lines))
                        lines.clear()
                        progress.tick(pending)
                        pending = 0
                out.write("".join(lines))
                progress.tick(pending)
            all_stats.extend((subject, s, stats[s.probe].finish()) for s in subject.sensors)
        out.write("\r\n")
        for row in summary_rows(all_stats, presentation):
            out.write(",".join(csv_field("" if cell is None else str(cell)) for cell in row) + "\r\n")
        # Each probe's certificate and due date, and what the overdue mark means.
        out.write("\r\n" + csv_field(gettext("Calibration")) + "\r\n")
        for row in calibration_rows(subjects, presentation.moment, presentation.as_of):
            out.write(",".join(csv_field(str(cell)) for cell in row) + "\r\n")
        out.write(csv_field(gettext(LEGEND)) + "\r\n")
        if corrected:
            out.write(csv_field(gettext(CORRECTION_LEGEND)) + "\r\n")
        # The alarm list, as the PDF has it.
        out.write("\r\n" + csv_field(gettext("Alarms")) + "\r\n")
        for row in alarm_table(subjects, presentation.local_time.with_offset, presentation.units):
            out.write(",".join(csv_field(str(cell)) for cell in row) + "\r\n")


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
    """A summary sheet (limits, excursions, completeness per sensor), then one sheet per device: local
    time, its UTC offset, the values and a back-filled mark per row."""
    from openpyxl import Workbook

    units = presentation.units
    book = Workbook(write_only=True)
    summary = book.create_sheet(sheet_title(gettext("Summary"), taken := set()))
    all_stats: list[tuple[Subject, Sensor, SeriesStats]] = []
    late, over = gettext("back-filled"), gettext(OVERDUE)
    local = presentation.local_time
    for subject in subjects:
        sheet = book.create_sheet(sheet_title(subject.device.name or subject.device.guid, taken))
        # The device applies its calibration correction: a corrected column beside each raw one.
        corrected = corrects(subject)
        fixes, stride = corrections_of(subject), 2 if corrected else 1
        headers = [sensor_header(s, units) for s in subject.sensors]
        if corrected:
            headers = [h for raw in headers for h in (raw, gettext(CORRECTED_HEADER, sensor=raw))]
        sheet.append(
            [
                time_header(presentation),
                gettext("UTC offset"),
                *headers,
                gettext("Back-filled"),
                gettext(OVERDUE_HEADER),
            ]
        )
        stats = {s.probe: series_stats(subject, s) for s in subject.sensors}
        marks = marks_of(subject)
        order = {s.probe: i for i, s in enumerate(subject.sensors)}
        sensors = {s.probe: s for s in subject.sensors}
        width = len(order)
        pending = 0
        for ms, values, backfilled in stream_rows(
            subject.device.id, list(order), subject.start, subject.end, **stream_options(subject)
        ):
            overdue = marks.advance(ms) if ms >= marks.edge else marks.inside
            row: list = [local.datetime(ms), local.offset_text(ms), *([None] * (width * stride))]
            row += [late if backfilled else None, over if overdue else None]
            for probe, value in values.items():
                if value is None:
                    continue
                sensor = sensors[probe]
                row[2 + stride * order[probe]] = round(units.value(sensor, value), sensor.precision)
                stats[probe].add(ms, value)
                if corrected and probe in fixes and (fix := fixes[probe](ms)) is not None:
                    row[3 + 2 * order[probe]] = round(units.value(sensor, fix(value)), sensor.precision)
            sheet.append(row)
            pending += len(values)
            if pending >= TICK_READINGS:
                progress.tick(pending)
                pending = 0
        progress.tick(pending)
        all_stats.extend((subject, s, stats[s.probe].finish()) for s in subject.sensors)
    for row in summary_rows(all_stats, presentation):
        summary.append(row)
    calibration = book.create_sheet(sheet_title(gettext("Calibration"), taken))
    for row in calibration_rows(subjects, presentation.moment, presentation.as_of):
        calibration.append(row)
    calibration.append([gettext(LEGEND)])
    if any(corrects(s) for s in subjects):
        calibration.append([gettext(CORRECTION_LEGEND)])
    alarms = book.create_sheet(sheet_title(gettext("Alarms"), taken))
    for row in alarm_table(subjects, local.with_offset, units):
        alarms.append(row)
    book.save(path)


def _rounded(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


def _limit_cell(sensor: Sensor, stat: SeriesStats, side: str, units: Units) -> float | str | None:
    """A number while one limit applied over the range, else the text of its changes."""
    values = limits_in_force(stat, side)
    if len(values) > 1:
        return limit_text(sensor, stat, side, units)
    return _rounded(units.value(sensor, values[0] if values else None), sensor.precision)
