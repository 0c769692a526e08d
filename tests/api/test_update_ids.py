"""An update names the record it changes: a missing or zero id is a 422 naming the id field, never a
create (issue 44: `ColdStorage/update` and `DevicePermissionTemplate/update` with id 0 created rows).

The sweep walks /api/openapi.json: every operation whose path ends in /update (or /update/<part>, or
is the notice's updateWithNotEmptyFiled) is called with its id left out and with id 0, as an account
holding the operation's key, and must answer 422 naming the id field with no row added or changed.
A new update operation is swept as soon as it is documented.
"""

from __future__ import annotations

import re

import pytest

from api.extensions.db import db
from api.identity.models import StaffRole
from api.sharing.models import PermissionTemplate
from api.storage.models import ColdStorage, StorageKind
from tests.api import bola
from tests.api.account_helpers import BASE, auth, login, make_account
from tests.api.calibration_helpers import make_lab_admin
from tests.api.device_helpers import DEVICE

UPDATE_PATH = re.compile(r"/update(/[A-Za-z]+)?$|/updateWithNotEmptyFiled$")
# Updates of a singleton (the account's own FDA setting): no id to name.
SINGLETONS = {"PUT /api/fda/FdaConfig/update", "PUT /api/fda/SigningSequence/update"}


def update_operations(openapi: bola.OpenApi) -> list[bola.Operation]:
    return [op for op in openapi.operations if UPDATE_PATH.search(op.path)]


def id_field(openapi: bola.OpenApi, operation: bola.Operation) -> str | None:
    """The field naming the record: the gate's declared object argument, else `id`, else the one
    required integer field named like an id."""
    _, body = openapi.body_schema(operation.spec)
    properties = (body or {}).get("properties", {})
    declared = (operation.spec.get("x-access") or {}).get("arg")
    if declared in properties:
        return declared
    if "id" in properties:
        return "id"
    named = [
        name
        for name in (body or {}).get("required", [])
        if bola.is_id_name(name) and openapi.resolve(properties[name]).get("type") == "integer"
    ]
    return named[0] if len(named) == 1 else None


def account_keys(client, headers) -> frozenset[str]:
    body = client.get(f"{BASE}/accountInfo", headers=headers).get_json()
    assert body["code"] == 0, body
    return frozenset(body["data"]["permissionRoutes"])


def key_granted(keys: frozenset[str], key: str | None) -> bool:
    return key is None or key in keys or any(k.startswith(key + ".") for k in keys)


def test_every_update_refuses_a_missing_or_zero_id_and_writes_nothing(app, client):
    openapi = bola.OpenApi(client.get("/api/openapi.json").get_json())
    make_account(app, user_name="owner_a")
    make_account(app, user_name="operator", staff_role=StaffRole.OPERATOR)
    make_account(app, user_name="lab_admin")
    make_lab_admin(app, "lab_admin")
    identities = []
    for name in ("owner_a", "operator", "lab_admin"):
        headers = {**auth(login(client, name)), "Accept-Language": "en-US"}
        identities.append((name, headers, account_keys(client, headers)))

    operations = update_operations(openapi)
    assert len(operations) >= 35, [op.key for op in operations]
    swept = []
    with app.app_context():
        before = bola.fingerprint()
    for operation in operations:
        field = id_field(openapi, operation)
        if field is None:
            assert operation.key in SINGLETONS, f"{operation.key}: which field names the record?"
            continue
        content_type, body = openapi.body_schema(operation.spec)
        assert content_type == "application/json", operation.key
        declared = body["properties"][field]
        assert field in body.get("required", []), f"{operation.key}: {field} is not required"
        assert openapi.resolve(declared).get("minimum", 0) >= 1, f"{operation.key}: {field} may be 0"
        need = operation.spec.get("x-access") or {}
        caller = next((h for _, h, keys in identities if key_granted(keys, need.get("key"))), None)
        assert caller is not None, f"{operation.key}: no identity holds {need.get('key')}"
        sample = openapi.sample(body)
        for label, payload in (("missing", {k: v for k, v in sample.items() if k != field}), ("zero", sample)):
            if label == "zero":
                payload = {**payload, field: 0}
            response = getattr(client, operation.method)(operation.path, json=payload, headers=caller)
            answer = response.get_json()
            assert response.status_code == 422, (operation.key, label, response.status_code, answer)
            assert field in answer["data"]["errors"], (operation.key, label, answer)
            with app.app_context():
                after = bola.fingerprint()
            changed = sorted(name for name in after if after[name] != before[name])
            assert not changed, (operation.key, label, changed)
        swept.append(operation.key)
    assert "PUT /api/storage/ColdStorage/update" in swept
    assert "PUT /api/device/DevicePermissionTemplate/update" in swept
    assert len(swept) >= 34


