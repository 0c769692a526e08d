"""Device credentials: derived from the GUID and a version with the platform's device key, so the
operator can print them at issuance and nothing secret is stored; bumping the version rotates one."""

from __future__ import annotations

import hashlib
import hmac

from flask import current_app


def device_secret(guid: str, version: int = 1) -> str:
    key = (current_app.config.get("DEVICE_KEY_SECRET") or current_app.config["SECRET_KEY"]).encode()
    return hmac.new(key, f"device:{guid}:{version}".encode(), hashlib.sha256).hexdigest()[:32]


def credential_matches(guid: str, version: int, presented: str | None) -> bool:
    return bool(presented) and hmac.compare_digest(device_secret(guid, version), presented)
