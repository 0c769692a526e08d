"""The CSV's rows when a file has corrected columns (issue 48: a device of the file applies its probes'
calibration correction): each sensor's raw value, then its corrected value (empty where no valid
certificate covered the reading, or the device does not correct). A loop of its own, so the plain
files (no correction anywhere: the export benchmark's path) are written exactly as before.
"""

from __future__ import annotations

from api.report.calibration_marks import corrections_of
from api.report.kinds import Subject
from api.telemetry.calibration import OverdueMarks
from api.telemetry.queries import stream_rows


def write_corrected_csv(
    out,
    subject: Subject,
    probes: list[int],
    convert: dict,
    stats: dict,
    marks: OverdueMarks,
    *,
    prefix: str,
    fmt,
    late: str,
    over: str,
    progress,
    options: dict,
    tick: int,
) -> None:
    fixes = corrections_of(subject, list(convert))
    lines, pending = [], 0
    for ms, values, backfilled in stream_rows(subject.device.id, list(convert), subject.start, subject.end, **options):
        cells = []
        for probe in probes:
            value = values.get(probe)
            if value is None or probe not in convert:
                cells += ["", ""]
                continue
            conv = convert[probe]
            fix = fixes[probe](ms) if probe in fixes else None
            cells += [conv(value), conv(fix(value)) if fix is not None else ""]
            if probe in stats:
                stats[probe].add(ms, value)  # statistics of the raw readings, as the alarms judged them
        overdue = marks.advance(ms) if ms >= marks.edge else marks.inside
        lines.append(f"{prefix}{fmt(ms)},{','.join(cells)},{late if backfilled else ''},{over if overdue else ''}\r\n")
        pending += len(values)
        if pending >= tick:
            out.write("".join(lines))
            lines.clear()
            progress.tick(pending)
            pending = 0
    out.write("".join(lines))
    progress.tick(pending)
