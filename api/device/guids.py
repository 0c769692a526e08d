"""Device GUIDs: the one shape check (HTTP upload, MQTT topics and bodies, forms) and issuance.

A GUID is digits only, at most 20 (business-domain section 5). GUIDs issued before this module
were `<type code><8-digit sequence>` and keep working. New ones are not sequential, so a fleet
cannot be walked from one known GUID: `<type code><12 random digits><Luhn check digit>`, drawn from
the operating system's random source (10^12 per type code), so a typo in one digit or a swap of
two neighbours is caught by `check_digit_ok` before any lookup.
"""

from __future__ import annotations

import re
import secrets

GUID_MAX = 20
GUID_PATTERN = re.compile(r"^[0-9]{1,20}$")
RANDOM_DIGITS = 12


def well_formed(value: object) -> bool:
    """Digits only, 1 to 20 of them: the shape every transport checks before any lookup."""
    return isinstance(value, str) and GUID_PATTERN.match(value) is not None


def luhn_digit(digits: str) -> str:
    """The Luhn check digit to append to `digits`."""
    total = 0
    for position, char in enumerate(reversed(digits)):
        value = int(char)
        if position % 2 == 0:  # doubled: every second digit from the right, the check digit excluded
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return str((10 - total % 10) % 10)


def check_digit_ok(guid: str) -> bool:
    return well_formed(guid) and len(guid) > 1 and luhn_digit(guid[:-1]) == guid[-1]


def new_guid(prefix: str) -> str:
    """A GUID of the random space: prefix, 12 random digits, check digit (at most 20 digits)."""
    if not prefix.isdigit() or len(prefix) + RANDOM_DIGITS + 1 > GUID_MAX:
        raise ValueError("the GUID prefix must be at most 7 digits")
    body = prefix + f"{secrets.randbelow(10**RANDOM_DIGITS):0{RANDOM_DIGITS}d}"
    return body + luhn_digit(body)
