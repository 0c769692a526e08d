"""The web's api types are generated, never stale (issue 46).

web/openapi.json is the document the api serves, checked in with sorted keys; web/src/api/schema.d.ts is
generated from it by openapi-typescript (`npm run api-types:check -w web` fails when it is not). Both are
written by `make api-types`.
"""

import json
from pathlib import Path

WEB_DOCUMENT = Path(__file__).resolve().parents[2] / "web" / "openapi.json"
REGENERATE = "run `make api-types` and commit web/openapi.json, web/src/api/schema.d.ts and web/src/api/operations.ts"


def changed_entries(prefix: str, served: dict, stored: dict) -> list[str]:
    return [f"{prefix}.{name}" for name in sorted(set(served) | set(stored)) if served.get(name) != stored.get(name)]


def document_differences(served: dict, stored: dict) -> list[str]:
    """The paths, component schemas and other top-level parts that differ (a short, readable failure)."""
    differences = []
    for section in sorted(set(served) | set(stored)):
        mine, theirs = served.get(section), stored.get(section)
        if mine == theirs:
            continue
        if section == "components" and isinstance(mine, dict) and isinstance(theirs, dict):
            for kind in sorted(set(mine) | set(theirs)):
                differences += changed_entries(f"components.{kind}", mine.get(kind) or {}, theirs.get(kind) or {})
        elif section == "paths" and isinstance(mine, dict) and isinstance(theirs, dict):
            differences += changed_entries("paths", mine, theirs)
        else:
            differences.append(section)
    return differences


def test_the_web_document_is_the_one_the_api_serves(client):
    answer = client.get("/api/openapi.json")
    assert answer.status_code == 200
    stored = json.loads(WEB_DOCUMENT.read_text(encoding="utf-8"))
    assert document_differences(answer.get_json(), stored) == [], f"web/openapi.json is stale: {REGENERATE}"


def test_the_web_document_is_written_with_sorted_keys():
    text = WEB_DOCUMENT.read_text(encoding="utf-8")
    assert text == json.dumps(json.loads(text), indent=2, sort_keys=True, ensure_ascii=False) + "\n", REGENERATE


def test_a_changed_operation_or_schema_is_named():
    schemas = {"A": {"type": "object"}}
    stored = {"openapi": "3.0.3", "paths": {"/a": {"get": {}}, "/b": {}}, "components": {"schemas": schemas}}
    served = json.loads(json.dumps(stored))
    assert document_differences(served, stored) == []
    served["paths"]["/a"]["get"]["summary"] = "changed"
    served["paths"]["/c"] = {}
    served["components"]["schemas"]["A"]["required"] = ["id"]
    served["openapi"] = "3.1.0"
    assert document_differences(served, stored) == ["components.schemas.A", "openapi", "paths./a", "paths./c"]
