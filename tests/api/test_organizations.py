"""Organisations, members and invitations, roles, projects, assets and the operation log."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from api.audit.models import OperationLog, ReadOnlyLogError
from api.extensions.db import db
from tests.api.account_helpers import BASE, auth, last_code, login, make_account, providers
from tests.api.org_helpers import ACCOUNT, DEVICE, ORG, build_enterprise, guids, ok

__all__ = ["guids", "providers"]

ASSET = "/api/base/BaseAsset"
PROJECT = "/api/base/BaseProject"


class TestTree:
    def test_tree_move_and_limits(self, app, client, guids):
        e = build_enterprise(app, client, guids, members=())
        night = ok(client.post(f"{ORG}/insert", json={"name": "Night Shift", "parentId": e.branch}, headers=e.owner))
        [hq] = ok(client.get(f"{ORG}/tree", headers=e.owner))
        assert hq["name"] == "Cold Chain HQ" and hq["children"][0]["children"][0]["name"] == "Night Shift"
        assert hq["children"][0]["deviceCount"] == 1
        counts = ok(client.get(f"{DEVICE}/Device/statusCount", headers=e.owner))
        assert counts["all"] == 2 and counts["organization"] == 1
        # Moving under its own descendant is refused; moving to the top changes the tree.
        body = client.put(
            f"{ORG}/update", json={"id": e.branch, "name": "Shanghai Branch", "parentId": night["id"]}, headers=e.owner
        ).get_json()
        assert body["code"] == 4007
        ok(
            client.put(
                f"{ORG}/update", json={"id": night["id"], "name": "Night Shift", "parentId": e.hq}, headers=e.owner
            )
        )
        [hq] = ok(client.get(f"{ORG}/tree", headers=e.owner))
        assert sorted(c["name"] for c in hq["children"]) == ["Night Shift", "Shanghai Branch"]
        for name in ("A", "X" * 51):
            body = client.post(f"{ORG}/insert", json={"name": name}, headers=e.owner).get_json()
            assert body["code"] == 422 and "name" in body["data"]["errors"]
        assert client.delete(f"{ORG}/delete/{e.hq}", headers=e.owner).get_json()["code"] == 4008
        ok(client.delete(f"{ORG}/delete/{night['id']}", headers=e.owner))

    def test_transfer_creator_identity(self, app, client, guids):
        e = build_enterprise(app, client, guids, members=("admin",))
        ok(
            client.put(
                f"{ORG}/transferCreator",
                json={"organizationId": e.hq, "accountId": e.member_ids["admin"]},
                headers=e.owner,
            )
        )
        [hq] = ok(client.get(f"{ORG}/tree", headers=e.members["admin"]))
        assert hq["creatorName"] == "member_admin"
        info = ok(client.get(f"{BASE}/accountInfo", headers=e.owner))
        assert {"organizationId": e.hq, "organizationName": "Cold Chain HQ", "roleName": "管理员"} in info[
            "orgWithMyRole"
        ]
        # The old creator is now a member holding Administrator: still sees the organisation's device.
        assert ok(client.get(f"{DEVICE}/Device/detail/{e.devices['th_a']}", headers=e.owner))["id"]
        body = client.put(
            f"{ORG}/transferCreator", json={"organizationId": e.hq, "accountId": e.member_ids["admin"]}, headers=e.owner
        )
        assert body.get_json()["code"] == 4009


class TestMembers:
    def test_add_move_remove_and_list(self, app, client, guids):
        e = build_enterprise(app, client, guids, members=("observer",))
        observer = e.member_ids["observer"]
        page = ok(client.post(f"{ACCOUNT}/getAccountList/page", json={}, headers=e.owner))
        assert page["total"] == 1 and page["list"][0]["roleName"] == "观察员"
        again = client.post(
            f"{ACCOUNT}/organizationAddUser", json={"organizationId": e.branch, "accountId": observer}, headers=e.owner
        )
        assert again.get_json()["msg"] == "该用户已在列表中"
        ok(
            client.put(
                f"{ACCOUNT}/updateAccountOrganizationRel",
                json={
                    "accountId": observer,
                    "organizationId": e.branch,
                    "newOrganizationId": e.hq,
                    "roleId": e.roles["Operator"],
                },
                headers=e.owner,
            )
        )
        found = ok(
            client.post(
                f"{ACCOUNT}/queryUserByCondition",
                json={"userName": "observer", "roleId": e.roles["Operator"]},
                headers=e.owner,
            )
        )
        assert found["list"][0]["organizationName"] == "Cold Chain HQ"
        ok(
            client.delete(
                f"{ACCOUNT}/deleteInOrganization",
                query_string={"organizationId": e.hq, "accountId": observer},
                headers=e.owner,
            )
        )
        assert ok(client.post(f"{ACCOUNT}/getAccountList/page", json={}, headers=e.owner))["total"] == 0
        # No longer a member: its own grants again, and the organisation's device is gone.
        assert (
            client.get(f"{DEVICE}/Device/detail/{e.devices['th_a']}", headers=e.members["observer"]).status_code == 404
        )

    def test_invite_registered_adds_at_once(self, app, client, guids):
        e = build_enterprise(app, client, guids, members=())
        make_account(app, user_name="known_1", phone="+8613900139002")
        result = ok(
            client.post(
                f"{ACCOUNT}/invite",
                json={
                    "organizationId": e.branch,
                    "phone": "13900139002",
                    "inviterName": "Demo",
                    "roleId": e.roles["Observer"],
                },
                headers=e.owner,
            )
        )
        assert result == {"added": True, "invited": False}
        assert (
            ok(client.post(f"{ACCOUNT}/getAccountList/page", json={}, headers=e.owner))["list"][0]["userName"]
            == "known_1"
        )

    def test_invite_unregistered_email_then_register_joins(self, app, client, guids, run_jobs, providers):
        inbox, _ = providers
        e = build_enterprise(app, client, guids, members=())
        bad = client.post(
            f"{ACCOUNT}/invite",
            json={"organizationId": e.branch, "email": "new.member@example.com", "inviterName": "D"},
            headers=e.owner,
        )
        assert "inviterName" in bad.get_json()["data"]["errors"]
        result = ok(
            client.post(
                f"{ACCOUNT}/invite",
                json={
                    "organizationId": e.branch,
                    "email": "new.member@example.com",
                    "inviterName": "Demo",
                    "roleId": e.roles["Observer"],
                },
                headers=e.owner,
            )
        )
        assert result == {"added": False, "invited": True}
        run_jobs()
        [invitation] = inbox.bodies_to("new.member@example.com")
        assert "Shanghai Branch" in invitation and re.search(r"/user/register\?invitation=\S+", invitation)
        client.get(f"{BASE}/code/email", query_string={"email": "new.member@example.com", "type": "register"})
        run_jobs()
        code = last_code(inbox.bodies_to("new.member@example.com"))
        password = "Fresh#2027"
        token = ok(
            client.post(
                f"{BASE}/register",
                json={
                    "accountType": "personal",
                    "userName": "new_member",
                    "email": "new.member@example.com",
                    "password": password,
                    "confirmPassword": password,
                    "code": code,
                },
            )
        )["token"]
        info = ok(client.get(f"{BASE}/accountInfo", headers=auth(token)))
        assert info["orgWithMyRole"] == [
            {"organizationId": e.branch, "organizationName": "Shanghai Branch", "roleName": "观察员"}
        ]
        assert "device.list.edit" not in info["permissionRoutes"]

    def test_accept_invitation_by_token(self, app, client, guids):
        from api.notify.models import OutboundMessage

        e = build_enterprise(app, client, guids, members=())
        ok(
            client.post(
                f"{ACCOUNT}/invite",
                json={"organizationId": e.hq, "phone": "13900139003", "inviterName": "Demo"},
                headers=e.owner,
            )
        )
        with app.app_context():
            body = db.session.scalars(select(OutboundMessage)).one().body
        token = re.search(r"invitation=(\S+)", body).group(1)
        make_account(app, user_name="other_phone")
        other = auth(login(client, "other_phone"))
        assert (
            ok(client.post(f"{ACCOUNT}/acceptInvite", json={"token": token}, headers=other))["organizationId"] == e.hq
        )
        assert client.post(f"{ACCOUNT}/acceptInvite", json={"token": token}, headers=other).get_json()["code"] == 4012


class TestProjectsAndAssets:
    def test_project_limits_and_devices(self, app, client, guids):
        e = build_enterprise(app, client, guids, members=())
        for name in ("A", "X" * 21):
            assert (
                client.post(f"{PROJECT}/insert", json={"projectName": name}, headers=e.owner).get_json()["code"] == 422
            )
        project = ok(
            client.post(
                f"{PROJECT}/insert", json={"projectName": "Vaccines", "deviceIds": [e.devices["th_a"]]}, headers=e.owner
            )
        )
        assert project["deviceIds"] == [e.devices["th_a"]]
        ok(
            client.put(
                f"{PROJECT}/update",
                json={"id": project["id"], "projectName": "Vaccines", "deviceIds": [e.devices["th_b"]]},
                headers=e.owner,
            )
        )
        assert ok(client.post(f"{PROJECT}/page", json={}, headers=e.owner))["list"][0]["deviceIds"] == [
            e.devices["th_b"]
        ]

    def test_asset_limits(self, app, client, guids):
        e = build_enterprise(app, client, guids, members=())
        for field, size in (
            ("combName", 101),
            ("combNum", 51),
            ("brand", 51),
            ("model", 51),
            ("volume", 51),
            ("remark", 201),
        ):
            body = client.post(f"{ASSET}/insert", json={"combName": "A", field: "X" * size}, headers=e.owner).get_json()
            assert body["code"] == 422 and field in body["data"]["errors"], field
        six = client.post(
            f"{ASSET}/insert", json={"combName": "A", "deviceIds": [1, 2, 3, 4, 5, 6]}, headers=e.owner
        ).get_json()
        assert six["code"] == 422 and "deviceIds" in six["data"]["errors"]
        twice = client.post(
            f"{ASSET}/insert",
            json={"combName": "A", "custom": [{"key": "Room", "value": "1"}, {"key": "Room", "value": "2"}]},
            headers=e.owner,
        ).get_json()
        assert twice["code"] == 422 and "custom" in twice["data"]["errors"]

    def test_disabling_an_asset_disables_its_devices_and_calls_the_alarm_hook(self, app, client, guids):
        from api.asset import hooks

        calls = []
        handler = hooks.on_asset_devices_switched(lambda ids, enabled: calls.append((sorted(ids), enabled)))
        try:
            e = build_enterprise(app, client, guids, members=())
            th_a, th_b = e.devices["th_a"], e.devices["th_b"]
            ok(client.put(f"{DEVICE}/Device/stopUsing/{th_b}", headers=e.owner))  # already off: stays off after
            asset = ok(
                client.post(
                    f"{ASSET}/insert",
                    json={
                        "combName": "Freezer A",
                        "custom": [{"key": "Room", "value": "B2"}],
                        "deviceIds": [th_a, th_b],
                    },
                    headers=e.owner,
                )
            )
            assert asset["custom"] == [{"key": "Room", "value": "B2"}]
            disabled = ok(client.put(f"{ASSET}/disable/{asset['id']}", headers=e.owner))
            assert disabled["enabled"] is False and {d["useFlag"] for d in disabled["devices"]} == {False}
            assert calls == [([th_a], False)]
            enabled = ok(client.put(f"{ASSET}/enable/{asset['id']}", headers=e.owner))
            assert {d["id"]: d["useFlag"] for d in enabled["devices"]} == {th_a: True, th_b: False}
            assert calls[-1] == ([th_a], True)
        finally:
            hooks.SWITCH_HANDLERS.remove(handler)


class TestOperationLog:
    def test_mutations_are_recorded_with_before_and_after_and_cannot_be_changed(self, app, client, guids):
        e = build_enterprise(app, client, guids, members=("admin",))
        ok(
            client.put(
                f"{ORG}/update",
                json={"id": e.branch, "name": "Pudong Branch", "parentId": e.hq},
                headers=e.members["admin"],
            )
        )
        page = ok(client.post("/api/base/BaseOperationLog/page", json={"keyword": "organization"}, headers=e.owner))
        entry = page["list"][0]
        assert entry["userName"] == "member_admin" and entry["method"] == "PUT"
        assert entry["path"] == f"{ORG}/update" and entry["target"] == f"organization#{e.branch}"
        assert entry["permissionKey"] == "organization.list.edit"  # the page names it in the reader's language
        assert entry["before"][0]["values"]["name"] == "Shanghai Branch"
        assert entry["after"][0]["values"]["name"] == "Pudong Branch"
        assert client.put("/api/base/BaseOperationLog/page", json={}, headers=e.owner).status_code == 405
        with app.app_context():
            row = db.session.get(OperationLog, entry["id"])
            row.summary = "forged"
            with pytest.raises(ReadOnlyLogError):
                db.session.commit()
            db.session.rollback()

    def test_queries_are_not_recorded_and_passwords_are_redacted(self, app, client, guids):
        e = build_enterprise(app, client, guids, members=())
        ok(client.post(f"{ORG}/tree".replace("tree", "devicePage"), json={"organizationId": e.hq}, headers=e.owner))
        with app.app_context():
            paths = {row.path for row in db.session.scalars(select(OperationLog))}
            hashes = [
                values
                for row in db.session.scalars(select(OperationLog))
                for change in row.after
                for key, values in change["values"].items()
                if "hash" in key
            ]
        assert f"{ORG}/devicePage" not in paths and f"{ORG}/insert" in paths
        assert all(value == "***" for value in hashes)


def test_demo_seed_has_an_organization_a_sub_user_and_a_share(app, client):
    from datetime import timedelta

    from api import demo

    with app.app_context():
        demo.seed(backfill=timedelta(0))
        logins = demo.seed(backfill=timedelta(0))  # idempotent
    assert ("demomember", "Cold#2026") in logins and ("demoviewer", "Cold#2026") in logins
    member = auth(login(client, "demomember"))
    info = ok(client.get(f"{BASE}/accountInfo", headers=member))
    assert info["orgWithMyRole"][0]["roleName"] == "观察员"
    assert [d["deviceName"] for d in ok(client.post(f"{DEVICE}/Device/page", json={}, headers=member))["list"]] == [
        "Cold Room 1"
    ]
    viewer = auth(login(client, "demoviewer"))
    [shared] = ok(client.post(f"{DEVICE}/Device/page", json={}, headers=viewer))["list"]
    assert shared["deviceName"] == "Pharmacy Fridge" and "2" not in shared["values"]
