"""The one spelling of an integer the api reads: every id, page and count of every schema, path and
access check goes through `parse`.

Python's int() and marshmallow's Integer read "+2", " 2", "02", "２" (full width), "٢", "1_0" and
2.0 as integers; the access gate once checked only plain digits and let the other spellings through
to a schema that read them as the same id. So there is one form: a JSON integer, or the canonical
decimal text (ASCII digits, an optional minus, no leading zeros, no sign, space or separator);
anything else is a 422 naming the field, before any object is looked up or any view runs.
"""

from __future__ import annotations

import re

import marshmallow as ma
from werkzeug.exceptions import UnprocessableEntity
from werkzeug.routing import IntegerConverter, Rule, ValidationError

from api.extensions.bounds import INT_MAX, with_inner_fields

CANONICAL = re.compile(r"-?(?:0|[1-9][0-9]*)")


class NotCanonicalError(ValueError):
    """The value is not an integer in its one accepted form."""


def parse(value: object) -> int:
    """`value` as an int when it is a JSON integer (not a boolean) or canonical decimal text."""
    if isinstance(value, bool):
        raise NotCanonicalError(value)
    if isinstance(value, int):
        return value
    if isinstance(value, str) and CANONICAL.fullmatch(value) and value != "-0":
        return int(value)
    raise NotCanonicalError(value)


class Integer(ma.fields.Integer):
    """marshmallow's Integer reading only `parse`'s form (the schema base refuses any other Integer)."""

    def _validated(self, value: object) -> int:
        try:
            return parse(value)
        except NotCanonicalError as error:
            raise self.make_error("invalid", input=value) from error


def not_valid_id(field: str, message: str = "Not a valid integer.") -> UnprocessableEntity:
    """The 422 of a path, query or body id that is no integer in its one form (or names no row: then
    `message` is marshmallow's range message). The api's error handler words and localizes it as every
    validation error: 'Invalid input - <field>: Not a valid integer.'."""
    error = UnprocessableEntity()
    error.data = {"messages": {field: [message]}}
    return error


class IdConverter(IntegerConverter):
    """`<int:name>` in a route: any path segment matches, so a non-canonical one ("+2", "02", "٢") is a
    422 naming the parameter instead of werkzeug's reading it as 2 (its `\\d+` takes any Unicode digit).
    An IntegerConverter still, so the OpenAPI document calls the parameter an integer."""

    regex = r"[^/]+"
    name = "id"

    def to_python(self, value: str) -> int:
        try:
            number = parse(value)
        except NotCanonicalError:
            raise not_valid_id(self.name) from None
        if not 0 <= number <= INT_MAX:
            raise ValidationError()  # no row has it: no route matches (404)
        return number

    def to_url(self, value: object) -> str:
        return str(parse(value))


class NamedConverterRule(Rule):
    """A url rule whose converters know the name of their variable (for the 422's field name)."""

    def get_converter(self, variable_name, converter_name, args, kwargs):
        converter = super().get_converter(variable_name, converter_name, args, kwargs)
        if isinstance(converter, IdConverter):
            converter.name = variable_name
        return converter


def install(app) -> None:
    """Every `<int:...>` of the app's routes reads ids in their one form (before the routes are added)."""
    app.url_rule_class = NamedConverterRule
    app.url_map.converters["int"] = IdConverter


def require_canonical(field: ma.fields.Field, where: str) -> None:
    """Refuse a schema field (or a list's, tuple's or dict's inner field) that reads integers some other
    way: marshmallow's own Integer takes "+2" and 2.0."""
    for each in with_inner_fields(field):
        if isinstance(each, ma.fields.Integer) and not isinstance(each, Integer):
            raise TypeError(f"{where}: use api.extensions.integers.Integer, not marshmallow's Integer")
