"""Local stand-ins for the outside world: an SMTP server, an SMS/voice provider, an OAuth provider."""

from __future__ import annotations

import json
import socket
import threading
from dataclasses import dataclass, field
from email import message_from_bytes
from email.message import Message

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
    """A tiny WSGI server in a thread; subclasses implement `handle(request) -> Response`."""

    def __enter__(self):
        self.server = make_server("127.0.0.1", 0, self._app, threaded=True)
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
        self.received.append(json.loads(body))
        return Response(json.dumps({"id": f"sms-{len(self.received)}"}), content_type="application/json")

    def texts_to(self, phone: str) -> list[str]:
        return [m["text"] for m in self.received if m["to"] == phone]
