"""A platform's own SMS / voice / email provider (set on /operation/system/manage) is the one its
messages go through: the outbox's delivery asks here (registered with api/notify/delivery), and the
settings page's test message uses the same translation. A platform without its own uses the app's."""

from __future__ import annotations

from api.extensions.db import db
from api.notify.models import Channel
from api.operation.settings_models import PlatformSetting


def adapter_settings(channel: Channel, conf: dict | None) -> dict | None:
    """The adapter's settings (api/notify/adapters) from a platform's stored provider, or None when
    that channel has no provider of its own there."""
    conf = conf or {}
    if channel == Channel.EMAIL:
        if not conf.get("host") or not conf.get("from"):
            return None
        return {
            "SMTP_HOST": conf["host"],
            "SMTP_PORT": conf.get("port") or 587,
            "SMTP_STARTTLS": conf.get("starttls", True),
            "SMTP_USER": conf.get("user") or "",
            "SMTP_PASSWORD": conf.get("password") or "",
            "MAIL_FROM": conf["from"],
        }
    if channel in (Channel.SMS, Channel.VOICE):
        if not conf.get("url"):
            return None
        return {
            "SMS_API_URL": conf["url"],
            "SMS_API_KEY": conf.get("key") or "",
            "SMS_API_SECRET": conf.get("secret") or "",
        }
    return None


def platform_provider(platform_id: int, channel: Channel) -> dict | None:
    setting = db.session.get(PlatformSetting, platform_id)
    return adapter_settings(channel, (setting.providers or {}).get(channel.value)) if setting else None
