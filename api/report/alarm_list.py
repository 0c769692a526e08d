"""The alarm list of a report, one home for every format: what the PDF's table, the CSV's section
and the XLSX's sheet list (issue 47: CSV and XLSX carried none). Labels are translated when the file
is written, in the requester's language."""

from __future__ import annotations

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


def alarm_table(subjects: list[Subject], local, units) -> list[list[str]]:
    """The alarms of every subject open at any moment of its range, oldest first per device: device,
    GUID, when the excursion began, when the alarm was raised and ended, sensor, kind, peak with its
    unit, duration and the processing (every decision;
    the latest is the alarm's state); names and comments safe from formula injection. `local`
    prints an instant (ms) in the file's zone with its offset."""
    header = [
        gettext("Device name"),
        "GUID",
        gettext("Excursion began"),
        gettext("Alarm raised"),
        gettext("Ended"),
        gettext("Sensor"),
        gettext("Alarm"),
        gettext("Peak"),
        gettext("Duration"),
        gettext("Processing"),
    ]
    rows = [header]
    for subject in subjects:
        alarms = alarm_records(subject.device.id, subject.start, subject.end)
        history = disposition_history([alarm.id for alarm, _handler in alarms])
        sensors = {s.probe: s for s in subject.sensors}

        def at(moment):
            return local(int(moment.timestamp() * 1000))

        for alarm, _handler in alarms:
            sensor = sensors.get(alarm.sensor)
            peak = ""
            if sensor and alarm.peak_value is not None:
                peak = f"{units.value(sensor, alarm.peak_value):.{sensor.precision}f} {units.label(sensor)}".strip()
            decisions = []
            for disposition, name in history.get(alarm.id, []):
                parts = [at(disposition.created_at), name or "", gettext(PROCESS_STATES[disposition.state])]
                if disposition.result:
                    parts.append(disposition.result)
                decisions.append(" ".join(x for x in parts if x))
            began, end = alarm.breach_started_at, alarm.closed_at
            rows.append(
                [
                    neutralise(subject.device.name),
                    subject.device.guid,
                    at(began),
                    at(alarm.opened_at or began),
                    at(end) if end else gettext("still open"),
                    neutralise(sensor.name) if sensor else "",
                    gettext(ALARM_KINDS[alarm.kind]),
                    peak,
                    duration_text((end - began).total_seconds()) if end else "",
                    neutralise("; ".join(decisions)) or gettext(PROCESS_STATES[alarm.process_state]),
                ]
            )
    return rows
