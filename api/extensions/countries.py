"""The country of an IANA time zone (tzdata's zone.tab: each zone lies in one country), for rules that
must not mix countries (a recharge prices in one country's currency and tax)."""

from __future__ import annotations

from functools import cache
from importlib import resources


@cache
def _zone_countries() -> dict[str, str]:
    table = resources.files("tzdata").joinpath("zoneinfo", "zone.tab").read_text(encoding="utf-8")
    countries = {}
    for line in table.splitlines():
        if line and not line.startswith("#"):
            code, _coordinates, zone, *_ = line.split("\t")
            countries[zone] = code
    return countries


def country_of_zone(zone: str | None) -> str | None:
    """ISO 3166 alpha-2 (Asia/Shanghai -> CN), or None for a zone of no country (UTC, Etc/...)."""
    return _zone_countries().get(zone or "")
