"""Help centre: operators write categories and articles per site and language; visitors read the
published ones of their site and language; the body is sanitised rich text."""

from __future__ import annotations

import io

import pytest
from sqlalchemy import select

from api.extensions.db import db
from api.help.demo import seed_help
from api.identity.models import StaffRole
from api.platform.models import Platform
from tests.api.account_helpers import auth, login, make_account

BASE = "/api/base"
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64


@pytest.fixture
def staff(app, client):
    make_account(app, user_name="operator", staff_role=StaffRole.OPERATOR)
    return auth(login(client, "operator"))


def category(client, headers, name="Devices", language="zh-CN", **fields):
    body = client.post(
        f"{BASE}/BaseHelpCategory/insert", json={"name": name, "language": language, **fields}, headers=headers
    ).get_json()
    assert body["code"] == 0, body
    return body["data"]["categoryId"]


def article(client, headers, category_id, title="Adding a device", content="<p>Scan the GUID.</p>", **fields):
    payload = {"categoryId": category_id, "title": title, "content": content, "published": True, **fields}
    body = client.post(f"{BASE}/BaseHelpArticle/insert", json=payload, headers=headers).get_json()
    assert body["code"] == 0, body
    return body["data"]


def center_titles(client) -> list[str]:
    body = client.get(f"{BASE}/BaseHelp/center").get_json()
    assert body["code"] == 0, body
    return [a["title"] for c in body["data"] for a in c["articles"]]


def test_visitor_sees_published_articles_of_the_site_and_language(app, client, make_client, staff):
    zh = category(client, staff, "设备")
    en = category(client, staff, "Devices", language="en-US")
    hidden_category = category(client, staff, "草稿分类", published=False)
    article(client, staff, zh, "添加设备")
    article(client, staff, zh, "草稿", published=False)
    article(client, staff, en, "Adding a device")
    article(client, staff, hidden_category, "隐藏分类里的文章")
    make_account(app, host="junjia.localhost", user_name="reseller", staff_role=StaffRole.PLATFORM_ADMIN)
    junjia = make_client(host="junjia.localhost")
    reseller = auth(login(junjia, "reseller"))
    article(junjia, reseller, category(junjia, reseller, "骏佳"), "骏佳的文章")

    visitor = make_client()  # signed out
    assert center_titles(visitor) == ["添加设备"]
    assert center_titles(make_client(lang="en-US")) == ["Adding a device"]
    assert center_titles(make_client(host="junjia.localhost")) == ["骏佳的文章"]

    found = visitor.post(f"{BASE}/BaseHelp/search", json={"keyword": ""}).get_json()["data"]
    assert [a["title"] for a in found["list"]] == ["添加设备"] and found["total"] == 1


def test_single_article_is_404_unless_visible_here(app, client, make_client, staff):
    zh = category(client, staff, "设备")
    shown = article(client, staff, zh, "添加设备")
    draft = article(client, staff, zh, "草稿", published=False)
    visitor = make_client()
    body = visitor.get(f"{BASE}/BaseHelp/article/{shown['articleId']}").get_json()
    assert body["code"] == 0 and body["data"]["title"] == "添加设备" and body["data"]["categoryName"] == "设备"
    assert visitor.get(f"{BASE}/BaseHelp/article/{draft['articleId']}").status_code == 404
    # Another language or another site does not see it either.
    assert make_client(lang="en-US").get(f"{BASE}/BaseHelp/article/{shown['articleId']}").status_code == 404
    assert make_client(host="junjia.localhost").get(f"{BASE}/BaseHelp/article/{shown['articleId']}").status_code == 404


def test_rich_text_is_sanitised_and_no_script_reaches_a_page(client, make_client, staff):
    zh = category(client, staff)
    dirty = (
        '<h2 onmouseover="steal()">Step 1</h2><script>alert(1)</script>'
        '<p><img src="/api/base/BaseHelp/image/a.png" onerror="x()" alt="GUID label">'
        '<a href="javascript:alert(1)">bad</a><a href="https://example.com/doc">doc</a></p>'
        '<iframe src="https://evil.example"></iframe><style>body{display:none}</style>'
    )
    written = article(client, staff, zh, content=dirty)
    for html in (
        written["content"],
        make_client().get(f"{BASE}/BaseHelp/article/{written['articleId']}").get_json()["data"]["content"],
    ):
        assert "<script" not in html and "alert(1)" not in html
        assert "onmouseover" not in html and "onerror" not in html
        assert "javascript:" not in html and "<iframe" not in html and "<style" not in html
        assert '<img src="/api/base/BaseHelp/image/a.png" alt="GUID label">' in html
        assert '<a href="https://example.com/doc" rel="noopener noreferrer">doc</a>' in html
    # An update is sanitised the same way.
    body = client.put(
        f"{BASE}/BaseHelpArticle/update",
        json={"articleId": written["articleId"], "content": "<p>ok<script>x()</script></p>"},
        headers=staff,
    ).get_json()
    assert body["data"]["content"] == "<p>ok</p>"


