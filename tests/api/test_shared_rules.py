"""The field rules shared with the web (rules/fields.json), run against one table of cases
(rules/cases.json) that vitest runs too (web/src/components/account/rules.test.ts)."""

from __future__ import annotations

import json

import marshmallow as ma
import pytest

from api.extensions.field_rules import RULES_DIR, is_user_name, level_minutes_problem
from api.identity.validators import normalize_phone, validate_password, validate_user_name
from api.role.permissions import key_passes

CASES = json.loads((RULES_DIR / "cases.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", CASES["userName"], ids=lambda c: c["value"][:20])
def test_user_names(case):
    assert is_user_name(case["value"], overseas=False) is case["cn"]
    assert is_user_name(case["value"], overseas=True) is case["overseas"]


@pytest.mark.parametrize("case", CASES["userName"], ids=lambda c: c["value"][:20])
def test_user_name_validator_follows_the_edition(app, case):
    for overseas, expected in ((False, case["cn"]), (True, case["overseas"])):
        app.config["OVERSEAS"] = overseas
        try:
            with app.test_request_context():
                try:
                    validate_user_name(case["value"])
                    valid = True
                except ma.ValidationError:
                    valid = False
        finally:
            app.config["OVERSEAS"] = False
        assert valid is expected, (overseas, case)


@pytest.mark.parametrize("case", CASES["password"], ids=lambda c: c["value"])
def test_passwords(app, case):
    with app.test_request_context():
        try:
            validate_password(case["value"])
            valid = True
        except ma.ValidationError:
            valid = False
    assert valid is case["valid"]


@pytest.mark.parametrize("case", CASES["phone"], ids=lambda c: c["value"])
def test_phones(case):
    assert (normalize_phone(case["value"]) is not None) is case["valid"]


@pytest.mark.parametrize("case", CASES["levelMinutes"], ids=lambda c: str(c["value"]))
def test_level_minutes(case):
    assert (level_minutes_problem(case["value"]) is None) is case["valid"]


@pytest.mark.parametrize("case", CASES["permission"], ids=lambda c: f"{c['granted']}->{c['key']}")
def test_permission_check(case):
    assert key_passes(set(case["granted"]), case["key"]) is case["valid"]
