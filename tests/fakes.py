"""Local stand-ins for the outside world: an SMTP server, an SMS/voice provider, an OAuth provider,
a provincial supervision platform."""

from __future__ import annotations

import hashlib
import hmac
import html
import json
import secrets
import socket
import threading
import time
from dataclasses import dataclass, field
from email import message_from_bytes
from email.message import Message
from urllib.parse import urlencode

from aiosmtpd.controller import Controller
from werkzeug.serving import make_server
from werkzeug.wrappers import Request, Response

from api.notify.adapters import sign


@dataclass
class SmtpInbox:
    messages: list[Message] = field(default_factory=list)

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's hook name
        self.messages.append(message_from_bytes(envelope.content))
        return "250 OK"

    def bodies_to(self, address: str) -> list[str]:
        return [m.get_payload(decode=True).decode() for m in self.messages if m["To"] == address]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class SmtpServer:
    def __init__(self):
        self.inbox = SmtpInbox()
        self.port = free_port()
        self.controller = Controller(self.inbox, hostname="127.0.0.1", port=self.port)

    def __enter__(self):
        self.controller.start()
        return self

    def __exit__(self, *exc):
        self.controller.stop()


class HttpFake:
    """A tiny WSGI server in a thread; subclasses implement `handle(request) -> Response`. `port`
    0 takes a free one (tests); the demo gives a fixed one."""

    port = 0

    def __enter__(self):
        self.server = make_server("127.0.0.1", self.port, self._app, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()

    @Request.application
    def _app(self, request: Request) -> Response:
        return self.handle(request)

    def handle(self, request: Request) -> Response:  # pragma: no cover - overridden
        raise NotImplementedError


class SmsProvider(HttpFake):
    """Checks the api key and HMAC signature like the real provider, and records what it got."""

    def __init__(self, key: str = "test-key", secret: str = "test-secret"):
        self.key, self.secret = key, secret
        self.received: list[dict] = []
        self.fail_next = 0

    def handle(self, request: Request) -> Response:
        body = request.get_data()
        expected = sign(self.secret, request.headers.get("X-Timestamp", ""), body)
        if request.headers.get("X-Api-Key") != self.key or request.headers.get("X-Signature") != expected:
            return Response(json.dumps({"error": "bad signature"}), status=401)
        if self.fail_next:
            self.fail_next -= 1
            return Response("busy", status=503)
        message = json.loads(body)
        message["id"] = f"sms-{len(self.received) + 1}"
        message["idempotencyKey"] = request.headers.get("X-Idempotency-Key", "")
        self.received.append(message)
        return Response(json.dumps({"id": message["id"]}), content_type="application/json")

    def texts_to(self, phone: str) -> list[str]:
        return [m["text"] for m in self.received if m["to"] == phone]

    # ---- callbacks, as the real provider sends them (api/notify/inbound.py) ---------------------------
    # `post(path, data, headers)` delivers one: a Flask test client's post, or `requests.post` on a URL.

    def callback(self, event: dict, *, timestamp: int | None = None, secret: str | None = None) -> tuple[bytes, dict]:
        """The body and headers of a callback: signed over "timestamp.body" with the provider secret."""
        event = {"id": f"evt-{secrets.token_hex(8)}", **event}
        body = json.dumps(event).encode()
        stamp = str(int(time.time()) if timestamp is None else timestamp)
        headers = {
            "Content-Type": "application/json",
            "X-Timestamp": stamp,
            "X-Signature": sign(self.secret if secret is None else secret, stamp, body),
        }
        return body, headers

    def receipt(self, message: dict, status: str = "delivered") -> tuple[bytes, dict]:
        return self.callback(
            {"type": "receipt", "ref": message["id"], "idempotencyKey": message["idempotencyKey"], "status": status}
        )

    def reply(self, phone: str, text: str) -> tuple[bytes, dict]:
        """An SMS the phone sent back."""
        return self.callback({"type": "reply", "from": phone, "text": text})

    def key_press(self, message: dict, digits: str) -> tuple[bytes, dict]:
        """A key pressed during the call `message` (a voice message this fake received)."""
        return self.callback(
            {
                "type": "keypress",
                "ref": message["id"],
                "idempotencyKey": message["idempotencyKey"],
                "from": message["to"],
                "digits": digits,
            }
        )


class OAuthProvider(HttpFake):
    """One fake for WeChat, QQ and Facebook: issues codes bound to a redirect URI, checks the client
    credentials (under each provider's parameter names) and that redirect URI at the token step."""

    def __init__(self, client_id: str = "app-id", client_secret: str = "app-secret"):
        self.client_id, self.client_secret = client_id, client_secret
        self.codes: dict[str, dict] = {}
        self.tokens: dict[str, str] = {}
        self.token_requests: list[dict] = []

    def issue_code(self, subject: str, redirect_uri: str) -> str:
        code = f"code-{secrets.token_hex(8)}"
        self.codes[code] = {"subject": subject, "redirect_uri": redirect_uri}
        return code

    def handle(self, request: Request) -> Response:
        if request.path == "/authorize":
            return self._consent(request)
        if request.path == "/authorize/allow":
            return self._allow(request)
        if request.path == "/token":
            params = {**request.args.to_dict(), **request.form.to_dict()}
            self.token_requests.append(params)
            client_id = params.get("client_id") or params.get("appid")
            secret = params.get("client_secret") or params.get("secret")
            grant = self.codes.pop(params.get("code", ""), None)
            if client_id != self.client_id or secret != self.client_secret:
                return Response(json.dumps({"error": "invalid_client"}), status=401, content_type="application/json")
            if grant is None or grant["redirect_uri"] != params.get("redirect_uri"):
                return Response(json.dumps({"error": "invalid_grant"}), status=400, content_type="application/json")
            access = f"access-{grant['subject']}"
            self.tokens[access] = grant["subject"]
            return Response(
                json.dumps(
                    {"access_token": access, "token_type": "bearer", "expires_in": 7200, "openid": grant["subject"]}
                ),
                content_type="application/json",
            )
        if request.path == "/userinfo":
            subject = self.tokens.get(request.args.get("access_token", ""))
            if subject is None:
                return Response(json.dumps({"error": "invalid_token"}), status=401, content_type="application/json")
            return Response(
                json.dumps({"openid": subject, "id": subject, "nickname": "Cold Fan", "name": "Cold Fan"}),
                content_type="application/json",
            )
        return Response("not found", status=404)

    # The provider's own sign-in page (a person at the browser): the app asking, the account that
    # will be used, Allow / Cancel. Allow mints a code bound to the redirect URI, as the real ones do.
    DEMO_SUBJECT = "demo-wechat-user"

    def _consent(self, request: Request) -> Response:
        args = request.args
        client_id = args.get("client_id") or args.get("appid")
        redirect_uri, state = args.get("redirect_uri", ""), args.get("state", "")
        if client_id != self.client_id or not redirect_uri.startswith(("http://", "https://")):
            return Response("unknown app or redirect URI", status=400)
        allow = "/authorize/allow?" + urlencode({"redirect_uri": redirect_uri, "state": state})
        back = redirect_uri + ("&" if "?" in redirect_uri else "?")
        cancel = back + urlencode({"error": "access_denied", "state": state})
        page = (
            '<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">'
            "<title>Demo sign-in provider</title></head>"
            '<body style="font-family:sans-serif;max-width:420px;margin:48px auto;text-align:center">'
            "<h2>Demo sign-in provider</h2>"
            f"<p>The app <b>{html.escape(client_id)}</b> asks to know who you are.</p>"
            "<p>You are signed in here as <b>Cold Fan</b>.</p>"
            f'<p><a id="allow" href="{html.escape(allow)}">Allow</a> &nbsp; '
            f'<a id="cancel" href="{html.escape(cancel)}">Cancel</a></p>'
            "<p><small>A local stand-in for WeChat, QQ or Facebook (make run and the browser tests).</small></p>"
            "</body></html>"
        )
        return Response(page, content_type="text/html; charset=utf-8")

    def _allow(self, request: Request) -> Response:
        redirect_uri, state = request.args.get("redirect_uri", ""), request.args.get("state", "")
        code = self.issue_code(self.DEMO_SUBJECT, redirect_uri)
        target = redirect_uri + ("&" if "?" in redirect_uri else "?") + urlencode({"code": code, "state": state})
        return Response(status=302, headers={"Location": target})

    def tenant_settings(self) -> dict:
        return {
            "clientId": self.client_id,
            "clientSecret": self.client_secret,
            "authorizeUrl": f"{self.url}/authorize",
            "tokenUrl": f"{self.url}/token",
            "userinfoUrl": f"{self.url}/userinfo",
            "officialAccountQr": "https://example.com/qr.png",
        }


class OldPlatform(HttpFake):
    def __init__(self, users: dict[str, str]):
        self.users = users

    def handle(self, request: Request) -> Response:
        if request.path != "/api/base/BaseAccount/login":
            return Response("not found", status=404)
        data = request.get_json()
        ok = self.users.get(data.get("userName")) == data.get("password")
        body = {"code": 0, "msg": "ok", "data": {"token": "old"}} if ok else {"code": 1, "msg": "bad credentials"}
        return Response(json.dumps(body), content_type="application/json")


class ProvincialReceiver(HttpFake):
    """A provincial cold-chain supervision platform's upload endpoint, as the real ones behave: the
    app id must be known, the timestamp fresh (5 minutes) and X-Signature the HMAC-SHA256 of
    `timestamp.body` with the app secret; a batch number it already has is answered as a duplicate.
    Answers are `{code, msg}` envelopes (code 0: accepted).

    Test knobs: `refuse_with` (a business refusal message), `fail_next` (answer 503 that many times),
    `hold` (an Event the handler waits on after reading the request: a send caught mid-flight)."""

    MAX_SKEW_S = 300

    def __init__(self, app_id: str = "ZJ-COLD-0001", secret: str = "province-secret-1"):
        self.app_id, self.secret = app_id, secret
        self.batches: dict[str, dict] = {}  # accepted batch number -> upload
        self.posts: list[str] = []  # batch number of every signed request, duplicates included
        self.answers: list[dict] = []
        self.refuse_with: str | None = None
        self.fail_next = 0
        self.hold: threading.Event | None = None
        self.arrived = threading.Event()
        self._answered = threading.Condition()

    def handle(self, request: Request) -> Response:
        answer, status = self._answer(request)
        with self._answered:
            self.answers.append(answer)
            self._answered.notify_all()
        return Response(json.dumps(answer), status=status, content_type="application/json")

    def _answer(self, request: Request) -> tuple[dict, int]:
        body = request.get_data()
        timestamp = request.headers.get("X-Timestamp", "")
        if request.headers.get("X-App-Id") != self.app_id:
            return {"code": 1001, "msg": "unknown appId"}, 200
        if not timestamp.isdigit() or abs(time.time() - int(timestamp)) > self.MAX_SKEW_S:
            return {"code": 1002, "msg": "timestamp expired"}, 200
        expected = hmac.new(self.secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()
        if not hmac.compare_digest(expected, request.headers.get("X-Signature", "")):
            return {"code": 1003, "msg": "signature mismatch"}, 200
        upload = json.loads(body)
        self.posts.append(upload["batchNo"])
        self.arrived.set()
        if self.hold is not None:
            self.hold.wait(timeout=30)
        if self.fail_next:
            self.fail_next -= 1
            return {"code": 500, "msg": "service busy"}, 503
        if self.refuse_with:
            return {"code": 2001, "msg": self.refuse_with}, 200
        if upload["batchNo"] in self.batches:
            return {"code": 0, "msg": "duplicate batch, already received"}, 200
        self.batches[upload["batchNo"]] = upload
        return {"code": 0, "msg": "ok"}, 200

    def wait_answered(self, count: int, timeout: float = 30) -> bool:
        with self._answered:
            return self._answered.wait_for(lambda: len(self.answers) >= count, timeout=timeout)
