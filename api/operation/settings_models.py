"""Per-platform settings of /operation/system/manage."""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from api.extensions.db import Model, TimestampMixin


class PlatformSetting(TimestampMixin, Model):
    """One row per platform: default time zone and the message providers (secrets included, never
    served). Language, registration switch and social sign-in apps live on the platform itself."""

    __tablename__ = "platform_setting"

    platform_id: Mapped[int] = mapped_column(ForeignKey("platform.id", ondelete="CASCADE"), primary_key=True)
    default_time_zone: Mapped[str] = mapped_column(String(64), default="Asia/Shanghai")
    # {"sms": {"url", "key", "secret"}, "voice": {...},
    #  "email": {"host", "port", "user", "password", "from", "starttls"}}
    providers: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
