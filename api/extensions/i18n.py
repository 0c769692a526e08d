"""Languages and time zones of the caller.

Locale: `Accept-Language` (zh-CN / en-US), else zh-CN, or en-US in the overseas edition.
Time zone: the `X-Timezone` header (an IANA name); an unknown name falls back to the default so a
misconfigured browser never breaks a call. Times are stored in UTC and rendered in this zone.
"""

from __future__ import annotations

import functools
from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from babel import Locale
from flask import current_app, g, has_request_context, request
from flask_babel import Babel, get_locale
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

TIMEZONE_HEADER = "X-Timezone"
_KNOWN_ZONES = frozenset(available_timezones())

babel = Babel()


def N_(message: str) -> str:  # noqa: N802 - the gettext convention for a no-op marker
    """Mark a message for extraction; it is translated later with gettext(message)."""
    return message


def default_locale() -> str:
    return "en_US" if current_app.config["OVERSEAS"] else "zh_CN"


@functools.cache
def _parsed_locale(code: str) -> Locale:
    # flask-babel parses the selector's answer on every request, and Locale.parse reads the locale
    # data index each time; a Locale object is passed through as it is.
    return Locale.parse(code)


def select_locale() -> Locale:
    return _parsed_locale(_locale_code())


def _locale_code() -> str:
    if not has_request_context():
        return default_locale()
    return _code_for(request.headers.get("Accept-Language", ""))


def locale_for(accept_language: str) -> Locale:
    """The locale a request with this `Accept-Language` header is answered in (an app context is
    enough: for answers built below Flask's request, api/telemetry/fast_upload.py)."""
    return _parsed_locale(_code_for(accept_language))


def _code_for(accept_language: str) -> str:
    return _best_locale(accept_language, tuple(current_app.config["LANGUAGES"]), default_locale())


@functools.lru_cache(maxsize=1024)
def _best_locale(header: str, supported: tuple[str, ...], fallback: str) -> str:
    # A pure function of the header and the edition, remembered: werkzeug parsing and matching the
    # header took about 35 us of every answer (its "success" message is localized), and callers send
    # few distinct headers (devices none). Bounded, so odd headers cannot grow it.
    accepted = parse_accept_header(header, LanguageAccept)
    # Browsers send zh-CN / en-US; werkzeug matches them against zh_CN / en_US case-insensitively
    # once the separators agree.
    offered = [code.replace("_", "-") for code in supported]
    best = accepted.best_match(offered)
    if best is None:
        # A bare "en" or "zh" still picks the right catalogue.
        for lang, _quality in accepted:
            prefix = lang.split("-")[0].lower()
            best = next((code for code in offered if code.lower().startswith(prefix)), None)
            if best:
                break
    return best.replace("-", "_") if best else fallback


def select_timezone() -> str:
    if has_request_context():
        name = request.headers.get(TIMEZONE_HEADER, "").strip()
        if name in _KNOWN_ZONES:
            return name
    return current_app.config["DEFAULT_TIMEZONE"]


def requested_zone() -> ZoneInfo | None:
    """The zone the caller named in its X-Timezone header (None when it named none, or no valid one)."""
    if has_request_context():
        name = request.headers.get(TIMEZONE_HEADER, "").strip()
        if name in _KNOWN_ZONES:
            return ZoneInfo(name)
    return None


def caller_zone() -> ZoneInfo:
    """The caller's zone, looked up once per request (lists render many timestamps)."""
    if has_request_context():
        if "caller_zone" not in g:
            g.caller_zone = _zone(select_timezone())
        return g.caller_zone
    return _zone(select_timezone())


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except ZoneInfoNotFoundError:  # pragma: no cover - DEFAULT_TIMEZONE misconfigured
        return ZoneInfo("UTC")


def locale_tag() -> str:
    """The caller's language as the web writes it: zh-CN or en-US (never babel's zh-Hans-CN)."""
    locale = get_locale()
    return f"{locale.language}-{locale.territory}" if locale.territory else locale.language


def init_app(app) -> None:
    babel.init_app(app, locale_selector=select_locale, timezone_selector=select_timezone)


def utc_offset(moment: datetime) -> str:
    """ "+02:00" of an aware datetime (the offset in force at that moment)."""
    seconds = int(moment.utcoffset().total_seconds())
    sign = "-" if seconds < 0 else "+"
    hours, minutes = divmod(abs(seconds) // 60, 60)
    return f"{sign}{hours:02d}:{minutes:02d}"


def local_text(moment: datetime, zone: ZoneInfo, *, seconds: bool = True) -> str:
    """A moment in a zone with its offset, unambiguous across a DST change: "2026-10-25 02:30:00 +02:00"."""
    local = moment.astimezone(zone)
    clock = f"{local:%Y-%m-%d %H:%M:%S}" if seconds else f"{local:%Y-%m-%d %H:%M}"
    return f"{clock} {utc_offset(local)}"


def lock_end_text(moment: datetime, zone: ZoneInfo) -> str:
    """When a lock ends, worded the same in every answer: "2026-11-28 12:53 (UTC+08:00)" in `zone` (the
    account's), never the caller's header-dependent clock time alone."""
    local = moment.astimezone(zone)
    return f"{local:%Y-%m-%d %H:%M} (UTC{utc_offset(local)})"


def zone_named(name: str | None) -> ZoneInfo:
    """The zone of that name (an account's time zone), or the site default when it names none we know."""
    return _zone(name if name in _KNOWN_ZONES else current_app.config["DEFAULT_TIMEZONE"])
