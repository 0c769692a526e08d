"""Device types with model codes, the status flow and addType (business-domain sections 3, 4, 5)."""

from __future__ import annotations

import pytest
from sqlalchemy import select, update

from api.device.catalogue import sync_catalogue
from api.device.models import Device, DeviceType
from api.device.services import issue_guids
from api.extensions.db import db
from api.tenancy import find_platform
from tests.api.account_helpers import auth, login, make_account
from tests.api.customization_helpers import staff
from tests.api.product_helpers import PRODUCT, catalogue_counts, ensure_series, new_param, new_type, unit_id

TYPE = f"{PRODUCT}/DeviceType"


@pytest.fixture
def people(app, make_client):
    with app.app_context():
        sync_catalogue()
        db.session.commit()
    ensure_series(app, "XT")
    return staff(app, make_client, lang="en-US")


def test_type_lifecycle_test_release_and_the_user_can_add_only_once_published(app, people):
    (operator, op), _, (user, us) = people
    created = operator.post(f"{TYPE}/insert", headers=op, json=new_type())
    assert created.status_code == 200, created.get_json()
    device_type = created.get_json()["data"]
    assert device_type["typeCode"] == "8a01" and device_type["typeStatus"] == "to_test"
    assert device_type["models"][0]["modelCode"] == "0001" and device_type["typeScenes"] == ["vaccine", "pharmacy"]
    type_id = device_type["id"]
    options = operator.get(f"{TYPE}/list", headers=op).get_json()["data"]
    assert {
        "id": type_id,
        "typeName": device_type["typeName"],
        "typeCode": "8a01",
        "typeStatus": "to_test",
    }.items() <= next(o for o in options if o["id"] == type_id).items()

    with app.app_context():
        guid = issue_guids(find_platform("localhost"), db.session.get(DeviceType, type_id), 1, "XT-1")[0][0]

    def add(source="platform"):
        body = {"deviceGuid": guid, "deviceName": "Vaccines", "timeZone": "Asia/Shanghai", "source": source}
        return user.post("/api/device/Device/add", headers=us, json=body).get_json()

    assert add()["code"] == 3003  # to be tested
    # Release needs testing first, and a parameter.
    assert operator.put(f"{TYPE}/release/{type_id}", headers=op).status_code == 409
    tested = operator.put(f"{TYPE}/test/{type_id}", headers=op)
    assert tested.get_json()["data"]["typeStatus"] == "testing"
    assert operator.put(f"{TYPE}/test/{type_id}", headers=op).status_code == 409
    assert add()["code"] == 3003  # testing
    assert operator.put(f"{TYPE}/release/{type_id}", headers=op).status_code == 409  # no parameter yet
    param = operator.post(f"{PRODUCT}/DeviceParam/insert", headers=op, json=new_param(type_id, unit_id(app)))
    assert param.status_code == 200, param.get_json()
    released = operator.put(f"{TYPE}/release/{type_id}", headers=op)
    assert released.get_json()["data"]["typeStatus"] == "published"

    added = add()
    assert added["code"] == 0, added
    detail = user.get(f"/api/device/Device/detail/{added['data']['id']}", headers=us).get_json()["data"]
    assert [p["paramName"] for p in detail["params"]] == ["Vaccine temperature"]
    # Once GUIDs are out, the type can neither change its code nor be deleted.
    assert operator.delete(f"{TYPE}/delete/{type_id}", headers=op).status_code == 409
    moved = operator.put(f"{TYPE}/update", headers=op, json={**new_type(typeCode="8A02"), "id": type_id})
    assert moved.status_code == 422 and "typeCode" in moved.get_json()["data"]["errors"]


@pytest.mark.parametrize(
    ("add_type", "source", "code"),
    [(0, "platform", 0), (0, "app", 0), (1, "platform", 3004), (1, "app", 0), (2, "platform", 0), (2, "app", 3004)],
)
def test_add_type_decides_where_a_device_can_be_added(app, client, add_type, source, code):
    make_account(app)
    headers = auth(login(client))
    with app.app_context():
        device_type = sync_catalogue()[0x8002]
        db.session.execute(update(DeviceType).where(DeviceType.id == device_type.id).values(add_type=add_type))
        db.session.commit()
        guid = issue_guids(find_platform("localhost"), device_type, 1, "A")[0][0]
    body = {"deviceGuid": guid, "deviceName": "Fridge", "timeZone": "Asia/Shanghai", "source": source}
    answer = client.post("/api/device/Device/add", headers=headers, json=body).get_json()
    assert answer["code"] == code, answer
    with app.app_context():
        owner = db.session.scalar(select(Device.owner_account_id).where(Device.guid == guid))
    assert (owner is not None) == (code == 0)


