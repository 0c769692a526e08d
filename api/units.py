"""Temperature units: readings are stored in Celsius and shown in the caller's unit."""

from __future__ import annotations


def to_unit(value: float, stored_unit: str | None, wanted: str) -> float:
    if stored_unit == "celsius" and wanted == "F":
        return round(value * 9 / 5 + 32, 2)
    return value
