from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, String, false
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
    # The seller on receipts (with enterprise_name): where the company is and its tax id.
    company_address: Mapped[str | None] = mapped_column(String(200))
    tax_id: Mapped[str | None] = mapped_column(String(30))
    remark: Mapped[str | None] = mapped_column(String(50))
    # Per-platform OAuth app credentials (WeChat, QQ, Facebook); never served to clients.
    oauth: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    # Set once the platform is created or edited on the customization page (/customized/list): from
    # then on the page owns it and `flask sync-tenants` leaves it alone (docs/tenants.md).
    page_managed: Mapped[bool] = mapped_column(default=False, server_default=false())
    # The reseller's admin account created or linked on the page (no foreign key: account -> platform).
    admin_account_id: Mapped[int | None] = mapped_column()
    # Operator settings shown to every visitor (issue 26): the external sites the plc and calibration
    # serve routes open (the menu hides an entry without one), and the advertised yearly price of the
    # cloud-control large screen on the home page, in cents (not shown when unset).
    plc_url: Mapped[str | None] = mapped_column(String(255))
    calibration_url: Mapped[str | None] = mapped_column(String(255))
    cloud_control_yearly_price: Mapped[int | None] = mapped_column()
    # Switched off by the operator (api/customization): its domains show "site closed" and its
    # accounts cannot sign in; switching it on again clears this.
    closed_at: Mapped[datetime | None] = mapped_column()

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
