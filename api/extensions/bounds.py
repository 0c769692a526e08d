"""What every schema field takes at most (the schema base in api/extensions/smorest.py adds these
bounds to each field once): integers the database holds, times from 1970 to 2999."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import marshmallow as ma
from flask_babel import gettext

# Integers the databases hold (PostgreSQL integer, SQLite's 64-bit too): every Integer field of a
# schema is bounded to this range, so an out-of-range id, page or size is a 422 naming the field.
# A field of epoch milliseconds declares `metadata={"format": "int64"}` and gets the 64-bit range.
INT_MIN, INT_MAX = -(2**31), 2**31 - 1
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


class DatabaseRange(ma.validate.Range):
    """The range an integer column holds (added once per field by the schema base)."""

    def __init__(self, wide: bool = False):
        super().__init__(min=INT64_MIN if wide else INT_MIN, max=INT64_MAX if wide else INT_MAX)


def with_inner_fields(field: ma.fields.Field) -> Iterator[ma.fields.Field]:
    """`field` and every field inside it (a list's items, a tuple's members, a dict's keys and values)."""
    yield field
    inner = [getattr(field, "inner", None), getattr(field, "key_field", None), getattr(field, "value_field", None)]
    for child in [*inner, *(getattr(field, "tuple_fields", ()) or ())]:
        if isinstance(child, ma.fields.Field):
            yield from with_inner_fields(child)


def bound_integers(field: ma.fields.Field) -> None:
    """Add the database range to an Integer field (and to those inside lists, tuples and dicts)."""
    for each in with_inner_fields(field):
        if isinstance(each, ma.fields.Integer) and not any(isinstance(v, DatabaseRange) for v in each.validators):
            each.validators.append(DatabaseRange(wide=each.metadata.get("format") == "int64"))


# Times a caller may send: from the epoch to the year 2999. Outside, the answers could not be written
# back as RFC 3339 (a zone's offset before standard time has seconds, e.g. +08:05:43 in 0619).
EARLIEST_TIME = datetime(1970, 1, 1, tzinfo=UTC)
LATEST_TIME = datetime(2999, 12, 31, 23, 59, 59, tzinfo=UTC)


class CalendarRange(ma.validate.Validator):
    """The span of times the api takes (added once per datetime field by the schema base)."""

    def __call__(self, value: datetime) -> datetime:
        moment = value if value.tzinfo is not None else value.replace(tzinfo=UTC)
        if not EARLIEST_TIME <= moment <= LATEST_TIME:
            raise ma.ValidationError(
                gettext("Must be between %(earliest)s and %(latest)s.", earliest="1970-01-01", latest="2999-12-31")
            )
        return value


def bound_times(field: ma.fields.Field) -> None:
    if isinstance(field, ma.fields.DateTime) and not any(isinstance(v, CalendarRange) for v in field.validators):
        field.validators.append(CalendarRange())
    inner = getattr(field, "inner", None)
    if isinstance(inner, ma.fields.Field):
        bound_times(inner)
