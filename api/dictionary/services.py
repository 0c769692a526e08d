"""The time-zone dictionary: IANA names with labels in the caller's language, ordered by offset."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import lru_cache
from zoneinfo import ZoneInfo, available_timezones

from babel import Locale
from babel.dates import get_timezone_location

from api.extensions.i18n import locale_tag

# type "common": the zones a cold-chain customer usually picks; "all": every canonical IANA zone.
COMMON = (
    "Asia/Shanghai",
    "Asia/Hong_Kong",
    "Asia/Taipei",
    "Asia/Tokyo",
    "Asia/Seoul",
    "Asia/Singapore",
    "Asia/Bangkok",
    "Asia/Kolkata",
    "Asia/Dubai",
    "Europe/London",
    "Europe/Paris",
    "Europe/Berlin",
    "Europe/Moscow",
    "America/New_York",
    "America/Chicago",
    "America/Denver",
    "America/Los_Angeles",
    "America/Sao_Paulo",
    "Australia/Sydney",
    "Pacific/Auckland",
    "Africa/Johannesburg",
    "UTC",
)
REGIONS = ("Africa/", "America/", "Antarctica/", "Asia/", "Atlantic/", "Australia/", "Europe/", "Indian/", "Pacific/")


def _offset(name: str, now: datetime) -> int:
    return int(now.astimezone(ZoneInfo(name)).utcoffset().total_seconds() // 60)


def _label(name: str, minutes: int, locale: Locale) -> str:
    sign = "+" if minutes >= 0 else "-"
    hours, mins = divmod(abs(minutes), 60)
    place = name if name == "UTC" else get_timezone_location(ZoneInfo(name), locale=locale)
    return f"(UTC{sign}{hours:02d}:{mins:02d}) {place}"


@lru_cache(maxsize=8)
def _zones(kind: str, tag: str, hour: str) -> tuple[dict, ...]:
    """Built once per language and hour (offsets move with daylight saving time)."""
    now = datetime.now(UTC)
    locale = Locale.parse(tag.replace("-", "_"))
    names = COMMON if kind == "common" else sorted(n for n in available_timezones() if n.startswith(REGIONS))
    rows = [(name, _offset(name, now)) for name in names]
    rows.sort(key=lambda row: (row[1], row[0]))
    return tuple({"value": n, "label": _label(n, m, locale), "offset": m} for n, m in rows)


def time_zones(kind: str) -> list[dict]:
    return list(_zones(kind, locale_tag(), datetime.now(UTC).strftime("%Y%m%d%H")))
