"""Field types of the back-office forms."""

from __future__ import annotations

import re

import marshmallow as ma
from flask_babel import gettext

_HEX = re.compile(r"^(?:0[xX])?([0-9a-fA-F]+)$")


class HexCode(ma.fields.Field):
    """A code typed in hexadecimal (`8001`, `0x8001`) of at most `digits` digits, stored as an int
    and shown as lower-case hex padded to `pad` digits."""

    def __init__(self, digits: int, pad: int = 1, minimum: int = 0, **kwargs):
        super().__init__(**kwargs)
        self.digits, self.pad, self.minimum = digits, pad, minimum
        self.metadata.setdefault("type", "string")
        self.metadata.setdefault("description", f"hexadecimal, at most {digits} digits")

    def _serialize(self, value, attr, obj, **kwargs):
        return None if value is None else f"{value:0{self.pad}x}"

    def _deserialize(self, value, attr, data, **kwargs):
        found = _HEX.match(value.strip()) if isinstance(value, str) else None
        if found is None or len(found.group(1)) > self.digits:
            raise ma.ValidationError(gettext("Up to %(digits)s hexadecimal digits.", digits=self.digits))
        number = int(found.group(1), 16)
        if number < self.minimum:
            raise ma.ValidationError(gettext("At least 0x%(minimum)X.", minimum=self.minimum))
        return number
