"""The api in gunicorn, as production starts it (gunicorn.conf.py in the repository's root), on the
test database and Redis."""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from tests.reliability.engines import free_port, wait_port

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


class Api:
    """One gunicorn process of the api on the test database and Redis (development settings with the
    test app's keys, so the tokens and device credentials of both sides agree)."""

    def __init__(self, app, *options: str, env: dict | None = None, wsgi: str = "api:create_app()"):
        """`options`: gunicorn's (a later `-w` wins over the default one); `env`: settings over these;
        `wsgi`: the app gunicorn serves."""
        self.port = free_port()
        env = {
            **{k: v for k, v in os.environ.items() if k != "APP_ENV"},  # the test app's keys and settings
            "SECRET_KEY": app.config["SECRET_KEY"],
            "DEVICE_KEY_SECRET": app.config.get("DEVICE_KEY_SECRET") or "",
            # The trail's hashes are keyed: both sides hash and verify with the test app's key.
            "AUDIT_HMAC_KEY": app.config["AUDIT_HMAC_KEY"],
            "HOST_ALIASES": "localhost=default",
            "DATABASE_URL": app.config["SQLALCHEMY_DATABASE_URI"],
            "REDIS_URL": app.config["REDIS_URL"],
            "CAPTCHA_REQUIRED": "0",
            # The suite's fakes (payment providers, OAuth, SMTP) listen on addresses the test app lists.
            "OUTBOUND_ALLOWED_HOSTS": ",".join(app.config.get("OUTBOUND_ALLOWED_HOSTS", ())),
            **(env or {}),
        }
        command = [str(BIN / "gunicorn"), "-w", "1", "-b", f"127.0.0.1:{self.port}", *options]
        self.process = subprocess.Popen(
            [*command, wsgi], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def call(self, method: str, path: str, body=None, headers=None, timeout: float = 30) -> tuple[int, dict]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            payload = json.dumps(body) if body is not None else None
            all_headers = {"Host": "localhost", "Content-Type": "application/json", **(headers or {})}
            connection.request(method, path, body=payload, headers=all_headers)
            response = connection.getresponse()
            return response.status, json.loads(response.read() or b"{}")
        finally:
            connection.close()

    def healthy(self) -> bool:
        try:
            return self.call("GET", "/api/health")[0] == 200
        except (OSError, http.client.HTTPException, ValueError):  # still booting
            return False

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(30)

    def wait_healthy(self, timeout: float = 60.0) -> Api:
        wait_port(self.port, timeout=timeout)
        deadline = time.monotonic() + timeout
        while not self.healthy() and time.monotonic() < deadline:
            time.sleep(0.2)
        return self
