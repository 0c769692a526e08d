from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import ForeignKey, String, UniqueConstraint, false, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from api.extensions.db import Model, TimestampMixin, str_enum, utcnow
from api.tenancy import TenantOwned


class AccountType(enum.StrEnum):
    ENTERPRISE = "enterprise"
    PERSONAL = "personal"


class StaffRole(enum.StrEnum):
    """Platform staff: the operator runs the whole platform, a platform admin runs one branded site."""

    OPERATOR = "operator"
    PLATFORM_ADMIN = "platform_admin"


class PasswordOrigin(enum.StrEnum):
    """Who set the account's password (21 CFR 11.200(a)(3), 11.300): only the user's own signs records."""

    OWN = "own"
    # Chosen by platform staff when they added the account: it signs in, but signs nothing until changed.
    STAFF = "staff"
    # Reset by platform staff: nobody knows it; the user sets their own ("Forgot password") first.
    RESET = "reset"


class Account(TenantOwned, TimestampMixin, Model):
    __tablename__ = "account"
    __table_args__ = (
        UniqueConstraint("platform_id", "user_name"),
        UniqueConstraint("platform_id", "phone"),
        UniqueConstraint("platform_id", "email"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    user_name: Mapped[str] = mapped_column(String(50))
    real_name: Mapped[str | None] = mapped_column(String(20))
    phone: Mapped[str | None] = mapped_column(String(20))
    email: Mapped[str | None] = mapped_column(String(254))
    password_hash: Mapped[str] = mapped_column(String(255))
    account_type: Mapped[AccountType] = mapped_column(str_enum(AccountType))
    staff_role: Mapped[StaffRole | None] = mapped_column(str_enum(StaffRole))
    company_name: Mapped[str | None] = mapped_column(String(50))
    account_photo: Mapped[str | None] = mapped_column(String(255))
    home_page: Mapped[str | None] = mapped_column(String(100))
    time_zone: Mapped[str] = mapped_column(String(64), default="Asia/Shanghai")
    temperature_unit: Mapped[str] = mapped_column(String(1), default="C")
    # Password ageing (spec: warning from day 75, 90-day lifetime) counts from here.
    prev_reset_at: Mapped[datetime] = mapped_column(default=utcnow)
    cancelled: Mapped[bool] = mapped_column(default=False)
    password_origin: Mapped[PasswordOrigin] = mapped_column(
        str_enum(PasswordOrigin, length=10), default=PasswordOrigin.OWN, server_default=PasswordOrigin.OWN.value
    )
    # No longer written: wrong passwords are counted per requester in sign_in_throttle (issue 15).
    failed_logins: Mapped[int] = mapped_column(default=0, server_default=text("0"))
    locked_until: Mapped[datetime | None] = mapped_column()
    wechat_followed: Mapped[bool] = mapped_column(default=False, server_default=false())

    @property
    def is_active(self) -> bool:
        return not self.cancelled


class AccountSession(Model):
    """A sign-in: an opaque bearer token, kept only as its SHA-256, valid for seven days."""

    __tablename__ = "account_session"

    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("account.id", ondelete="CASCADE"), index=True)
    # The site it was issued on: a token is refused on any other platform's host.
    platform_id: Mapped[int] = mapped_column(ForeignKey("platform.id", ondelete="CASCADE"))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime] = mapped_column()
    revoked_at: Mapped[datetime | None] = mapped_column()
    # The last signed-in call, kept only where a rule needs it (FDA mode's idle sign-out).
    last_seen_at: Mapped[datetime | None] = mapped_column()
    client_ip: Mapped[str | None] = mapped_column(String(45))
    user_agent: Mapped[str | None] = mapped_column(String(255))

    account: Mapped[Account] = relationship()


class OAuthState(Model):
    """An authorization request in flight: its state is single use and bound to provider, site and
    redirect URI, which must come back unchanged."""

    __tablename__ = "oauth_state"

    state_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    provider: Mapped[str] = mapped_column(String(20))
    platform_id: Mapped[int] = mapped_column(ForeignKey("platform.id", ondelete="CASCADE"))
    redirect_uri: Mapped[str] = mapped_column(String(500))
    expires_at: Mapped[datetime] = mapped_column(index=True)


class SocialIdentity(Model):
    """A WeChat / QQ / Facebook user seen on a site, and the account it is bound to (once bound)."""

    __tablename__ = "social_identity"
    __table_args__ = (UniqueConstraint("platform_id", "provider", "subject"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    platform_id: Mapped[int] = mapped_column(ForeignKey("platform.id", ondelete="CASCADE"))
    provider: Mapped[str] = mapped_column(String(20))
    subject: Mapped[str] = mapped_column(String(128))
    display_name: Mapped[str | None] = mapped_column(String(100))
    account_id: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="CASCADE"), index=True)
    # A first-time user proves who they are with this ticket at /binding (hashed, 10 minutes).
    binding_ticket_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    binding_expires_at: Mapped[datetime | None] = mapped_column()
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class SignInThrottle(Model):
    """Wrong passwords counted per sign-in subject (an account, or the hash of an unknown name) and
    requester (client address), plus one requester-independent row per subject (requester "*")
    for the slower global backoff. See api/identity/throttle.py."""

    __tablename__ = "sign_in_throttle"
    __table_args__ = (UniqueConstraint("platform_id", "subject", "requester"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    platform_id: Mapped[int] = mapped_column(ForeignKey("platform.id", ondelete="CASCADE"))
    subject: Mapped[str] = mapped_column(String(80))
    requester: Mapped[str] = mapped_column(String(64))
    failures: Mapped[int] = mapped_column(default=0)
    locks: Mapped[int] = mapped_column(default=0)
    window_start: Mapped[datetime] = mapped_column(default=utcnow)
    locked_until: Mapped[datetime | None] = mapped_column()
    succeeded_at: Mapped[datetime | None] = mapped_column()
