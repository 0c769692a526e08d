"""Looking other accounts up by phone, email or user name (issue 15): only managers, and only what an
invitation needs (whether it can be added, a masked name and contact, a ticket for organizationAddUser)."""

from __future__ import annotations

import pytest

from tests.api.account_helpers import auth, login, make_account
from tests.api.org_helpers import ACCOUNT, ORG, ROLE, member_ticket, ok

LOOKUPS = [
    ("getAccountInfoByEamil", {"email": "target.person@example.com"}),
    ("getAccountInfoByPhone", {"phone": "13900139077"}),
    ("queryAccountByUEP", {"keyword": "target_person"}),
]


@pytest.fixture
def site(app, client):
    """demouser creates an organisation; `lister` is a member whose role may list members but not add
    them; `target_person` is any other account of the site."""
    make_account(app)
    owner = auth(login(client))
    organization = ok(client.post(f"{ORG}/insert", json={"name": "Cold Chain HQ"}, headers=owner))["id"]
    role = ok(
        client.post(
            f"{ROLE}/insert", json={"roleName": "Lister", "permissions": ["consumer.list.query"]}, headers=owner
        )
    )["id"]
    lister_id = make_account(app, user_name="lister_1")
    ok(
        client.post(
            f"{ACCOUNT}/organizationAddUser",
            json={"organizationId": organization, "ticket": member_ticket(client, owner, "lister_1"), "roleId": role},
            headers=owner,
        )
    )
    target = make_account(
        app, user_name="target_person", real_name="Zhang Wei", email="target.person@example.com", phone="+8613900139077"
    )
    return {
        "owner": owner,
        "organization": organization,
        "lister": auth(login(client, "lister_1")),
        "lister_id": lister_id,
        "target": target,
    }


@pytest.mark.parametrize(("path", "query"), LOOKUPS)
def test_a_manager_gets_only_what_an_invitation_needs(client, site, path, query):
    found = ok(client.get(f"{ACCOUNT}/{path}", query_string=query, headers=site["owner"]))
    assert set(found) == {"canInvite", "name", "phone", "email", "ticket"}
    assert found["canInvite"] is True and found["name"] == "Z**"
    assert found["email"] == "ta***@example.com" and found["phone"] == "+86139****9077"
    assert "target_person" not in str(found) and "Zhang Wei" not in str(found)


@pytest.mark.parametrize(("path", "query"), LOOKUPS)
def test_a_member_who_may_not_add_members_learns_nothing(make_client, site, path, query):
    # The call declares the member-add key (consumer.list.add): the access gate refuses before the
    # service runs, as for every key the account lacks.
    response = make_client(lang="en-US").get(f"{ACCOUNT}/{path}", query_string=query, headers=site["lister"])
    assert response.status_code == 403
    assert response.get_json() == {"code": 403, "msg": "Access Denied", "data": None}


def test_the_ticket_adds_the_account_and_only_for_its_manager(app, client, site):
    found = ok(
        client.get(
            f"{ACCOUNT}/getAccountInfoByEamil",
            query_string={"email": "target.person@example.com"},
            headers=site["owner"],
        )
    )
    # Another manager (a stranger with an organisation of its own) cannot use demouser's ticket.
    make_account(app, user_name="other_manager")
    other = auth(login(client, "other_manager"))
    own_org = ok(client.post(f"{ORG}/insert", json={"name": "Other HQ"}, headers=other))["id"]
    stolen = client.post(
        f"{ACCOUNT}/organizationAddUser", json={"organizationId": own_org, "ticket": found["ticket"]}, headers=other
    ).get_json()
    assert stolen["code"] == 422 and "ticket" in stolen["data"]["errors"]
    forged = client.post(
        f"{ACCOUNT}/organizationAddUser",
        json={"organizationId": site["organization"], "ticket": found["ticket"][:-2] + "xx"},
        headers=site["owner"],
    ).get_json()
    assert forged["code"] == 422 and "ticket" in forged["data"]["errors"]
    added = ok(
        client.post(
            f"{ACCOUNT}/organizationAddUser",
            json={"organizationId": site["organization"], "ticket": found["ticket"]},
            headers=site["owner"],
        )
    )
    assert added["accountId"] == site["target"]


def test_add_needs_an_account_or_a_ticket(client, site):
    body = client.post(
        f"{ACCOUNT}/organizationAddUser", json={"organizationId": site["organization"]}, headers=site["owner"]
    ).get_json()
    assert body["code"] == 422 and "ticket" in body["data"]["errors"]


def test_looking_oneself_up_cannot_invite(client, site, app):
    make_account(app, email="demouser@example.com")
    found = ok(
        client.get(
            f"{ACCOUNT}/getAccountInfoByEamil", query_string={"email": "demouser@example.com"}, headers=site["owner"]
        )
    )
    assert found["canInvite"] is False and found["ticket"] is None


def test_a_bare_account_id_adds_only_a_colleague(app, client, site):
    """Ids are sequential: a bare accountId for someone outside the manager's organisations is
    unknown (404) so that ids cannot be tried for names; a colleague moves by id."""
    stranger = client.post(
        f"{ACCOUNT}/organizationAddUser",
        json={"organizationId": site["organization"], "accountId": site["target"]},
        headers=site["owner"],
    ).get_json()
    assert stranger["code"] == 404
    team = ok(
        client.post(
            f"{ORG}/insert", json={"name": "Night Shift", "parentId": site["organization"]}, headers=site["owner"]
        )
    )
    lister = ok(client.get(f"{ACCOUNT}/queryAccountByUEP", query_string={"keyword": "lister_1"}, headers=site["owner"]))
    assert lister["canInvite"] is True
    member = {"organizationId": site["organization"], "accountId": site["lister_id"]}
    again = client.post(f"{ACCOUNT}/organizationAddUser", json=member, headers=site["owner"]).get_json()
    assert again["msg"] == "该用户已在列表中"  # known to the manager: the usual answer, not 404
    moved = ok(
        client.post(
            f"{ACCOUNT}/organizationAddUser",
            json={"organizationId": team["id"], "accountId": site["lister_id"]},
            headers=site["owner"],
        )
    )
    assert moved["accountId"] == site["lister_id"]
