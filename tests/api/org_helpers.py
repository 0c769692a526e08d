"""An enterprise with an organisation tree, members holding the preset roles, devices and data."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from tests.api.account_helpers import auth, login, make_account
from tests.api.device_helpers import add, guids, minutes_ago, upload

__all__ = ["guids"]

ORG = "/api/base/BaseOrganization"
ACCOUNT = "/api/base/BaseAccount"
ROLE = "/api/base/BaseRole"
DEVICE = "/api/device"


def ok(response):
    body = response.get_json()
    assert body["code"] == 0, body
    return body["data"]


@dataclass
class Enterprise:
    owner: dict
    hq: int
    branch: int
    roles: dict[str, int]
    members: dict[str, dict] = field(default_factory=dict)
    member_ids: dict[str, int] = field(default_factory=dict)
    devices: dict[str, int] = field(default_factory=dict)


def build_enterprise(app, client, guids, *, members=("admin", "operator", "observer")) -> Enterprise:
    """demouser creates HQ > Shanghai branch, places th_a in the branch, keeps th_b for itself, and
    adds one member per preset role (member_admin holds Administrator ...)."""
    make_account(app)
    owner = auth(login(client))
    hq = ok(client.post(f"{ORG}/insert", json={"name": "Cold Chain HQ"}, headers=owner))["id"]
    branch = ok(client.post(f"{ORG}/insert", json={"name": "Shanghai Branch", "parentId": hq}, headers=owner))["id"]
    english = {**owner, "Accept-Language": "en-US"}  # the preset roles by their English names
    roles = {r["roleName"]: r["id"] for r in ok(client.get(f"{ROLE}/queryRoleByOrganizationType", headers=english))}
    enterprise = Enterprise(owner, hq, branch, roles)
    enterprise.devices["th_a"] = add(client, owner, guids["th_a"][0], "Branch Fridge")
    enterprise.devices["th_b"] = add(client, owner, guids["th_b"][0], "Own Fridge")
    ok(
        client.post(
            f"{ORG}/bindDevice",
            json={"organizationId": branch, "deviceIds": [enterprise.devices["th_a"]]},
            headers=owner,
        )
    )
    for name in members:
        user_name = f"member_{name}"
        account_id = make_account(app, user_name=user_name, email=f"{user_name}@example.com")
        role = {"admin": "Administrator", "operator": "Operator", "observer": "Observer"}.get(name)
        role_id = roles[role] if role else None
        ok(
            client.post(
                f"{ACCOUNT}/organizationAddUser",
                json={"organizationId": branch, "ticket": member_ticket(client, owner, user_name), "roleId": role_id},
                headers=owner,
            )
        )
        enterprise.members[name] = auth(login(client, user_name))
        enterprise.member_ids[name] = account_id
    return enterprise


def member_ticket(client, headers, user_name: str) -> str:
    """What a manager adds a new member with: the account lookup's ticket (a bare id is only for colleagues)."""
    found = ok(client.get(f"{ACCOUNT}/queryAccountByUEP", query_string={"keyword": user_name}, headers=headers))
    return found["ticket"]


def send_readings(client, guids, name, readings: dict, minutes: float = 1):
    guid, key = guids[name]
    response = upload(client, guid, key, [{"ts": minutes_ago(minutes), "readings": readings}])
    assert response.get_json()["code"] == 0, response.get_json()


@pytest.fixture
def enterprise(app, client, guids):
    return build_enterprise(app, client, guids)
