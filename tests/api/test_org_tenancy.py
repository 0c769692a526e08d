"""Cross-organisation and cross-platform probes on every call of organisations, members, roles,
templates, shares, transfers, projects, assets and the operation log: another enterprise on the same
site and an account of the junjia platform get 404 / 403 / a refusal, see none of the rows in lists,
and nothing stored changes."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from api.asset.models import Asset, AssetDevice
from api.extensions.db import db
from api.organization.models import Organization, OrganizationDevice, OrganizationMember
from api.project.models import Project, ProjectDevice
from api.role.models import Role
from api.sharing.models import DeviceShare, DeviceTransfer, PermissionTemplate
from tests.api.account_helpers import StaffRole, auth, login, make_account
from tests.api.org_helpers import ACCOUNT, DEVICE, ORG, ROLE, build_enterprise, guids, ok
from tests.conftest import JUNJIA_HOST

__all__ = ["guids"]

TABLES = (
    Organization,
    OrganizationMember,
    OrganizationDevice,
    Role,
    PermissionTemplate,
    DeviceShare,
    DeviceTransfer,
    Project,
    ProjectDevice,
    Asset,
    AssetDevice,
)


def snapshot(app):
    with app.app_context():
        rows = {}
        for model in TABLES:
            columns = [c for c in model.__table__.columns if c.name not in ("created_at", "updated_at")]
            rows[model.__tablename__] = sorted(map(tuple, db.session.execute(select(*columns)).all()), key=repr)
        return rows


@pytest.fixture
def victim(app, client, guids):
    """demouser's enterprise with a member, a template, a share, a pending transfer, a project and
    an asset."""
    e = build_enterprise(app, client, guids, members=("observer",))
    make_account(app, user_name="friend_1")
    template = ok(
        client.post(f"{DEVICE}/DevicePermissionTemplate/insert", json={"name": "T", "items": []}, headers=e.owner)
    )
    share = ok(
        client.post(
            f"{DEVICE}/DeviceShare/insert",
            json={
                "deviceIds": [e.devices["th_b"]],
                "userName": "friend_1",
                "sharerName": "Friend",
                "templateId": template["id"],
                "expire": "1d",
            },
            headers=e.owner,
        )
    )[0]
    transfer = ok(
        client.post(
            f"{DEVICE}/DeviceTransfer/insert",
            json={"deviceId": e.devices["th_b"], "userName": "friend_1"},
            headers=e.owner,
        )
    )
    project = ok(
        client.post(
            "/api/base/BaseProject/insert",
            json={"projectName": "Vaccines", "deviceIds": [e.devices["th_a"]]},
            headers=e.owner,
        )
    )
    asset = ok(
        client.post(
            "/api/base/BaseAsset/insert",
            json={"combName": "Freezer A", "deviceIds": [e.devices["th_a"]]},
            headers=e.owner,
        )
    )
    return {
        "e": e,
        "template": template["id"],
        "share": share["id"],
        "transfer": transfer["id"],
        "project": project["id"],
        "asset": asset["id"],
        "observer": e.member_ids["observer"],
    }


def probes(v):
    e = v["e"]
    th_a = e.devices["th_a"]
    member = {"organizationId": e.branch, "accountId": v["observer"]}
    return [
        ("post", f"{ORG}/insert", {"name": "Intruders", "parentId": e.branch}),
        ("put", f"{ORG}/update", {"id": e.branch, "name": "Taken over", "parentId": None}),
        ("delete", f"{ORG}/delete/{e.branch}", None),
        ("put", f"{ORG}/transferCreator", {"organizationId": e.hq, "accountId": v["observer"]}),
        ("post", f"{ORG}/bindDevice", {"organizationId": e.branch, "deviceIds": [th_a]}),
        ("post", f"{ORG}/unbindDevice", {"organizationId": e.branch, "deviceIds": [th_a]}),
        ("post", f"{ORG}/devicePage", {"organizationId": e.branch}),
        ("post", f"{ACCOUNT}/invite", {"organizationId": e.branch, "email": "x@example.com", "inviterName": "Bob"}),
        ("post", f"{ACCOUNT}/organizationAddUser", {**member, "roleId": None}),
        ("delete", f"{ACCOUNT}/deleteInOrganization?organizationId={e.branch}&accountId={v['observer']}", None),
        ("put", f"{ACCOUNT}/updateAccountOrganizationRel", {**member, "newOrganizationId": e.hq, "roleId": None}),
        ("post", f"{ACCOUNT}/getAccountList/page", {"organizationId": e.branch}),
        ("put", f"{ROLE}/updateRoleInOrganization", {**member, "roleId": e.roles["Administrator"]}),
        ("put", f"{ROLE}/update", {"id": e.roles["Observer"], "roleName": "Mine", "permissions": []}),
        ("delete", f"{ROLE}/delete/{e.roles['Operator']}", None),
        ("put", f"{DEVICE}/DevicePermissionTemplate/update", {"id": v["template"], "name": "Mine", "items": []}),
        ("delete", f"{DEVICE}/DevicePermissionTemplate/delete/{v['template']}", None),
        (
            "post",
            f"{DEVICE}/DeviceShare/insert",
            {
                "deviceIds": [th_a],
                "userName": "friend_1",
                "sharerName": "Thief",
                "templateId": v["template"],
                "expire": "1d",
            },
        ),
        (
            "put",
            f"{DEVICE}/DeviceShare/update",
            {"id": v["share"], "sharerName": "Thief", "templateId": v["template"], "expire": "7d"},
        ),
        ("delete", f"{DEVICE}/DeviceShare/delete/{v['share']}", None),
        ("delete", f"{DEVICE}/DeviceShare/quit/{v['share']}", None),
        ("post", f"{DEVICE}/DeviceTransfer/insert", {"deviceId": th_a, "userName": "friend_1"}),
        ("put", f"{DEVICE}/DeviceTransfer/accept/{v['transfer']}", None),
        ("put", f"{DEVICE}/DeviceTransfer/reject/{v['transfer']}", None),
        ("put", f"{DEVICE}/DeviceTransfer/cancel/{v['transfer']}", None),
        ("put", "/api/base/BaseProject/update", {"id": v["project"], "projectName": "Mine", "deviceIds": []}),
        ("delete", f"/api/base/BaseProject/delete/{v['project']}", None),
        ("get", f"/api/base/BaseAsset/detail/{v['asset']}", None),
        ("put", "/api/base/BaseAsset/update", {"id": v["asset"], "combName": "Mine", "deviceIds": []}),
        ("put", f"/api/base/BaseAsset/disable/{v['asset']}", None),
        ("delete", f"/api/base/BaseAsset/delete/{v['asset']}", None),
        ("get", f"{DEVICE}/Device/detail/{th_a}", None),
    ]


LISTS = [
    ("get", f"{ORG}/tree", None),
    ("post", f"{ACCOUNT}/getAccountList/page", {}),
    ("post", f"{ACCOUNT}/queryUserByCondition", {}),
    ("post", f"{ROLE}/page", {}),
    ("get", f"{ROLE}/queryRoleByOrganizationType", None),
    ("get", f"{DEVICE}/DevicePermissionTemplate/list", None),
    ("post", f"{DEVICE}/DeviceShare/page", {}),
    ("post", f"{DEVICE}/DeviceShare/received", {}),
    ("post", f"{DEVICE}/DeviceTransfer/page", {}),
    ("post", "/api/base/BaseProject/page", {}),
    ("post", "/api/base/BaseAsset/page", {}),
    ("post", "/api/base/BaseOperationLog/page", {}),
    ("post", f"{DEVICE}/Device/page", {}),
]


def run_probes(app, client, headers, v):
    prober = ok(client.get(f"{ACCOUNT}/accountInfo", headers=headers))["baseAccount"]["id"]
    before = snapshot(app)
    for method, url, body in probes(v):
        response = getattr(client, method)(url, headers=headers, **({"json": body} if body is not None else {}))
        answer = response.get_json()
        assert response.status_code in (200, 403, 404, 422) and answer["code"] != 0, (url, answer)
    for method, url, body in LISTS:
        response = getattr(client, method)(url, headers=headers, **({"json": body} if body is not None else {}))
        data = ok(response)
        rows = data["list"] if isinstance(data, dict) else data
        if url.endswith("BaseOperationLog/page"):  # the prober's own calls only
            rows = [row for row in rows if row["accountId"] != prober]
        assert rows == [], (url, rows)
    assert snapshot(app) == before


def test_another_enterprise_on_the_same_site_reaches_nothing(app, client, victim):
    make_account(app, user_name="rival_1")
    run_probes(app, client, auth(login(client, "rival_1")), victim)


def test_an_account_of_another_platform_reaches_nothing(app, make_client, victim):
    junjia = make_client(JUNJIA_HOST)
    make_account(app, host=JUNJIA_HOST, user_name="reseller", staff_role=StaffRole.PLATFORM_ADMIN)
    run_probes(app, junjia, auth(login(junjia, "reseller")), victim)


def test_a_token_of_one_site_is_refused_on_the_other(app, client, make_client, victim):
    junjia = make_client(JUNJIA_HOST)
    response = junjia.get(f"{ORG}/tree", headers=victim["e"].owner)
    assert response.status_code == 401


def test_lookups_find_only_this_data_space(app, client, make_client, victim):
    e = victim["e"]
    make_account(app, host=JUNJIA_HOST, user_name="far_user", email="far@example.com")
    found = ok(
        client.get(
            f"{ACCOUNT}/getAccountInfoByEamil", query_string={"email": "member_observer@example.com"}, headers=e.owner
        )
    )
    assert found["name"] == "m**" and found["email"] == "me***@example.com" and "userName" not in found
    assert (
        ok(client.get(f"{ACCOUNT}/getAccountInfoByEamil", query_string={"email": "far@example.com"}, headers=e.owner))
        is None
    )
    assert ok(client.get(f"{ACCOUNT}/queryAccountByUEP", query_string={"keyword": "far_user"}, headers=e.owner)) is None
    body = client.post(
        f"{ACCOUNT}/organizationAddUser",
        json={"organizationId": e.branch, "accountId": make_account(app, host=JUNJIA_HOST, user_name="far_user2")},
        headers=e.owner,
    ).get_json()
    assert body["code"] == 404
