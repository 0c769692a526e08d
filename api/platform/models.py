from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from api.extensions.db import Model, TimestampMixin


class Platform(TimestampMixin, Model):
    """A branded site (the spec's platform customization / BaseCustomPage)."""

    __tablename__ = "platform"

    id: Mapped[int] = mapped_column(primary_key=True)
    slug: Mapped[str] = mapped_column(String(50), unique=True)
    enterprise_name: Mapped[str] = mapped_column(String(100))
    top_domain: Mapped[str] = mapped_column(String(253), unique=True)
    # Title per language ({"zh-CN": ..., "en-US": ...}); the api serves the caller's one.
    titles: Mapped[dict[str, str]] = mapped_column(JSON)
    https: Mapped[bool] = mapped_column(default=True)
    login_page: Mapped[str] = mapped_column(String(30), default="default")
    theme_color: Mapped[str] = mapped_column(String(7))
    style_model: Mapped[str] = mapped_column(String(30))
    default_locale: Mapped[str] = mapped_column(String(5), default="zh-CN")
    # Spec console-shell 2.1: when set, the register route redirects to login.
    enable_register: Mapped[bool] = mapped_column(default=False)
    default_camp: Mapped[bool] = mapped_column(default=False)
    independent: Mapped[bool] = mapped_column(default=False)
    browser_logo: Mapped[str | None] = mapped_column(String(255))
    login_logo: Mapped[str | None] = mapped_column(String(255))
    index_logo: Mapped[str | None] = mapped_column(String(255))
    login_background: Mapped[str | None] = mapped_column(String(255))
    record_company: Mapped[str | None] = mapped_column(String(100))
    record_number: Mapped[str | None] = mapped_column(String(100))
    record_link: Mapped[str | None] = mapped_column(String(255))
    remark: Mapped[str | None] = mapped_column(String(50))
    # Per-platform OAuth app credentials (WeChat, QQ, Facebook); never served to clients.
    oauth: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)

    domains: Mapped[list[PlatformDomain]] = relationship(
        back_populates="platform", cascade="all, delete-orphan", order_by="PlatformDomain.domain"
    )

    def title_for(self, locale_tag: str) -> str:
        return (
            self.titles.get(locale_tag) or self.titles.get(self.default_locale) or next(iter(self.titles.values()), "")
        )


class PlatformDomain(Model):
    """A host name answered by a platform; a host belongs to exactly one platform."""

    __tablename__ = "platform_domain"

    id: Mapped[int] = mapped_column(primary_key=True)
    platform_id: Mapped[int] = mapped_column(ForeignKey("platform.id", ondelete="CASCADE"), index=True)
    domain: Mapped[str] = mapped_column(String(253), unique=True)

    platform: Mapped[Platform] = relationship(back_populates="domains")
