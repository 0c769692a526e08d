"""Links in messages (mail, SMS) point at the platform's configured address, never at the request.

A request's Host port or X-Forwarded-Proto (even from a trusted proxy) says nothing about where a
recipient should go, so it is never used: the base is the platform's top domain with https or http
from its `https` flag, unless `PUBLIC_BASE_URLS` names a base for the platform's slug (development:
`default=http://localhost:3000`). Only http and https bases are accepted (checked when the settings
load, api/settings.py).
"""

from __future__ import annotations

from flask import current_app

from api.platform.models import Platform


def public_base_url(platform: Platform) -> str:
    configured = (current_app.config.get("PUBLIC_BASE_URLS") or {}).get(platform.slug)
    if configured:
        return configured
    return f"{'https' if platform.https else 'http'}://{platform.top_domain}"


def public_url(platform: Platform, path: str) -> str:
    """An absolute link to `path` (starting with /) on the platform's own site."""
    return public_base_url(platform) + path
