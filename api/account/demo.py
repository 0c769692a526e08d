"""The demo's social sign-in: with DEMO_OAUTH_URL set, `flask seed-demo` gives the default site a
WeChat app served by the local provider of tests/demo_oauth.py (make run and the browser tests start
it there), so social sign-in can be tried end to end without a real app."""

from __future__ import annotations

from flask import current_app

from api.extensions.db import db
from api.platform.models import Platform

DEMO_OAUTH_CLIENT_ID = "demo-wechat-app"
DEMO_OAUTH_CLIENT_SECRET = "demo-wechat-secret"  # nosec B105 - the local fake provider's own credential


def seed_social_sign_in(platform: Platform) -> bool:
    base = (current_app.config.get("DEMO_OAUTH_URL") or "").rstrip("/")
    if not base:
        return False
    oauth = dict(platform.oauth or {})
    oauth["wechat"] = {
        "clientId": DEMO_OAUTH_CLIENT_ID,
        "clientSecret": DEMO_OAUTH_CLIENT_SECRET,
        "authorizeUrl": f"{base}/authorize",
        "tokenUrl": f"{base}/token",
        "userinfoUrl": f"{base}/userinfo",
    }
    platform.oauth = oauth
    db.session.commit()
    return True
