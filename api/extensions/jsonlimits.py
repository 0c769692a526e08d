"""The one JSON limit of the platform: how deep and how large a JSON document may be, for the api
(request bodies, through Flask and the argument parser) and for MQTT (device messages).

Python's parser recurses per nesting level, so a document nested ~1,000 deep raised RecursionError
(a 500, or on MQTT a message never acknowledged). `loads` turns that into a refusal and refuses
anything deeper than the limit as well. Numbers too long for Python's integer parser are refused
(ValueError). A refusal is `JsonLimitError` (a ValueError, like any other malformed JSON).
"""

from __future__ import annotations

import json
from itertools import compress
from typing import Any

from flask import Flask
from flask.json.provider import DefaultJSONProvider

# Deepest nesting accepted: the platform's own documents stay under 8 levels.
MAX_JSON_DEPTH = 32
# Largest document: the api's JSON upload cap of the spec (10 MB), also for one MQTT message.
MAX_JSON_BYTES = 10 * 1024 * 1024

_CONTAINER_TYPES = frozenset({dict, list})  # exact types: what the parser makes


class JsonLimitError(ValueError):
    """The document is too deep or too large (`reason` says which, for logs)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def _text(document: str | bytes | bytearray) -> str:
    if isinstance(document, bytes | bytearray):
        return bytes(document).decode("utf-8")  # UnicodeDecodeError is a ValueError too
    return document


def nesting_depth(value: Any, stop_above: int | None = None) -> int:
    """Deepest nesting of lists and dicts in a parsed document, level by level without recursion
    (stops once deeper than `stop_above`). A level's children are gathered, then its containers kept
    by builtins (a 500-record upload: about 200 us instead of 320)."""
    level = [value] if type(value) in _CONTAINER_TYPES else []
    depth = 0
    while level:
        depth += 1
        if stop_above is not None and depth > stop_above:
            return depth
        children: list = []
        for node in level:
            children += node.values() if type(node) is dict else node
        level = list(compress(children, map(_CONTAINER_TYPES.__contains__, map(type, children))))
    return depth


def loads(document: str | bytes | bytearray, **kwargs) -> Any:
    """json.loads within the limits; every refusal (limits, bad UTF-8, bad JSON) is a ValueError.

    Python's parser (C) recurses per level and raises RecursionError near 1,000 levels, cleanly;
    that is caught here. Shallower documents are measured after parsing, and only when they hold
    more brackets than the limit, so ordinary bodies pay nothing but two counts."""
    if len(document) > MAX_JSON_BYTES:
        raise JsonLimitError(f"larger than {MAX_JSON_BYTES} bytes")
    text = _text(document)
    try:
        value = json.loads(text, **kwargs)
    except RecursionError as exc:
        raise JsonLimitError(f"nested deeper than {MAX_JSON_DEPTH} levels") from exc
    if text.count("[") + text.count("{") > MAX_JSON_DEPTH and nesting_depth(value, MAX_JSON_DEPTH) > MAX_JSON_DEPTH:
        raise JsonLimitError(f"nested deeper than {MAX_JSON_DEPTH} levels")
    return value


class LimitedJSONProvider(DefaultJSONProvider):
    """Flask's JSON (request.get_json) with the limits."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return loads(s, **kwargs)


def init_app(app: Flask) -> None:
    sort_keys = app.json.sort_keys
    app.json = LimitedJSONProvider(app)
    app.json.sort_keys = sort_keys