def test_search_matches_title_and_body_with_a_plain_summary(client, make_client, staff):
    zh = category(client, staff, "设备")
    alarms = category(client, staff, "告警", sortOrder=1)
    article(client, staff, zh, "添加设备", "<p>在设备列表点击<b>添加</b>，输入 GUID。</p>")
    article(client, staff, alarms, "告警推送设置", "<p>短信、电话和邮件推送。</p>")
    article(client, staff, alarms, "图表阅读", "<p>温度曲线中的 GUID 标签。</p>", sortOrder=2)
    visitor = make_client()
    found = visitor.post(f"{BASE}/BaseHelp/search", json={"keyword": "GUID"}).get_json()["data"]
    assert [a["title"] for a in found["list"]] == ["添加设备", "图表阅读"]
    assert found["list"][0]["summary"] == "在设备列表点击添加，输入 GUID。"
    by_category = visitor.post(f"{BASE}/BaseHelp/search", json={"categoryId": alarms}).get_json()["data"]
    assert [a["title"] for a in by_category["list"]] == ["告警推送设置", "图表阅读"]
    # A LIKE wildcard is a literal character.
    assert visitor.post(f"{BASE}/BaseHelp/search", json={"keyword": "%"}).get_json()["data"]["total"] == 0
    center = visitor.get(f"{BASE}/BaseHelp/center").get_json()["data"]
    assert [(c["name"], [a["title"] for a in c["articles"]]) for c in center] == [
        ("设备", ["添加设备"]),
        ("告警", ["告警推送设置", "图表阅读"]),
    ]


def test_management_is_staff_only_and_stays_on_its_site(app, client, make_client, staff):
    make_account(app)
    user = auth(login(client))
    assert (
        client.post(
            f"{BASE}/BaseHelpCategory/insert", json={"name": "x", "language": "zh-CN"}, headers=user
        ).status_code
        == 403
    )
    assert client.post(f"{BASE}/BaseHelpArticle/queryPage", json={}, headers=user).status_code == 403
    assert client.post(f"{BASE}/BaseHelpCategory/insert", json={"name": "x", "language": "zh-CN"}).status_code == 401

    zh = category(client, staff)
    written = article(client, staff, zh)
    make_account(app, host="junjia.localhost", user_name="reseller", staff_role=StaffRole.PLATFORM_ADMIN)
    junjia = make_client(host="junjia.localhost")
    reseller = auth(login(junjia, "reseller"))
    assert junjia.post(f"{BASE}/BaseHelpArticle/queryPage", json={}, headers=reseller).get_json()["data"]["total"] == 0
    response = junjia.put(
        f"{BASE}/BaseHelpArticle/update", json={"articleId": written["articleId"], "title": "Hacked"}, headers=reseller
    )
    assert response.status_code == 404
    assert (
        junjia.post(
            f"{BASE}/BaseHelpArticle/insert", json={"categoryId": zh, "title": "t", "content": "c"}, headers=reseller
        ).status_code
        == 404
    )


def test_management_lists_filters_and_deletes(client, staff):
    zh = category(client, staff, "设备")
    en = category(client, staff, "Devices", language="en-US")
    article(client, staff, zh, "添加设备")
    draft = article(client, staff, en, "Draft", published=False)
    listed = client.post(f"{BASE}/BaseHelpCategory/list", json={}, headers=staff).get_json()["data"]
    assert [(c["name"], c["articleCount"]) for c in listed] == [("Devices", 1), ("设备", 1)]
    page = client.post(f"{BASE}/BaseHelpArticle/queryPage", json={"language": "en-US"}, headers=staff).get_json()[
        "data"
    ]
    assert [(a["title"], a["published"], a["language"]) for a in page["list"]] == [("Draft", False, "en-US")]
    refused = client.post(f"{BASE}/BaseHelpCategory/delete", json={"categoryId": en}, headers=staff)
    assert refused.status_code == 409
    assert (
        client.post(f"{BASE}/BaseHelpArticle/delete", json={"articleId": draft["articleId"]}, headers=staff).get_json()[
            "code"
        ]
        == 0
    )
    assert (
        client.post(f"{BASE}/BaseHelpCategory/delete", json={"categoryId": en}, headers=staff).get_json()["code"] == 0
    )


def test_bad_input_names_the_field(client, staff):
    body = client.post(
        f"{BASE}/BaseHelpCategory/insert", json={"name": "x", "language": "fr-FR"}, headers=staff
    ).get_json()
    assert body["code"] == 422 and "language" in body["msg"]
    zh = category(client, staff)
    body = client.post(
        f"{BASE}/BaseHelpArticle/insert", json={"categoryId": zh, "title": "", "content": "c"}, headers=staff
    ).get_json()
    assert body["code"] == 422 and "title" in body["msg"]


def test_article_images_upload_and_are_served(client, make_client, staff):
    body = client.post(
        f"{BASE}/BaseHelpArticle/uploadImage",
        data={"file": (io.BytesIO(PNG), "label.png")},
        headers=staff,
        content_type="multipart/form-data",
    ).get_json()
    assert body["code"] == 0, body
    served = make_client().get(body["data"]["url"])
    assert served.status_code == 200 and served.data == PNG
    refused = client.post(
        f"{BASE}/BaseHelpArticle/uploadImage",
        data={"file": (io.BytesIO(b"<svg onload=x()>"), "x.png")},
        headers=staff,
        content_type="multipart/form-data",
    )
    assert refused.status_code == 415


def test_demo_articles_cover_the_four_first_tasks_in_both_languages(app, make_client):
    with app.app_context():
        platforms = {p.slug: p for p in db.session.scalars(select(Platform))}
        seed_help(platforms)
        seed_help(platforms)  # again: nothing doubles
    for lang, titles in (
        ("zh-CN", ["添加设备", "告警推送设置", "如何阅读温湿度曲线", "导出数据与报告"]),
        ("en-US", ["Adding a device", "Alarm push settings", "Reading a chart", "Exporting data and reports"]),
    ):
        assert center_titles(make_client(lang=lang)) == titles
        assert center_titles(make_client(host="junjia.localhost", lang=lang)) == titles
