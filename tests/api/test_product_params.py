"""Device parameters and units of the catalogue (business-domain sections 3 and 5)."""

from __future__ import annotations

import pytest

from api.device.catalogue import sync_catalogue
from api.extensions.db import db
from api.product.formula import FormulaError, evaluate, round_trips
from tests.api.customization_helpers import staff
from tests.api.product_helpers import PRODUCT, catalogue_counts, ensure_series, new_param, new_type, unit_id

PARAM = f"{PRODUCT}/DeviceParam"
UNIT = f"{PRODUCT}/ParamUnit"


@pytest.fixture
def operator(app, make_client):
    with app.app_context():
        sync_catalogue()
        db.session.commit()
    ensure_series(app, "XT")
    (client, headers), _, _ = staff(app, make_client, lang="en-US")
    type_id = client.post(f"{PRODUCT}/DeviceType/insert", headers=headers, json=new_type()).get_json()["data"]["id"]
    return client, headers, type_id


def test_parameters_of_a_type_with_bounds_fixed_or_another_parameter(app, operator):
    client, headers, type_id = operator
    celsius = unit_id(app)
    first = client.post(f"{PARAM}/insert", headers=headers, json=new_param(type_id, celsius))
    assert first.status_code == 200, first.get_json()
    assert first.get_json()["data"]["paramKey"] == "0001" and first.get_json()["data"]["paramCode"] == "000101"
    limit = new_param(
        type_id,
        celsius,
        paramName="High limit",
        paramType="setting",
        paramKey="0101",
        paramCode=None,
        probeId=None,
        paramSortNo=2,
        paramMin={"paramKey": "0001"},
        readWriteType="RW",
        defaultValue="8",
    )
    second = client.post(f"{PARAM}/insert", headers=headers, json=limit)
    assert second.status_code == 200, second.get_json()
    assert second.get_json()["data"]["paramMin"] == {"value": None, "paramKey": "0001"}
    rows = client.post(f"{PARAM}/page", headers=headers, json={"deviceTypeId": type_id}).get_json()["data"]["list"]
    assert [r["paramName"] for r in rows] == ["Vaccine temperature", "High limit"]
    changed = client.put(
        f"{PARAM}/update", headers=headers, json={**limit, "id": second.get_json()["data"]["id"], "paramName": "Upper"}
    )
    assert changed.get_json()["data"]["paramName"] == "Upper"
    assert client.delete(f"{PARAM}/delete/{second.get_json()['data']['id']}", headers=headers).status_code == 200


BAD_PARAMS = [
    ("paramName", "x" * 41),
    ("paramKey", "10000"),
    ("paramKey", "zz"),
    ("paramCode", "1000000"),
    ("paramSortNo", 0),
    ("precisionUnit", 5),
    ("precisionUnit", None),
    ("viewPrecisionUnit", 3),  # above the transmission precision 2
    ("paramMax", {"value": -50}),  # below the minimum -40
    ("paramMin", {"paramKey": "0abc"}),  # no such parameter of the type
    ("paramMin", {"value": 1, "paramKey": "0001"}),
    ("defaultValue", "a,b"),
    ("defaultValue", "a:b"),
    ("refParamExpression", "X" * 101),
    ("regExp", "(unclosed"),
    ("dataType", "bit"),  # without its bit list
    ("bitList", [{"bit": 0, "name": "door:open"}]),
    ("readWriteType", "X"),
    ("stepLength", 0),
    ("deviceTypeId", 999999),
    ("unitId", 999999),
]


@pytest.mark.parametrize(("field", "value"), BAD_PARAMS)
def test_bad_parameter_input_names_the_field_and_stores_nothing(app, operator, field, value):
    client, headers, type_id = operator
    before = catalogue_counts(app)
    answer = client.post(f"{PARAM}/insert", headers=headers, json=new_param(type_id, unit_id(app), **{field: value}))
    assert answer.status_code == 422, answer.get_json()
    named = "bitList" if field == "dataType" else field  # a bit parameter is refused for its missing list
    assert named in answer.get_json()["data"]["errors"], answer.get_json()
    assert catalogue_counts(app) == before


def test_a_key_and_a_probe_are_unique_within_the_type(app, operator):
    client, headers, type_id = operator
    assert client.post(f"{PARAM}/insert", headers=headers, json=new_param(type_id, unit_id(app))).status_code == 200
    again = client.post(f"{PARAM}/insert", headers=headers, json=new_param(type_id, unit_id(app), probeId=2))
    assert again.status_code == 422 and "paramKey" in again.get_json()["data"]["errors"]
    probe = client.post(f"{PARAM}/insert", headers=headers, json=new_param(type_id, unit_id(app), paramKey="2"))
    assert probe.status_code == 422 and "probeId" in probe.get_json()["data"]["errors"]


