"""Security headers on every api answer, and uploads: size caps, type by content, generated names."""

from __future__ import annotations

import io
import struct
import zlib

import pytest
from flask import session

from api.extensions import uploads
from tests.api.account_helpers import BASE, PASSWORD, auth, login, make_account

PNG_HEADER = b"\x89PNG\r\n\x1a\n"


def png(extra: int = 0) -> bytes:
    """A real 1x1 PNG, padded with an ancillary chunk of `extra` bytes."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    body = chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
    if extra:
        body += chunk(b"tEXt", b"pad\x00" + b"x" * extra)
    body += chunk(b"IDAT", zlib.compress(b"\x00\xff\x00\x00")) + chunk(b"IEND", b"")
    return PNG_HEADER + body


@pytest.fixture
def upload_dir(app, tmp_path, monkeypatch):
    monkeypatch.setitem(app.config, "UPLOAD_DIR", tmp_path)
    return tmp_path


@pytest.fixture
def headers(app, client):
    make_account(app)
    return auth(login(client))


@pytest.mark.parametrize(
    "method,path",
    [
        ("get", "/api/health"),
        ("get", "/api/openapi.json"),
        ("get", f"{BASE}/accountInfo"),  # 401
        ("post", f"{BASE}/login"),  # 422
        ("get", "/api/no/such/call"),  # 404
    ],
)
def test_every_api_answer_carries_the_security_headers(client, method, path):
    response = getattr(client, method)(path)
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    csp = response.headers["Content-Security-Policy"]
    assert "default-src 'none'" in csp
    assert "frame-ancestors 'none'" in csp


def test_the_api_keeps_no_cookie_session(app, client):
    # Sessions are bearer tokens: no answer sets a cookie (not even signing in), flask.session
    # refuses writes.
    make_account(app)
    signed_in = client.post(f"{BASE}/login", json={"userName": "demouser", "password": PASSWORD})
    token = signed_in.get_json()["data"]["token"]
    for answer in (signed_in, client.get(f"{BASE}/accountInfo", headers=auth(token))):
        assert answer.status_code == 200 and "Set-Cookie" not in answer.headers
    with app.test_request_context(headers={"Host": "localhost"}):
        app.preprocess_request()
        with pytest.raises(RuntimeError, match="session is unavailable"):
            session["probe"] = 1


def test_an_unknown_host_is_refused_with_the_headers_too(app):
    response = app.test_client().get(f"{BASE}/accountInfo", headers={"Host": "evil.example.com"})
    assert response.status_code == 421
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]


def test_the_docs_page_may_load_swagger_ui_but_not_be_framed(client, app):
    response = client.get("/api/docs")
    assert response.status_code == 200
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self' 'unsafe-inline';" in csp  # its bundle comes from the api itself
    assert "frame-ancestors 'none'" in csp


def test_the_docs_page_works_offline(client):
    """Swagger UI's files are served by the api from an installed package, not from a CDN."""
    page = client.get("/api/docs").get_data(as_text=True)
    assert "https://" not in page.split("<body>")[0] and "/api/docs/assets/swagger-ui-bundle.js" in page
    for name in ("swagger-ui-bundle.js", "swagger-ui.css"):
        response = client.get(f"/api/docs/assets/{name}")
        assert response.status_code == 200 and len(response.get_data()) > 10_000
    assert client.get("/api/docs/assets/../settings.py").status_code == 404


def test_branding_images_are_sandboxed(client):
    branding = client.get("/api/base/BaseCustomPage/queryByTopDomain?topDomain=localhost").get_json()["data"]
    response = client.get(branding["loginLogo"])
    assert response.status_code == 200
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert "sandbox" in response.headers["Content-Security-Policy"]


def post_photo(client, headers, content: bytes, filename="me.png", content_type="image/png"):
    return client.post(
        f"{BASE}/uploadPhoto",
        data={"file": (io.BytesIO(content), filename, content_type)},
        headers=headers,
        content_type="multipart/form-data",
    )


