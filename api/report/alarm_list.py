"""The alarm list of a report, one home for every format: what the PDF's table, the CSV's section
and the XLSX's sheet list (issue 47: CSV and XLSX carried none). Labels are translated when the file
is written, in the requester's language."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from flask_babel import gettext

from api.alarm.models import AlarmKind, ProcessState
from api.extensions.i18n import N_
from api.report.kinds import Subject, alarm_records, disposition_history
from api.report.present import neutralise

# Labels of the alarm list (translated when the report is drawn, in the requester's language).
ALARM_KINDS = {
    AlarmKind.UPPER: N_("Above the upper limit"),
    AlarmKind.LOWER: N_("Below the lower limit"),
    AlarmKind.OFFLINE: N_("Offline"),
    AlarmKind.BATTERY: N_("Low battery"),
    AlarmKind.FAULT: N_("Probe fault"),
    AlarmKind.FENCE: N_("Electric fence crossed"),
    AlarmKind.BUDGET: N_("Stability budget threshold reached"),
}
PROCESS_STATES = {
    ProcessState.PENDING: N_("Pending"),
    ProcessState.AGREED: N_("Agreed"),
    ProcessState.REJECTED: N_("Rejected"),
    ProcessState.ON_HOLD: N_("On hold"),
}


def duration_text(seconds: float) -> str:
    """1 h 5 min; 5 min 30 s; 10 s (a ten-second logging interval is not "0 h 0 min")."""
    seconds = round(seconds)
    if seconds < 60:
        return gettext("%(s)s s", s=seconds)
    if seconds < 3600:
        minutes, rest = divmod(seconds, 60)
        return gettext("%(m)s min %(s)s s", m=minutes, s=rest) if rest else gettext("%(m)s min", m=minutes)
    minutes = round(seconds / 60)
    hours, minutes = divmod(minutes, 60)
    return gettext("%(h)s h %(m)s min", h=hours, m=minutes)


# The alarm list's columns, one definition for every format (the PDF's table prints them; the CSV's
# section and the XLSX's sheet print them after the device's name and GUID).
ALARM_COLUMNS = (
    N_("Excursion began"),
    N_("Alarm raised"),
    N_("Ended"),
    N_("Sensor"),
    N_("Alarm"),
    N_("Peak"),
    N_("Duration"),
    N_("Processing"),
)


@dataclass(frozen=True)
class AlarmForm:
    """What a printed table and a spreadsheet show differently in the same columns."""

    peak_unit: bool  # the peak with its unit (a spreadsheet's column holds any sensor's)
    raised_delay: bool  # "(5 min after it began)" after the raise time
    separator: str  # between processing decisions
    text: Callable[[str], str]  # names and comments: as they are, or safe from formula injection


PRINTED = AlarmForm(peak_unit=False, raised_delay=True, separator="\n", text=str)
SHEET = AlarmForm(peak_unit=True, raised_delay=False, separator="; ", text=neutralise)


def alarm_headers() -> list[str]:
    return [gettext(column) for column in ALARM_COLUMNS]


def alarm_cells(subject: Subject, alarms, local, units, form: AlarmForm) -> list[list[str]]:
    """One row of ALARM_COLUMNS per alarm (`alarms`: alarm_records of the subject): when the excursion
    began (its first reading out of range), when the alarm was raised (after the alarm delay) and
    when it ended; sensor, kind, peak, the duration from the excursion's start to its end (the same
    instant the first column prints), and every processing decision (who, when, what, comment; the
    latest one is the alarm's state). `local` prints an instant (ms) in the file's zone with its offset."""
    sensors = {s.probe: s for s in subject.sensors}
    history = disposition_history([alarm.id for alarm, _handler in alarms])

    def at(moment) -> str:
        return local(int(moment.timestamp() * 1000))

    rows = []
    for alarm, _handler in alarms:
        sensor = sensors.get(alarm.sensor)
        peak = ""
        if sensor and alarm.peak_value is not None:
            peak = f"{units.value(sensor, alarm.peak_value):.{sensor.precision}f}"
            if form.peak_unit:
                peak = f"{peak} {units.label(sensor)}".strip()
        decisions = []
        for disposition, name in history.get(alarm.id, []):
            parts = [at(disposition.created_at), name or "", gettext(PROCESS_STATES[disposition.state])]
            if disposition.result:
                parts.append(disposition.result)
            decisions.append(" ".join(x for x in parts if x))
        began, end = alarm.breach_started_at, alarm.closed_at
        raised = alarm.opened_at or began
        raised_text = at(raised)
        if form.raised_delay and raised > began:
            # Live, this is the alarm delay; a back-filled excursion is raised when its data arrives.
            delay = duration_text((raised - began).total_seconds())
            raised_text += " " + gettext("(%(delay)s after it began)", delay=delay)
        rows.append(
            [
                at(began),
                raised_text,
                at(end) if end else gettext("still open"),
                form.text(sensor.name) if sensor else "",
                gettext(ALARM_KINDS[alarm.kind]),
                peak,
                duration_text((end - began).total_seconds()) if end else "",
                form.text(form.separator.join(decisions)) or gettext(PROCESS_STATES[alarm.process_state]),
            ]
        )
    return rows


def alarm_table(subjects: list[Subject], local, units) -> list[list[str]]:
    """The spreadsheet's alarm list: the alarms of every subject open at any moment of its range,
    oldest first per device, as device, GUID and the ALARM_COLUMNS (names and comments safe from
    formula injection)."""
    rows = [[gettext("Device name"), "GUID", *alarm_headers()]]
    for subject in subjects:
        alarms = alarm_records(subject.device.id, subject.start, subject.end)
        prefix = [neutralise(subject.device.name), subject.device.guid]
        rows += [prefix + cells for cells in alarm_cells(subject, alarms, local, units, SHEET)]
    return rows