TEMPLATE = {"name": "Viewers", "items": [{"permissionCode": "realtime", "viewStatus": 1, "setStatus": 0}]}
STORAGE = {"storageName": "North room"}


@pytest.mark.parametrize("lang, message", [("en-US", "Must be at least 1."), ("zh-CN", "不能小于 1。")])
def test_the_cases_of_the_issue_with_otherwise_valid_bodies(app, client, lang, message):
    """A body that would pass with a real id: id 0 is refused naming the field, nothing is created."""
    make_account(app)
    owner = {**auth(login(client)), "Accept-Language": lang}
    template_id = client.post(f"{DEVICE}/DevicePermissionTemplate/insert", json=TEMPLATE, headers=owner)
    template_id = template_id.get_json()["data"]["id"]
    storage = client.post("/api/storage/ColdStorage/insert", json=STORAGE, headers=owner).get_json()["data"]
    cases = [
        (f"{DEVICE}/DevicePermissionTemplate/update", "id", TEMPLATE, PermissionTemplate),
        ("/api/storage/ColdStorage/update", "storageId", STORAGE, ColdStorage),
    ]
    for url, field, body, model in cases:
        for value in (0, None):
            payload = {**body, field: value} if value is not None else dict(body)
            response = client.put(url, json=payload, headers=owner)
            answer = response.get_json()
            assert response.status_code == 422 and answer["code"] == 422, answer
            errors = answer["data"]["errors"][field]
            if value == 0:
                assert errors == [message]
            with app.app_context():
                assert db.session.query(model).count() == 1
    # The real ids still change what they name.
    renamed = {**TEMPLATE, "id": template_id, "name": "Renamed"}
    assert client.put(f"{DEVICE}/DevicePermissionTemplate/update", json=renamed, headers=owner).get_json()["code"] == 0
    moved = {**STORAGE, "storageId": storage["id"], "storageName": "South room"}
    assert client.put("/api/storage/ColdStorage/update", json=moved, headers=owner).get_json()["code"] == 0
    with app.app_context():
        assert [t.name for t in db.session.query(PermissionTemplate)] == ["Renamed"]
        assert [s.name for s in db.session.query(ColdStorage)] == ["South room"]


def test_the_services_never_read_a_zero_id_as_no_id(app, client):
    """Below the schema: a save given id 0 looks the record up (not found), it does not create."""
    from api.extensions.smorest import ApiError
    from api.sharing import services as sharing
    from api.storage import services as storage

    make_account(app)
    headers = auth(login(client))
    with app.test_request_context(
        "/api/storage/ColdStorage/update", method="PUT", headers={**headers, "Host": "localhost"}
    ):
        app.preprocess_request()  # the site and the signed-in account, as for a request
        with pytest.raises(ApiError) as refused:
            sharing.save_template({**TEMPLATE, "id": 0})
        assert refused.value.code == 404
        with pytest.raises(ApiError) as refused:
            storage.save(StorageKind.STORAGE, {**STORAGE, "storageId": 0, "images": [], "probes": None})
        assert refused.value.code == 404
        db.session.rollback()
        assert db.session.query(PermissionTemplate).count() == 0
        assert db.session.query(ColdStorage).count() == 0


def test_a_save_that_creates_without_an_id_refuses_id_0(app, client):
    """MessageTemplate/save creates when no id is sent and changes the template an id names: 0 is
    a 422 naming the field, not a new template."""
    from api.alarm.models import MessageTemplate

    make_account(app, user_name="operator", staff_role=StaffRole.OPERATOR)
    operator = {**auth(login(client, "operator")), "Accept-Language": "en-US"}
    body = {"msgName": "High temp", "type": "sms", "content": {"en-US": "{device} at {value}, limit {limit}"}}
    with app.app_context():
        before = db.session.query(MessageTemplate).count()
    answer = client.post("/api/alarm/MessageTemplate/save", json={**body, "id": 0}, headers=operator).get_json()
    assert answer["code"] == 422 and answer["data"]["errors"]["id"] == ["Must be at least 1."], answer
    with app.app_context():
        assert db.session.query(MessageTemplate).count() == before
    created = client.post("/api/alarm/MessageTemplate/save", json=body, headers=operator).get_json()
    assert created["code"] == 0, created
    with app.app_context():
        assert db.session.query(MessageTemplate).count() == before + 1
