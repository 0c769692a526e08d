"""Localized validation messages.

marshmallow raises its messages in English, some of them already formatted at schema build time
(Range, Length). Rather than patching marshmallow, the error handler passes every message through
`localize()`, which recognises marshmallow's templates and returns the caller's translation.
Messages our own code raises are already translated and pass through unchanged.
"""

from __future__ import annotations

import re
from functools import cache

from flask_babel import gettext
from marshmallow import ValidationError, validate

from api.extensions.i18n import N_


def not_blank(value: str) -> None:
    """Text that is only spaces is no text (a device name of spaces is refused)."""
    if isinstance(value, str) and not value.strip():
        raise ValidationError(gettext("This field may not be blank."))


class ItemCount(validate.Length):
    """The length of a list: its messages count items, not characters."""

    message_min = "Fewer than minimum item count {min}."
    message_max = "More than maximum item count {max}."
    message_all = "Item count must be between {min} and {max}."
    message_equal = "Item count must be {equal}."


# (English template as marshmallow formats it, msgid with the same named placeholders)
TEMPLATES: list[tuple[str, str]] = [
    ("Missing data for required field.", N_("This field is required.")),
    ("Field may not be null.", N_("This field may not be empty.")),
    ("Invalid value.", N_("Invalid value.")),
    ("Invalid type.", N_("Invalid type.")),
    ("Unknown field.", N_("Unknown field.")),
    ("Invalid input type.", N_("Invalid input type.")),
    ("Not a valid string.", N_("Not a valid string.")),
    ("Not a valid utf-8 string.", N_("Not a valid string.")),
    ("Not a valid integer.", N_("Not a valid integer.")),
    ("Not a valid number.", N_("Not a valid number.")),
    ("Number too large.", N_("Number too large.")),
    ("Special numeric values (nan or infinity) are not permitted.", N_("Not a valid number.")),
    ("Not a valid boolean.", N_("Not a valid boolean.")),
    ("Not a valid list.", N_("Not a valid list.")),
    ("Not a valid mapping type.", N_("Not a valid object.")),
    ("Not a valid URL.", N_("Not a valid URL.")),
    ("Not a valid email address.", N_("Not a valid email address.")),
    ("Not a valid UUID.", N_("Not a valid identifier.")),
    ("Not a valid date.", N_("Not a valid date.")),
    ("Not a valid datetime.", N_("Not a valid date and time.")),
    ("Not a valid aware datetime.", N_("Not a valid date and time.")),
    ("Not a valid naive datetime.", N_("Not a valid date and time.")),
    ("Not a valid time.", N_("Not a valid time.")),
    ("String does not match expected pattern.", N_("Invalid format.")),
    ("Invalid input.", N_("Invalid input.")),
    ("Fewer than minimum item count {min}.", N_("At least %(min)s items.")),
    ("More than maximum item count {max}.", N_("At most %(max)s items.")),
    ("Item count must be between {min} and {max}.", N_("Between %(min)s and %(max)s items.")),
    ("Item count must be {equal}.", N_("Exactly %(equal)s items.")),
    ("Shorter than minimum length {min}.", N_("At least %(min)s characters.")),
    ("Longer than maximum length {max}.", N_("At most %(max)s characters.")),
    ("Length must be between {min} and {max}.", N_("Length must be between %(min)s and %(max)s characters.")),
    ("Length must be {equal}.", N_("Length must be %(equal)s characters.")),
    ("Must be greater than or equal to {min}.", N_("Must be at least %(min)s.")),
    ("Must be greater than {min}.", N_("Must be greater than %(min)s.")),
    ("Must be less than or equal to {max}.", N_("Must be at most %(max)s.")),
    ("Must be less than {max}.", N_("Must be less than %(max)s.")),
    (
        "Must be greater than or equal to {min} and less than or equal to {max}.",
        N_("Must be between %(min)s and %(max)s."),
    ),
    ("Must be one of: {choices}.", N_("Must be one of: %(choices)s.")),
    ("Must be equal to {other}.", N_("Must be equal to %(other)s.")),
]


@cache
def _compiled() -> list[tuple[re.Pattern[str], str]]:
    compiled = []
    # Longest first: "Must be greater than or equal to {min}." would also match the two-bound message.
    for template, msgid in sorted(TEMPLATES, key=lambda pair: -len(pair[0])):
        pattern = re.escape(template)
        pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>.+?)", pattern)
        compiled.append((re.compile(f"^{pattern}$", re.S), msgid))
    return compiled


def localize(message: str) -> str:
    for pattern, msgid in _compiled():
        match = pattern.match(message)
        if match:
            return gettext(msgid, **match.groupdict())
    return message


def localize_tree(messages):
    """Translate a webargs/marshmallow error tree, keeping its shape (field -> [messages])."""
    if isinstance(messages, dict):
        return {key: localize_tree(value) for key, value in messages.items()}
    if isinstance(messages, list):
        return [localize_tree(item) for item in messages]
    if isinstance(messages, str):
        return localize(messages)
    return messages


def first_errors(messages, prefix: str = "") -> list[tuple[str, str]]:
    """Flatten to (field path, first message) pairs, skipping webargs' location level."""
    pairs: list[tuple[str, str]] = []
    if isinstance(messages, dict):
        for key, value in messages.items():
            path = f"{prefix}.{key}" if prefix else str(key)
            if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
                pairs.append((path, value[0]))
            else:
                pairs.extend(first_errors(value, path))
    elif isinstance(messages, list):
        for item in messages:
            if isinstance(item, str):
                pairs.append((prefix or "_schema", item))
                break
    return pairs
