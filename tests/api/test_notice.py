"""Notices: published per site, sanitised, shown to signed-in users, managed by staff only."""

from __future__ import annotations

import pytest

from api.identity.models import StaffRole
from tests.api.account_helpers import auth, login, make_account

NOTICE = "/api/base/BaseNotice"


@pytest.fixture
def staff(app, client):
    make_account(app, user_name="operator", staff_role=StaffRole.OPERATOR)
    return auth(login(client, "operator"))


@pytest.fixture
def user(app, client):
    make_account(app)
    return auth(login(client))


def publish(client, headers, **fields):
    payload = {"noticeTitle": "Maintenance", "noticeContent": "<p>Tonight 22:00</p>", **fields}
    body = client.post(f"{NOTICE}/insert", json=payload, headers=headers).get_json()
    assert body["code"] == 0, body
    return body["data"]


def test_rich_text_is_sanitised(client, staff):
    notice = publish(
        client, staff, noticeContent='<p onclick="x()">Hi<script>alert(1)</script><a href="javascript:x">l</a></p>'
    )
    assert "script" not in notice["noticeContent"]
    assert "onclick" not in notice["noticeContent"]
    assert "javascript:" not in notice["noticeContent"]
    assert "<p>Hi" in notice["noticeContent"]


def test_users_see_enabled_notices_of_their_campaign(client, staff, user):
    publish(client, staff, noticeTitle="For everyone")
    publish(client, staff, noticeTitle="Hidden", enabled=False)
    publish(client, staff, noticeTitle="Default campaign", noticeCamp=1)
    body = client.post(
        f"{NOTICE}/queryNotice", json={"noticePlatform": 1, "noticeType": 1, "noticeCamp": 0}, headers=user
    ).get_json()
    assert [n["noticeTitle"] for n in body["data"]] == ["For everyone"]
    body = client.post(f"{NOTICE}/queryNotice", json={"noticeCamp": 1}, headers=user).get_json()
    assert [n["noticeTitle"] for n in body["data"]] == ["Default campaign"]


def test_update_changes_only_non_empty_fields(client, staff):
    notice = publish(client, staff)
    body = client.put(
        f"{NOTICE}/updateWithNotEmptyFiled",
        json={"noticeId": notice["noticeId"], "noticeTitle": "Moved", "noticeContent": ""},
        headers=staff,
    ).get_json()
    assert body["code"] == 422  # an empty content is refused, not written


def test_update_and_page(client, staff):
    notice = publish(client, staff)
    client.put(
        f"{NOTICE}/updateWithNotEmptyFiled",
        json={"noticeId": notice["noticeId"], "noticeTitle": "Moved"},
        headers=staff,
    )
    page = client.post(f"{NOTICE}/queryNoticePage", json={"start": 1, "pageSize": 10}, headers=staff).get_json()
    assert page["data"]["total"] == 1
    assert page["data"]["list"][0]["noticeTitle"] == "Moved"
    assert page["data"]["list"][0]["noticeContent"] == "<p>Tonight 22:00</p>"


def test_users_cannot_manage_notices(client, user):
    assert (
        client.post(f"{NOTICE}/insert", json={"noticeTitle": "x", "noticeContent": "y"}, headers=user).status_code
        == 403
    )
    assert client.post(f"{NOTICE}/queryNoticePage", json={}, headers=user).status_code == 403


def test_notices_stay_on_their_site(app, make_client, client, staff):
    """Cross-tenant probe: the junjia admin neither sees nor edits the operator site's notices."""
    notice = publish(client, staff)
    make_account(app, host="junjia.localhost", user_name="reseller", staff_role=StaffRole.PLATFORM_ADMIN)
    junjia = make_client(host="junjia.localhost")
    reseller = auth(login(junjia, "reseller"))
    page = junjia.post(f"{NOTICE}/queryNoticePage", json={}, headers=reseller).get_json()
    assert page["data"] == {"list": [], "total": 0}
    response = junjia.put(
        f"{NOTICE}/updateWithNotEmptyFiled",
        json={"noticeId": notice["noticeId"], "noticeTitle": "Hacked"},
        headers=reseller,
    )
    assert response.status_code == 404
    page = client.post(f"{NOTICE}/queryNoticePage", json={}, headers=staff).get_json()
    assert page["data"]["list"][0]["noticeTitle"] == "Maintenance"