def test_a_photo_is_stored_under_a_generated_name_and_served_inert(client, headers, upload_dir):
    response = post_photo(client, headers, png(), filename="../../etc/passwd.png")
    body = response.get_json()
    assert response.status_code == 200, body
    url = body["data"]["accountPhoto"]
    name = url.rsplit("/", 1)[1]
    assert name.endswith(".png") and "passwd" not in name and len(name) == 36
    stored = list(upload_dir.rglob("*"))
    assert [p.name for p in stored if p.is_file()] == [name]
    info = client.get(f"{BASE}/accountInfo", headers=headers).get_json()["data"]
    assert info["baseAccount"]["accountPhoto"] == url
    served = client.get(url)
    assert served.status_code == 200
    assert served.data == png()
    assert served.headers["Content-Type"] == "image/png"
    assert served.headers["X-Content-Type-Options"] == "nosniff"
    assert "sandbox" in served.headers["Content-Security-Policy"]


def test_a_photo_over_2_mb_is_refused_with_413_and_nothing_stored(client, headers, upload_dir):
    response = post_photo(client, headers, png(extra=2 * 1024 * 1024))
    assert response.status_code == 413
    body = response.get_json()
    assert body["code"] == 413 and body["msg"] == "文件过大"
    assert not [p for p in upload_dir.rglob("*") if p.is_file()]
    info = client.get(f"{BASE}/accountInfo", headers=headers).get_json()["data"]
    assert info["baseAccount"]["accountPhoto"] is None


def test_a_photo_just_under_the_cap_is_accepted(client, headers, upload_dir):
    content = png(extra=2 * 1024 * 1024 - 200)
    assert len(content) <= 2 * 1024 * 1024
    assert post_photo(client, headers, content).status_code == 200


@pytest.mark.parametrize(
    "content,filename,content_type",
    [
        (b"<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>", "x.png", "image/png"),
        (b"<html><script>alert(1)</script></html>", "x.jpg", "image/jpeg"),
        (b"GIF89a\x01\x00\x01\x00", "x.png", "image/png"),
        (b"", "x.png", "image/png"),
    ],
)
def test_a_file_that_is_not_a_jpg_or_png_by_content_is_refused(
    client, headers, upload_dir, content, filename, content_type
):
    response = post_photo(client, headers, content, filename, content_type)
    assert response.status_code == 415
    body = response.get_json()
    assert body["code"] == 415 and body["msg"] == "文件错误"
    assert not [p for p in upload_dir.rglob("*") if p.is_file()]


def test_a_request_over_the_largest_cap_is_refused_with_the_envelope(client, headers):
    response = client.post(
        "/api/device/DeviceData/upload",
        data=b"{" + b" " * (11 * 1024 * 1024) + b"}",
        headers={"X-Device-Id": "1", "X-Device-Key": "x"},
        content_type="application/json",
    )
    assert response.status_code == 413
    assert response.get_json()["code"] == 413


def test_uploads_need_a_session(client, upload_dir):
    response = post_photo(client, {}, png())
    assert response.status_code == 401


@pytest.mark.parametrize("name", ["../secret.png", "x.png", "0" * 32 + ".svg", "0" * 32 + ".png"])
def test_only_generated_names_of_this_site_are_served(client, upload_dir, name):
    assert client.get(f"{BASE}/photo/{name}").status_code == 404


def test_a_photo_of_one_platform_is_not_served_on_an_independent_one(app, client, make_client, headers, upload_dir):
    url = post_photo(client, headers, png()).get_json()["data"]["accountPhoto"]
    assert client.get(url).status_code == 200
    assert make_client("junjia.localhost").get(url).status_code == 404


@pytest.mark.parametrize(
    "kind,content,expected",
    [
        ("icon", b"\x00\x00\x01\x00" + b"\x00" * 20, ".ico"),
        ("icon", PNG_HEADER + b"\x00" * 20, ".png"),
        ("icon", b"\xff\xd8\xff\xe0" + b"\x00" * 20, None),
        ("image", b"\xff\xd8\xff\xe0" + b"\x00" * 20, ".jpg"),
        ("json", b'{"a": 1}', ".json"),
        ("json", b"not json", None),
    ],
)
def test_types_are_told_by_content(kind, content, expected):
    assert uploads.sniff(content, uploads.KINDS[kind].types) == expected


def test_the_caps_are_the_spec_s_1_2_and_10_mb():
    # Every kind's cap is one of the spec's three (business-domain 5), and each of them is used.
    assert {kind.max_bytes for kind in uploads.KINDS.values()} == {1 << 20, 2 << 20, 10 << 20}
