"""How a file shows values to its requester: local times in their zone, °C or °F, precision, and
text cells that cannot be taken for formulas."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from api.report.kinds import Sensor
from api.report.stats import celsius_to_fahrenheit

# A cell starting with one of these is a formula (or the start of one) to Excel and LibreOffice.
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")


def neutralise(text: str | None) -> str:
    """A text cell safe from formula injection: a leading quote makes the spreadsheet take it as text.
    Only for text; numbers (a negative temperature) are written as numbers, never through here."""
    if not text:
        return ""
    return "'" + text if text.startswith(FORMULA_PREFIXES) else text


_TIME_OF_DAY = [f"{s // 3600:02d}:{s % 3600 // 60:02d}:{s % 60:02d}" for s in range(86_400)]
MS_PER_DAY = 86_400_000
MS_PER_HOUR = 3_600_000


class LocalTime:
    """Epoch milliseconds -> "YYYY-MM-DD HH:MM:SS" in a zone, fast enough for millions of rows: the
    zone's offset is looked up once per UTC hour and the date text once per local day."""

    def __init__(self, zone: ZoneInfo):
        self.zone = zone
        self._offsets: dict[int, int] = {}
        self._days: dict[int, str] = {}
        self._offset_texts: dict[int, str] = {}
        self._hours: dict[int, tuple[int, str]] = {}  # UTC hour -> (offset ms, " +02:00")

    def offset_ms(self, ms: int) -> int:
        hour = ms // MS_PER_HOUR
        offset = self._offsets.get(hour)
        if offset is None:
            offset = self._zone_offset_ms(hour * MS_PER_HOUR)
            if self._zone_offset_ms(hour * MS_PER_HOUR + MS_PER_HOUR - 1) != offset:
                # The offset changes inside this UTC hour (Newfoundland and Lord Howe change on the
                # half hour): that hour is looked up at each moment, never cached.
                return self._zone_offset_ms(ms)
            self._offsets[hour] = offset
        return offset

    def _zone_offset_ms(self, ms: int) -> int:
        moment = datetime.fromtimestamp(ms // 1000, UTC).astimezone(self.zone)
        return int(moment.utcoffset().total_seconds() * 1000)

    def __call__(self, ms: int) -> str:
        local = ms + self.offset_ms(ms)
        day, rest = divmod(local, MS_PER_DAY)
        text = self._days.get(day)
        if text is None:
            text = self._days[day] = datetime.fromtimestamp(day * 86_400, UTC).strftime("%Y-%m-%d ")
        return text + _TIME_OF_DAY[rest // 1000]

    def offset_text(self, ms: int) -> str:
        """ "+02:00": the zone's UTC offset at that moment."""
        minutes = self.offset_ms(ms) // 60_000
        sign = "-" if minutes < 0 else "+"
        text = self._offset_texts.get(minutes)
        if text is None:
            text = self._offset_texts[minutes] = f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"
        return text

    def with_offset(self, ms: int) -> str:
        """ "YYYY-MM-DD HH:MM:SS +02:00": unambiguous in the hour a DST change repeats. A CSV export
        calls this once per row: the offset and its text come from one lookup per UTC hour."""
        hour = ms // MS_PER_HOUR
        known = self._hours.get(hour)
        if known is None:
            known = (self.offset_ms(ms), " " + self.offset_text(ms))
            if hour in self._offsets:  # one offset all hour long
                self._hours[hour] = known
        offset, suffix = known
        day, rest = divmod(ms + offset, MS_PER_DAY)
        text = self._days.get(day)
        if text is None:
            text = self._days[day] = datetime.fromtimestamp(day * 86_400, UTC).strftime("%Y-%m-%d ")
        return text + _TIME_OF_DAY[rest // 1000] + suffix

    def datetime(self, ms: int) -> datetime:
        """A naive local datetime (spreadsheet cells have no zone)."""
        return datetime.fromtimestamp(ms / 1000, self.zone).replace(tzinfo=None)


class Units:
    """The requester's temperature unit: values, limits and labels of temperature sensors follow it."""

    def __init__(self, unit: str):
        self.fahrenheit = unit == "F"

    def label(self, sensor: Sensor) -> str:
        if sensor.temperature:
            return "°F" if self.fahrenheit else "°C"
        return sensor.unit

    def value(self, sensor: Sensor, value: float | None) -> float | None:
        if value is None or not (sensor.temperature and self.fahrenheit):
            return value
        return celsius_to_fahrenheit(value)

    def delta(self, sensor: Sensor, value: float | None) -> float | None:
        """A difference (not a temperature): scaled, not shifted."""
        if value is None or not (sensor.temperature and self.fahrenheit):
            return value
        return value * 9 / 5

    def converter(self, sensor: Sensor):
        """value -> text with the sensor's precision (in the hot loop: one call per reading)."""
        pattern = f"{{:.{sensor.precision}f}}"
        if sensor.temperature and self.fahrenheit:
            return lambda v: pattern.format(v * 9 / 5 + 32)
        return pattern.format