def test_merging_needs_two_sensors_and_separating_merged_ones_of_one_group(app, operator):
    client, headers, type_id = operator
    celsius = unit_id(app)

    def add(key, probe, kind="sensor"):
        body = new_param(type_id, celsius, paramKey=key, probeId=probe, paramType=kind, paramName=f"P{key}")
        return client.post(f"{PARAM}/insert", headers=headers, json=body).get_json()["data"]["id"]

    a, b, c, d = add("1", 1), add("2", 2), add("3", 3), add("101", None, "setting")
    assert client.post(f"{PARAM}/merge", headers=headers, json={"paramIds": [a]}).status_code == 422
    assert client.post(f"{PARAM}/merge", headers=headers, json={"paramIds": [a, d]}).status_code == 422
    merged = client.post(f"{PARAM}/merge", headers=headers, json={"paramIds": [a, b]})
    assert {p["mergeGroup"] for p in merged.get_json()["data"]} == {1}
    assert client.post(f"{PARAM}/merge", headers=headers, json={"paramIds": [b, c]}).status_code == 422
    assert client.post(f"{PARAM}/separate", headers=headers, json={"paramIds": [a, c]}).status_code == 422
    separated = client.post(f"{PARAM}/separate", headers=headers, json={"paramIds": [a, b]})
    assert {p["mergeGroup"] for p in separated.get_json()["data"]} == {None}


def test_units_convert_both_ways_through_the_safe_parser(app, operator):
    client, headers, _ = operator
    body = {
        "unitName": "Kelvin",
        "unitCode": "kelvin",
        "unitClassify": "temperature",
        "localeCode": "en-US",
        "basicUnitStatus": False,
        "toBasicFormula": "X - 273.15",
        "fromBasicFormula": "X + 273.15",
    }
    created = client.post(f"{UNIT}/insert", headers=headers, json=body)
    assert created.status_code == 200, created.get_json()
    there = client.post(f"{UNIT}/convert", headers=headers, json={"formula": "X - 273.15", "value": 300}).get_json()
    assert there["data"]["value"] == pytest.approx(26.85)
    listed = client.post(f"{UNIT}/page", headers=headers, json={"unitClassify": "temperature"}).get_json()["data"]
    assert "kelvin" in {u["unitCode"] for u in listed["list"]}
    # A unit in use by a parameter cannot be deleted; an unused one can.
    assert client.delete(f"{UNIT}/delete/{unit_id(app)}", headers=headers).status_code == 409
    assert client.delete(f"{UNIT}/delete/{created.get_json()['data']['id']}", headers=headers).status_code == 200


BAD_UNITS = [
    ("unitName", "x" * 31),
    ("unitCode", "x" * 31),
    ("unitCode", "celsius"),  # taken
    ("toBasicFormula", "__import__('os').system('true')"),
    ("toBasicFormula", "X" * 101),
    ("toBasicFormula", "2 + 3"),  # no X
    ("fromBasicFormula", "X * 2"),  # does not undo X - 273.15
]


@pytest.mark.parametrize(("field", "value"), BAD_UNITS)
def test_bad_unit_input_names_the_field_and_stores_nothing(app, operator, field, value):
    client, headers, _ = operator
    body = {
        "unitName": "Kelvin",
        "unitCode": "kelvin",
        "unitClassify": "temperature",
        "toBasicFormula": "X - 273.15",
        "fromBasicFormula": "X + 273.15",
        field: value,
    }
    before = catalogue_counts(app)
    answer = client.post(f"{UNIT}/insert", headers=headers, json=body)
    assert answer.status_code == 422 and field in answer.get_json()["data"]["errors"], answer.get_json()
    assert catalogue_counts(app) == before


@pytest.mark.parametrize(
    ("formula", "x", "expected"),
    [("(X-32)*5/9", 212, 100), ("X*9/5+32", -40, -40), ("-X^2", 3, -9), ("2^-1*X", 4, 2), ("(X)", 1.5, 1.5)],
)
def test_formula_values(formula, x, expected):
    assert evaluate(formula, x) == pytest.approx(expected)


@pytest.mark.parametrize("formula", ["X/0", "X/(X-X)", "X^999", "eval(X)", "X;1", "X++", ")X(", "1e5*X"])
def test_formula_errors_never_run_code(formula):
    with pytest.raises(FormulaError):
        evaluate(formula, 2)


def test_round_trip_refuses_formulas_that_do_not_undo_each_other():
    assert round_trips("(X-32)*5/9", "X*9/5+32")
    assert not round_trips("X*2", "X*2")


TEMPLATE = "/api/alarm/MessageTemplate/save"


@pytest.mark.parametrize(
    ("content", "ok"),
    [
        ({"en-US": "{device} at {value}, limit {limit}"}, True),
        ({"en-US": "High temperature"}, False),  # no template message
        ({"en-US": "{device} is {colour}"}, False),  # an unknown placeholder
        ({"en-US": "{device} ok", "zh-CN": "没有占位符"}, False),
    ],
)
def test_a_message_template_body_carries_a_known_placeholder(app, operator, content, ok):
    client, headers, _ = operator
    answer = client.post(TEMPLATE, headers=headers, json={"msgName": "High temp", "type": "sms", "content": content})
    assert (answer.status_code == 200) == ok, answer.get_json()
    if not ok:
        assert "content" in answer.get_json()["data"]["errors"]
