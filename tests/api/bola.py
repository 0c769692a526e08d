"""The broken-object-level-authorization probe, driven by /api/openapi.json.

Side A (platform `default`) builds a world through the api; every call it makes is recorded as a
template. Side B (accounts of platform `junjia`, an ordinary user and the site's admin) then calls
every documented operation whose path, query, header or body takes an id, with A's ids in every id
slot (A's own request as the template where A made one, else a body synthesised from the schema).

A call passes when it is refused (403 / 404, or any error envelope) or answers an empty result, no
answer contains any of A's marker strings, and the database fingerprint (row count and a hash of
every table) is the same after the call as before. New operations are probed without anyone
listing them: ids are recognised by name and matched to tables by name.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

import pypdfium2
from sqlalchemy import text

from api.extensions.db import db
from tests.api.report_helpers import pdf_text

ID_NAME = re.compile(r"(^|_)(id|ids|guid)$|[a-z](Id|Ids|Guid)$", re.IGNORECASE)
METHODS = ("get", "post", "put", "patch", "delete")
# Tables a call of B may change on its own behalf (not A's data): B's sessions see their last use.
FINGERPRINT_IGNORED = {"account_session"}
# Shared reference data, never an id of A's: catalogues and the platforms themselves.
NOT_A_OBJECTS = {"platform", "platform_domain", "device_type", "device_param", "param_unit", "alembic_version"}
# Operations that are public by design with a complete id (spec: visitors look a device up by its
# complete GUID); probed all the same, but an answer is not counted as a leak.
PUBLIC_BY_DESIGN: dict[str, str] = {
    "GET /api/device/Device/quickQuery": "quick query: a visitor with the complete GUID sees the device's status",
}


def is_id_name(name: str) -> bool:
    return bool(ID_NAME.search(name))


def external_identifier(name: str, prop: dict) -> bool:
    """A text field named like an id that names nothing of ours (a province's appId, a WeChat openId):
    our objects are integer ids or GUIDs."""
    return prop.get("type") == "string" and not name.lower().endswith("guid")


def snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


@dataclass
class Operation:
    method: str
    path: str
    spec: dict
    id_slots: list[tuple[str, str]] = field(default_factory=list)  # (location, name)

    @property
    def key(self) -> str:
        return f"{self.method.upper()} {self.path}"

    def entity(self) -> str:
        """The entity segment of /api/{service}/{Entity}/{action}, as a table name."""
        parts = [p for p in self.path.split("/") if p and not p.startswith("{")]
        name = parts[2] if len(parts) > 2 else parts[-1]
        return snake(name.removeprefix("Base"))

    def matches(self, url_path: str) -> bool:
        pattern = re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(self.path))
        return re.fullmatch(pattern, url_path) is not None


class OpenApi:
    def __init__(self, document: dict):
        self.document = document
        self.operations: list[Operation] = []
        for path, item in document["paths"].items():
            for method in METHODS:
                if method in item:
                    operation = Operation(method, path, item[method])
                    operation.id_slots = self._id_slots(item, item[method])
                    self.operations.append(operation)

    def resolve(self, schema: dict) -> dict:
        while "$ref" in schema:
            name = schema["$ref"].rsplit("/", 1)[1]
            schema = self.document["components"]["schemas"][name]
        return schema

    def body_schema(self, spec: dict) -> tuple[str | None, dict | None]:
        for content_type, media in spec.get("requestBody", {}).get("content", {}).items():
            return content_type, self.resolve(media.get("schema", {}))
        return None, None

    def parameters(self, item: dict, spec: dict) -> list[dict]:
        return [*item.get("parameters", []), *spec.get("parameters", [])]

    def _id_slots(self, item: dict, spec: dict) -> list[tuple[str, str]]:
        slots = [(p["in"], p["name"]) for p in self.parameters(item, spec) if is_id_name(p["name"])]
        _, body = self.body_schema(spec)
        if body:
            slots += [
                ("body", name)
                for name, prop in body.get("properties", {}).items()
                if is_id_name(name) and not external_identifier(name, prop)
            ]
        return slots

    def sample(self, schema: dict, name: str = "") -> Any:
        """A plausible value for a schema (required fields only for objects)."""
        schema = self.resolve(schema)
        if "enum" in schema:
            return schema["enum"][0]
        if "example" in schema:
            return schema["example"]
        kind = schema.get("type")
        if kind == "object" or "properties" in schema:
            properties = schema.get("properties", {})
            return {k: self.sample(v, k) for k, v in properties.items() if k in schema.get("required", [])}
        if kind == "array":
            return [self.sample(schema.get("items", {}), name)]
        if kind == "integer":
            return max(1, int(schema.get("minimum", 1)))
        if kind == "number":
            return float(schema.get("minimum", 1))
        if kind == "boolean":
            return True
        if schema.get("format") == "date-time":
            return datetime.now(UTC).isoformat()
        if schema.get("format") == "binary":
            return "probe"
        return "probe-" + (name or "x")[: max(1, int(schema.get("maxLength", 20)) - 6)]


@dataclass
class Recorded:
    url: str
    query: dict
    json_body: Any
    headers: dict


class Recorder:
    """Side A's client: remembers the last successful request of each operation as a template."""

    def __init__(self, client, headers: dict, openapi: OpenApi):
        self.client, self.headers, self.openapi = client, headers, openapi
        self.templates: dict[str, Recorded] = {}

    def call(self, method: str, url: str, *, json_body: Any = None, headers: dict | None = None):
        all_headers = {**self.headers, **(headers or {})}
        response = getattr(self.client, method)(url, json=json_body, headers=all_headers)
        body = response.get_json(silent=True)
        assert response.status_code == 200 and body and body.get("code") == 0, (url, response.status_code, body)
        parts = urlsplit(url)
        for operation in self.openapi.operations:
            if operation.method == method and operation.matches(parts.path):
                query = dict(parse_qsl(parts.query))
                self.templates[operation.key] = Recorded(parts.path, query, json_body, headers or {})
        return body["data"]


def table_ids(exclude_accounts: set[int]) -> dict[str, list[Any]]:
    """Every object id in the database by table (A's world), B's own accounts left out."""
    ids: dict[str, list[Any]] = {}
    for table in db.metadata.sorted_tables:
        if table.name in NOT_A_OBJECTS or "id" not in table.c:
            continue
        rows = db.session.execute(text(f'SELECT id FROM "{table.name}" ORDER BY id')).scalars().all()
        if table.name == "account":
            rows = [r for r in rows if r not in exclude_accounts]
        if rows:
            ids[table.name] = list(rows)
    guids = db.session.execute(text("SELECT guid FROM device ORDER BY id")).scalars().all()
    ids["__guid__"] = list(guids)
    return ids


def fingerprint() -> dict[str, tuple[int, str]]:
    prints = {}
    for table in db.metadata.sorted_tables:
        if table.name in FINGERPRINT_IGNORED:
            continue
        row = db.session.execute(
            text(
                f"SELECT count(*), md5(coalesce(string_agg(t::text, ',' ORDER BY t::text), '')) FROM \"{table.name}\" t"
            )
        ).one()
        prints[table.name] = (row[0], row[1])
    db.session.rollback()
    return prints


def candidates(operation: Operation, name: str, ids: dict[str, list[Any]], limit: int = 3) -> list[Any]:
    """A's ids that fit the slot `name` of `operation` (by name; the entity of the path for a bare id)."""
    lowered = name.lower()
    if lowered.endswith("guid"):
        return ids.get("__guid__", [])[:limit]
    stem = re.sub(r"(_?ids?)$", "", name, flags=re.IGNORECASE)
    table = snake(stem.removeprefix("Base")) if stem else operation.entity()
    for candidate in (table, operation.entity() if not stem else None):
        if not candidate:
            continue
        for table_name, values in ids.items():
            if table_name == candidate or table_name.endswith("_" + candidate) or candidate.endswith(table_name):
                return values[:limit]
    # Unknown: any of A's ids (first of each table).
    return [values[0] for key, values in ids.items() if key != "__guid__"][:limit]


@dataclass
class ProbeResult:
    operation: str
    as_who: str
    status: int
    code: Any
    verdict: str  # refused | empty | invalid (422: authorization not reached) | leak
    reason: str = ""


def build_request(openapi: OpenApi, operation: Operation, template: Recorded | None, slot_values: dict):
    """URL, query, JSON body and headers of B's call: A's template (or a synthesised one) with A's ids."""
    item = openapi.document["paths"][operation.path]
    params = openapi.parameters(item, operation.spec)
    path = operation.path
    query: dict[str, Any] = dict(template.query) if template else {}
    headers: dict[str, str] = {}
    for param in params:
        name, where = param["name"], param["in"]
        value = slot_values.get((where, name))
        if value is None and where == "path":
            value = _path_value_from(template, operation, name) or openapi.sample(param.get("schema", {}), name)
        if value is None and param.get("required") and name not in query:
            value = openapi.sample(param.get("schema", {}), name)
        if value is None:
            continue
        if where == "path":
            path = path.replace("{" + name + "}", str(value))
        elif where == "query":
            query[name] = value
        elif where == "header":
            headers[name] = str(value)
    content_type, schema = openapi.body_schema(operation.spec)
    body = None
    if schema is not None and content_type == "application/json":
        body = (
            copy.deepcopy(template.json_body) if template and template.json_body is not None else openapi.sample(schema)
        )
        if isinstance(body, dict):
            for (where, name), value in slot_values.items():
                if where == "body":
                    body[name] = [value] if name.lower().endswith("ids") else value
    if "X-Device-Key" in {p["name"] for p in params}:
        headers.setdefault("X-Device-Key", "not-the-key")
    url = path + ("?" + urlencode(query) if query else "")
    return url, body, headers


def _path_value_from(template: Recorded | None, operation: Operation, name: str) -> str | None:
    if template is None:
        return None
    names = re.findall(r"\{([^}]+)\}", operation.path)
    pattern = re.sub(r"\\\{[^}]+\\\}", "([^/]+)", re.escape(operation.path))
    found = re.fullmatch(pattern, template.url)
    return found.group(names.index(name) + 1) if found else None


def judge(operation: Operation, response, markers: list[str]) -> tuple[str, str]:
    body = response.get_json(silent=True)
    raw = response.get_data().decode("utf-8", "replace")  # files (PDF) are bytes
    seen = [m for m in markers if m and m in raw]
    if seen and operation.key not in PUBLIC_BY_DESIGN:
        return "leak", f"answer shows A's {seen[:3]}"
    if response.status_code == 422:
        return "invalid", "refused by validation before any object was looked up"
    if response.status_code in (401, 403, 404, 405, 409, 413, 415, 421, 429) or response.status_code >= 500:
        if response.status_code >= 500:
            return "leak", f"server error {response.status_code}"
        return "refused", ""
    if not isinstance(body, dict):
        return ("refused", "") if operation.key in PUBLIC_BY_DESIGN else ("leak", "a file or page was served")
    if body.get("code") not in (0, None):
        return "refused", ""
    data = body.get("data")
    if data in ([], {}) or (isinstance(data, dict) and data.get("list") == [] and not data.get("total")):
        return "empty", ""
    if isinstance(data, list) and data and all(isinstance(item, dict) and item.get("ok") is False for item in data):
        return "refused", "a batch call refused every item"
    if isinstance(data, dict) and data and all(value in (0, None, [], {}) for value in data.values()):
        return "empty", "a count of nothing done"
    if operation.key in PUBLIC_BY_DESIGN:
        return "refused", PUBLIC_BY_DESIGN[operation.key]
    return "leak", f"accepted: {json.dumps(data)[:120]}"


def answer_text(response) -> str:
    """What an answer shows: a PDF's text (its drawing operators hold numbers like 88.8 by chance); the
    bytes as text otherwise (and for a stored file that only claims to be a PDF)."""
    if response.mimetype == "application/pdf":
        try:
            return pdf_text(response.data)
        except pypdfium2.PdfiumError:
            pass
    return response.get_data().decode("utf-8", "replace")
