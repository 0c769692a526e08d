from __future__ import annotations

from sqlalchemy import ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from api.extensions.db import Model, TimestampMixin


class Notice(TimestampMixin, Model):
    """A notice belongs to the site (platform) that published it; its content is sanitised HTML."""

    __tablename__ = "notice"

    id: Mapped[int] = mapped_column(primary_key=True)
    platform_id: Mapped[int] = mapped_column(ForeignKey("platform.id", ondelete="CASCADE"), index=True)
    title: Mapped[str] = mapped_column(String(100))
    content: Mapped[str] = mapped_column(Text)
    # Spec console-shell 7.2: noticeType 1 (announcement), noticePlatform 1 (web console),
    # noticeCamp 1 on the default-campaign site, else 0.
    notice_type: Mapped[int] = mapped_column(default=1)
    notice_platform: Mapped[int] = mapped_column(default=1)
    notice_camp: Mapped[int] = mapped_column(default=0)
    enabled: Mapped[bool] = mapped_column(default=True)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="SET NULL"))
