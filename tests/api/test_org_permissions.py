"""The permission matrix: each preset role (and a custom role without device edit) against each
action of organisations, members, roles, devices, projects, assets and the operation log, through
the API. Allowed means the call succeeds; refused means HTTP 403 and nothing changed."""

from __future__ import annotations

import pytest

from tests.api.org_helpers import ACCOUNT, DEVICE, ORG, ROLE, build_enterprise, guids, ok

__all__ = ["guids"]

# action -> (method, path, json body factory(enterprise)); run in this order (destructive last).
ACTIONS = {
    "device.list": ("post", f"{DEVICE}/Device/page", lambda e: {}),
    "device.detail": ("get", lambda e: f"{DEVICE}/Device/detail/{e.devices['th_a']}", None),
    "device.edit": ("put", f"{DEVICE}/Device/update", lambda e: {"deviceId": e.devices["th_a"], "remark": "checked"}),
    "device.disable": ("put", lambda e: f"{DEVICE}/Device/stopUsing/{e.devices['th_a']}", None),
    "organization.tree": ("get", f"{ORG}/tree", None),
    "organization.add": ("post", f"{ORG}/insert", lambda e: {"name": "Night Shift", "parentId": e.branch}),
    "member.list": ("post", f"{ACCOUNT}/getAccountList/page", lambda e: {}),
    "member.role": (
        "put",
        f"{ROLE}/updateRoleInOrganization",
        lambda e: {"organizationId": e.branch, "accountId": e.member_ids["observer"], "roleId": e.roles["Observer"]},
    ),
    "role.list": ("post", f"{ROLE}/page", lambda e: {}),
    "role.add": ("post", f"{ROLE}/insert", lambda e: {"roleName": "Auditor", "permissions": ["operation.log"]}),
    "project.list": ("post", "/api/base/BaseProject/page", lambda e: {}),
    "project.add": ("post", "/api/base/BaseProject/insert", lambda e: {"projectName": "Vaccines"}),
    "asset.list": ("post", "/api/base/BaseAsset/page", lambda e: {}),
    "asset.add": ("post", "/api/base/BaseAsset/insert", lambda e: {"combName": "Freezer A"}),
    "log.list": ("post", "/api/base/BaseOperationLog/page", lambda e: {}),
    "device.delete": ("delete", lambda e: f"{DEVICE}/Device/delete/{e.devices['th_a']}", None),
}
ALL = set(ACTIONS)
MATRIX = {
    "admin": ALL,
    "operator": {
        "device.list",
        "device.detail",
        "device.edit",
        "device.disable",
        "organization.tree",
        "project.list",
        "asset.list",
    },
    "observer": {"device.list", "device.detail", "organization.tree", "project.list", "asset.list"},
    "no_edit": {"device.list", "device.detail", "member.list"},
}


def call(client, enterprise, headers, action):
    method, path, body = ACTIONS[action]
    url = path(enterprise) if callable(path) else path
    kwargs = {"json": body(enterprise)} if body else {}
    return getattr(client, method)(url, headers=headers, **kwargs)


@pytest.mark.parametrize("role", sorted(MATRIX))
def test_role_matrix(app, client, guids, role):
    enterprise = build_enterprise(app, client, guids, members=("admin", "operator", "observer", "no_edit"))
    # A custom role: devices and members listed, no device.list.edit (the owner gives it).
    custom = ok(
        client.post(
            f"{ROLE}/insert",
            json={"roleName": "No edit", "permissions": ["device.list.query", "consumer.list.query"]},
            headers=enterprise.owner,
        )
    )
    ok(
        client.put(
            f"{ROLE}/updateRoleInOrganization",
            json={
                "organizationId": enterprise.branch,
                "accountId": enterprise.member_ids["no_edit"],
                "roleId": custom["id"],
            },
            headers=enterprise.owner,
        )
    )
    headers = enterprise.members[role]
    outcomes = {}
    for action in ACTIONS:
        response = call(client, enterprise, headers, action)
        body = response.get_json()
        if response.status_code == 403:
            outcomes[action] = "refused"
        else:
            assert body["code"] == 0, (role, action, body)
            outcomes[action] = "allowed"
    expected = {action: "allowed" if action in MATRIX[role] else "refused" for action in ACTIONS}
    assert outcomes == expected


def test_refused_edit_changes_nothing_and_permission_routes_follow_the_role(app, client, guids):
    enterprise = build_enterprise(app, client, guids, members=("observer",))
    headers = enterprise.members["observer"]
    response = client.put(
        f"{DEVICE}/Device/update",
        json={"deviceId": enterprise.devices["th_a"], "deviceName": "Hijacked"},
        headers=headers,
    )
    assert response.status_code == 403
    detail = ok(client.get(f"{DEVICE}/Device/detail/{enterprise.devices['th_a']}", headers=enterprise.owner))
    assert detail["deviceName"] == "Branch Fridge"
    info = ok(client.get(f"{ACCOUNT}/accountInfo", headers=headers))
    routes = set(info["permissionRoutes"])
    assert "device.list.query" in routes and "device.list.edit" not in routes and "device.list" not in routes
    assert "consumer.info" in routes and "operation.log" not in routes
    assert info["orgWithMyRole"] == [
        {"organizationId": enterprise.branch, "organizationName": "Shanghai Branch", "roleName": "观察员"}
    ]
    # The member sees the organisation's device but not the owner's own one.
    listed = {d["id"] for d in ok(client.post(f"{DEVICE}/Device/page", json={}, headers=headers))["list"]}
    assert listed == {enterprise.devices["th_a"]}


def test_unknown_permission_keys_are_refused(app, client, guids):
    enterprise = build_enterprise(app, client, guids, members=())
    body = client.post(
        f"{ROLE}/insert", json={"roleName": "Staff", "permissions": ["operation.device"]}, headers=enterprise.owner
    ).get_json()
    assert body["code"] == 422 and "permissions" in body["data"]["errors"]
