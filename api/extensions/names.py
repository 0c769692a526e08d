"""Text rules shared by every schema: names, and the fields marked to clear emoji and symbols.

- Every name field (`name`, `...Name`) refuses NUL, other control characters and the bidirectional
  overrides and isolates (U+202A-U+202E, U+2066-U+2069) that make a name read differently from
  what it is ("gpj.exe" shown as "exe.jpg"). The schema base applies `validate_name` to them all.
- `SymbolFreeString` is a field marked to clear emoji and special symbols (console-shell section 5):
  they are removed, as the web's marked inputs do on key release (web/src/utils/symbols.ts, the
  same classes of characters), so a client that skips the web cannot store them either. Control
  characters are left for the name rule to refuse.
"""

from __future__ import annotations

import re
import unicodedata

import marshmallow as ma
from flask_babel import gettext

BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

# Keycaps, pictographs and their modifiers (variation selectors, zero-width joiner, skin tones, tags).
_EMOJI_SEQUENCES = re.compile(
    r"[0-9#*]\ufe0f?\u20e3|[\ufe00-\ufe0f\u200d\u20e3\U0001f3fb-\U0001f3ff\U000e0020-\U000e007f]"
)
# Categories removed one character at a time: other symbols (emoji, ★ ♥ ©), private use, surrogates.
# Control characters are not stripped here but refused by the name rule, so a forged name is told so.
_STRIPPED_CATEGORIES = frozenset({"So", "Co", "Cs"})


def is_name_field(field_name: str) -> bool:
    return field_name == "name" or field_name.endswith("Name")


def validate_name(value: str) -> None:
    """Refuse NUL, control and bidi-override characters (one validator for every name field)."""
    for char in value or "":
        if char in BIDI_CONTROLS or unicodedata.category(char) == "Cc":
            raise ma.ValidationError(gettext("Control characters and text-direction overrides are not allowed."))


def strip_symbols(value: str) -> str:
    value = _EMOJI_SEQUENCES.sub("", value)
    return "".join(
        char
        for char in value
        # regional indicators (flags) are category So already; listed for clarity
        if unicodedata.category(char) not in _STRIPPED_CATEGORIES and not 0x1F1E6 <= ord(char) <= 0x1F1FF
    )


class SymbolFreeString(ma.fields.String):
    """A string field marked to clear emoji and special symbols (stripped, then validated)."""

    def __init__(self, *args, **kwargs):
        metadata = {**kwargs.pop("metadata", {}), "x-clearSymbols": True}
        super().__init__(*args, metadata=metadata, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        return strip_symbols(super()._deserialize(value, attr, data, **kwargs))
