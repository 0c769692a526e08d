"""The `{code, msg, data}` envelope and the error handlers, in both languages."""

from __future__ import annotations

import marshmallow as ma
import pytest

from api import create_app
from api.extensions.smorest import Schema, envelope_schema
from api.settings import TestConfig

BRANDING = "/api/base/BaseCustomPage/queryByTopDomain"


def test_success_is_code_zero_with_localized_msg(make_client):
    zh = make_client(lang="zh-CN").get(f"{BRANDING}?topDomain=localhost")
    en = make_client(lang="en-US").get(f"{BRANDING}?topDomain=localhost")
    assert zh.status_code == en.status_code == 200
    assert list(zh.get_json()) == ["code", "msg", "data"]
    assert (zh.get_json()["code"], zh.get_json()["msg"]) == (0, "成功")
    assert (en.get_json()["code"], en.get_json()["msg"]) == (0, "success")


@pytest.mark.parametrize(
    ("lang", "expected_msg", "expected_field_msg"),
    [
        ("zh-CN", "输入有误 - topDomain: 此项为必填项。", "此项为必填项。"),
        ("en-US", "Invalid input - topDomain: This field is required.", "This field is required."),
    ],
)
def test_validation_error_names_the_field(make_client, lang, expected_msg, expected_field_msg):
    response = make_client(lang=lang).get(BRANDING)
    body = response.get_json()
    assert response.status_code == 422
    assert body["code"] == 422
    assert body["msg"] == expected_msg
    assert body["data"] == {"errors": {"topDomain": [expected_field_msg]}}


@pytest.mark.parametrize(
    ("lang", "expected"),
    [("zh-CN", "长度须在 1 到 253 个字符之间。"), ("en-US", "Length must be between 1 and 253 characters.")],
)
def test_length_messages_are_translated_with_their_bounds(make_client, lang, expected):
    body = make_client(lang=lang).get(f"{BRANDING}?topDomain={'a' * 300}").get_json()
    assert body["data"]["errors"]["topDomain"] == [expected]


@pytest.mark.parametrize(
    ("lang", "expected"),
    [("zh-CN", "请求的资源不存在。"), ("en-US", "The requested resource does not exist.")],
)
def test_unknown_route_is_a_localized_404(make_client, lang, expected):
    response = make_client(lang=lang).get("/api/no/such/Route")
    assert response.status_code == 404
    assert response.get_json() == {"code": 404, "msg": expected, "data": None}


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("zh-CN", "站点（nowhere.example）未在平台配置。"),
        ("en-US", "This site (nowhere.example) is not configured on the platform."),
    ],
)
def test_unknown_branding_domain_is_a_localized_404(make_client, lang, expected):
    response = make_client(lang=lang).get(f"{BRANDING}?topDomain=nowhere.example")
    assert response.status_code == 404
    assert response.get_json() == {"code": 404, "msg": expected, "data": None}


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("zh-CN", "站点（evil.example）未在平台配置。"),
        ("en-US", "This site (evil.example) is not configured on the platform."),
    ],
)
def test_unknown_host_is_refused(make_client, lang, expected):
    response = make_client(host="evil.example:8443", lang=lang).get(f"{BRANDING}?topDomain=localhost")
    assert response.status_code == 421
    assert response.get_json() == {"code": 421, "msg": expected, "data": None}


def test_wrong_method_is_a_localized_405_with_allow(make_client):
    response = make_client(lang="en-US").post(f"{BRANDING}?topDomain=localhost")
    assert response.status_code == 405
    assert response.get_json()["msg"] == "This method is not allowed here."
    assert "GET" in response.headers["Allow"]


def test_unexpected_error_is_server_exception_without_details():
    app = create_app(TestConfig)

    @app.get("/api/test/boom")
    def boom():
        raise RuntimeError("secret internals")

    response = app.test_client().get("/api/test/boom", headers={"Host": "localhost", "Accept-Language": "zh-CN"})
    assert response.status_code == 500
    assert response.get_json() == {"code": 500, "msg": "服务器异常", "data": None}


def test_openapi_documents_the_envelope(client):
    spec = client.get("/api/openapi.json").get_json()
    operation = spec["paths"]["/api/base/BaseCustomPage/queryByTopDomain"]["get"]
    ok = operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    assert ok.endswith("/BrandingEnvelope")
    envelope = spec["components"]["schemas"]["BrandingEnvelope"]
    assert set(envelope["properties"]) == {"code", "msg", "data"}
    assert client.get("/api/docs").status_code == 200


def test_two_response_schemas_of_one_name_are_refused_at_start():
    """The envelope is found by the schema's name: a second schema of that name would answer its calls
    with the first one's fields (the product's device-type options once came back as bare ids)."""

    def make():
        return type("ProbeTwinSchema", (Schema,), {"name": ma.fields.String()})

    first = make()
    assert envelope_schema(first) is envelope_schema(first)
    with pytest.raises(TypeError, match="two response schemas are named ProbeTwinSchema"):
        envelope_schema(make())
