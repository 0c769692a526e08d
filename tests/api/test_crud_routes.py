"""The calls `register_crud` writes (api/extensions/crud.py) declare what a hand-written call would:
the permission key down to the action, the 404 of a missing object on calls that name one, the
docstring as summary, and they answer through the envelope."""

from __future__ import annotations

import pytest

from tests.api.account_helpers import auth, login, make_account

ASSET = "/api/base/BaseAsset"
# (path, method, action, names an object)
CALLS = [
    (f"{ASSET}/page", "post", "query", False),
    (f"{ASSET}/detail/{{asset_id}}", "get", "query", True),
    (f"{ASSET}/insert", "post", "add", False),
    (f"{ASSET}/update", "put", "edit", True),
    (f"{ASSET}/delete/{{asset_id}}", "delete", "delete", True),
]


def test_generated_calls_declare_key_action_and_404(client):
    paths = client.get("/api/openapi.json").get_json()["paths"]
    for path, method, action, names_object in CALLS:
        operation = paths[path][method]
        assert operation["x-access"] == {"key": f"asset.list.{action}"}, path
        assert ("404" in operation["responses"]) is names_object, path
        assert operation["summary"], path
    assert paths[f"{ASSET}/detail/{{asset_id}}"]["get"]["summary"] == "One asset with its devices."


def test_generated_calls_work_end_to_end(app, client):
    make_account(app, user_name="asset_owner")
    headers = auth(login(client, "asset_owner"))
    created = client.post(f"{ASSET}/insert", json={"combName": "Reefer 7"}, headers=headers).get_json()
    assert created["code"] == 0, created
    asset_id = created["data"]["id"]
    listed = client.post(f"{ASSET}/page", json={}, headers=headers).get_json()["data"]
    assert [a["id"] for a in listed["list"]] == [asset_id]
    assert client.get(f"{ASSET}/detail/{asset_id}", headers=headers).get_json()["data"]["combName"] == "Reefer 7"
    assert client.delete(f"{ASSET}/delete/{asset_id}", headers=headers).get_json()["code"] == 0
    assert client.get(f"{ASSET}/detail/{asset_id}", headers=headers).status_code == 404


def test_a_storage_kind_declares_its_calls_with_their_needs(client):
    """The storage calls, declared through register_crud's Actions, keep their permission keys,
    object checks and 404s (what the factory storage/routes.py kept before declared)."""
    paths = client.get("/api/openapi.json").get_json()["paths"]
    push = paths["/api/storage/Freezer/pushSetting/save"]["post"]
    assert push["x-access"] == {
        "access": "operate",
        "arg": "storageId",
        "block": None,
        "key": "freezer.list.edit",
        "object": "storage",
    }
    assert "404" in push["responses"]
    counts = paths["/api/storage/ColdStorage/statusCount"]["get"]
    assert counts["x-access"] == {"key": "storage.list.query"} and "404" not in counts["responses"]
    report = paths["/api/storage/VirtualStorage/report"]["post"]
    assert report["x-access"]["key"] == "storage.list.export" and report["x-access"]["arg"] == "storageId"
    for entity in ("ColdStorage", "Freezer", "VirtualStorage"):
        calls = [path for path in paths if path.startswith(f"/api/storage/{entity}/")]
        # the five and ten Actions; ColdStorage also has its hand-written image calls
        assert len(calls) == (17 if entity == "ColdStorage" else 15), (entity, calls)


def test_an_action_without_arguments_is_refused_at_registration():
    """An Action reads its arguments: one declared without a schema fails when the area registers it,
    not on its first request."""
    from api.extensions.crud import Action, Call, register_crud
    from api.extensions.smorest import Blueprint

    blp = Blueprint("crud_probe", __name__, url_prefix="/api/probe")
    action = Action("Archive", "/archive", "post", "edit", Call(lambda args: None, "Archive one."))
    with pytest.raises(TypeError, match="ThingArchive"):
        register_crud(blp, "Thing", key="thing", item=None, missing="No thing", id_name="thing_id", actions=[action])