BAD_TYPES = [
    ("typeName", "X"),
    ("typeName", "X" * 51),
    ("typeName", "   "),
    ("typeCode", "7FFF"),
    ("typeCode", "1000000"),
    ("typeCode", "80G1"),
    ("typeCode", "8001"),  # the TL-1's
    ("addType", 3),
    ("explanation", "x" * 201),
    ("cfMode", "both"),
    ("manualUrl", "not a url"),
    ("models", [{"modelName": "M", "modelCode": "0001"}]),
    ("models", [{"modelName": "Model", "modelCode": "10000"}]),
    ("models", [{"modelName": "Model A", "modelCode": "1"}, {"modelName": "Model B", "modelCode": "0001"}]),
    ("models", [{"modelName": "M" * 51, "modelCode": "1"}]),
]


@pytest.mark.parametrize(("field", "value"), BAD_TYPES)
def test_bad_type_input_names_the_field_in_the_callers_language_and_stores_nothing(
    app, people, make_client, field, value
):
    (operator, op), _, _ = people
    before = catalogue_counts(app)
    answer = operator.post(f"{TYPE}/insert", headers=op, json=new_type(**{field: value}))
    assert answer.status_code == 422, answer.get_json()
    assert field in answer.get_json()["data"]["errors"]
    assert catalogue_counts(app) == before
    zh = make_client(lang="zh-CN")
    answer = zh.post(f"{TYPE}/insert", headers=op, json=new_type(**{field: value})).get_json()
    message = " ".join(str(m) for m in answer["data"]["errors"][field])
    assert any("\u4e00" <= ch <= "\u9fff" for ch in answer["msg"] + message), answer


def test_type_code_bounds_accept_the_limits(app, people):
    (operator, op), _, _ = people
    low = operator.post(f"{TYPE}/insert", headers=op, json=new_type(typeCode="8000", models=[]))
    high = operator.post(f"{TYPE}/insert", headers=op, json=new_type(typeCode="0xFFFFFF", models=[]))
    assert low.status_code == 200 and high.status_code == 200, (low.get_json(), high.get_json())
    assert high.get_json()["data"]["typeCode"] == "ffffff"


def test_update_replaces_model_codes_and_the_page_filters(app, people):
    (operator, op), _, _ = people
    type_id = operator.post(f"{TYPE}/insert", headers=op, json=new_type()).get_json()["data"]["id"]
    models = [
        {"modelName": "XT-9 Plus", "modelCode": "0002", "modelFlag": False},
        {"modelName": "XT-9 Standard", "modelCode": "1"},
    ]
    changed = operator.put(f"{TYPE}/update", headers=op, json={**new_type(models=models), "id": type_id})
    assert changed.status_code == 200, changed.get_json()
    assert [(m["modelCode"], m["modelFlag"]) for m in changed.get_json()["data"]["models"]] == [
        ("0001", True),
        ("0002", False),
    ]
    page = operator.post(f"{TYPE}/page", headers=op, json={"typeStatus": "to_test"}).get_json()["data"]
    assert [row["id"] for row in page["list"]] == [type_id]
    found = operator.post(f"{TYPE}/page", headers=op, json={"keyword": "vaccine"}).get_json()["data"]
    assert [row["typeName"] for row in found["list"]] == ["XT-9 Vaccine Logger"]
    assert operator.delete(f"{TYPE}/delete/{type_id}", headers=op).status_code == 200


def test_only_the_operator_reaches_the_product_pages(app, people):
    _, (reseller, rs), (user, us) = people
    for client, headers in ((reseller, rs), (user, us)):
        assert client.post(f"{TYPE}/page", headers=headers, json={}).status_code == 403
        before = catalogue_counts(app)
        assert client.post(f"{TYPE}/insert", headers=headers, json=new_type()).status_code == 403
        assert catalogue_counts(app) == before
