"""Every permission key of the role trees has a label in both languages (issue 47: the role
permission tree showed raw keys such as `alarm.limit`). Route keys are flat keys of the web's `menu`
namespace, actions keys of `organization.action`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from api.access import keys

LOCALES = Path(__file__).resolve().parents[2] / "web" / "public" / "locales"


def _nodes() -> list[dict]:
    found: list[dict] = []

    def visit(items):
        for node in items:
            found.append(node)
            visit(node["children"])

    visit(keys._walk((*keys.TREE, *keys.STAFF_TREE, *keys.OPERATOR_TREE)))
    return found


@pytest.mark.parametrize("language", ["zh-CN", "en-US"])
def test_every_permission_key_and_action_has_a_label(language):
    menu = json.loads((LOCALES / language / "menu.json").read_text(encoding="utf-8"))
    actions = json.loads((LOCALES / language / "organization.json").read_text(encoding="utf-8"))["action"]
    nodes = _nodes()
    assert len(nodes) > 100
    missing = [n["key"] for n in nodes if n["action"] is None and not str(menu.get(n["key"], "")).strip()]
    missing += [n["key"] for n in nodes if n["action"] is not None and not str(actions.get(n["action"], "")).strip()]
    assert missing == []
    # A label is text for people, never the key itself.
    assert [n["key"] for n in nodes if n["action"] is None and menu[n["key"]] == n["key"]] == []
