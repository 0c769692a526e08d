"""The field rules of business spec section 5 that the api and the web share.

They live as data in `rules/fields.json` at the repository root; the web imports the same file
(web/src/components/account/rules.ts). One table of cases (`rules/cases.json`) is run by pytest and
by vitest, so the two sides cannot drift apart again.
"""

from __future__ import annotations

import json
import re
from functools import cache
from itertools import pairwise
from pathlib import Path

import marshmallow as ma
from flask_babel import gettext

RULES_DIR = Path(__file__).resolve().parents[2] / "rules"


@cache
def field_rules() -> dict:
    return json.loads((RULES_DIR / "fields.json").read_text(encoding="utf-8"))


@cache
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def user_name_pattern(overseas: bool) -> re.Pattern[str]:
    rule = field_rules()["userName"]
    return _compiled(rule["overseasPattern"] if overseas else rule["pattern"])


def is_user_name(value: str, overseas: bool = False) -> bool:
    return bool(user_name_pattern(overseas).match(value or ""))


def password_problem(value: str) -> str | None:
    """'whitespace', 'length', 'strength' or None, in the web's order."""
    rule = field_rules()["password"]
    value = value or ""
    if any(ch.isspace() for ch in value):
        return "whitespace"
    if not rule["min"] <= len(value) <= rule["max"]:
        return "length"
    if sum(1 for pattern in rule["classes"] if _compiled(pattern).search(value)) < rule["minClasses"]:
        return "strength"
    return None


def clean_phone(value: str) -> str:
    return _compiled(field_rules()["phone"]["strip"]).sub("", (value or "").strip())


def is_phone_shape(value: str) -> bool:
    return bool(_compiled(field_rules()["phone"]["pattern"]).match(clean_phone(value)))


def level_minutes_problem(minutes: list[int]) -> str | None:
    """'count', 'range', 'order' or None: up to three levels, each within range, rising strictly."""
    rule = field_rules()["levelMinutes"]
    if not 1 <= len(minutes) <= rule["maxLevels"]:
        return "count"
    if any(not rule["min"] <= m <= rule["max"] for m in minutes):
        return "range"
    if any(later <= earlier for earlier, later in pairwise(minutes)):
        return "order"
    return None


def length(name: str) -> tuple[int | None, int | None]:
    item = field_rules()["lengths"][name]
    return item.get("min"), item.get("max")


def is_colour(value: str | None) -> bool:
    """#RRGGBB (theme colours, track lines)."""
    return bool(_compiled(field_rules()["colour"]["pattern"]).match(value or ""))


def validate_colour(value: str) -> None:
    """The colour rule as a schema validator (themes, fence lines): no account field, so below identity."""
    if not is_colour(value):
        raise ma.ValidationError(gettext("Please enter a valid colour in the form #RRGGBB."))
