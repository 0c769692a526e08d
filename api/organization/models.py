from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from api.extensions.db import Model, TimestampMixin, utcnow
from api.tenancy import TenantOwned


class Organization(TenantOwned, TimestampMixin, Model):
    """A node of an organisation tree. `owner_account_id` is the creator of the tree (the enterprise
    account); `path` is the materialised path of ids (`/1/4/9/`) so a subtree is one LIKE."""

    __tablename__ = "organization"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(50))
    parent_id: Mapped[int | None] = mapped_column(ForeignKey("organization.id", ondelete="CASCADE"), index=True)
    owner_account_id: Mapped[int] = mapped_column(ForeignKey("account.id"), index=True)
    path: Mapped[str] = mapped_column(String(500), default="/", index=True)


class OrganizationMember(Model):
    __tablename__ = "organization_member"
    __table_args__ = (UniqueConstraint("organization_id", "account_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    organization_id: Mapped[int] = mapped_column(ForeignKey("organization.id", ondelete="CASCADE"), index=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("account.id", ondelete="CASCADE"), index=True)
    role_id: Mapped[int | None] = mapped_column(ForeignKey("role.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    organization: Mapped[Organization] = relationship()


class OrganizationDevice(Model):
    """A device placed in an organisation (a device belongs to at most one)."""

    __tablename__ = "organization_device"

    device_id: Mapped[int] = mapped_column(ForeignKey("device.id", ondelete="CASCADE"), primary_key=True)
    organization_id: Mapped[int] = mapped_column(ForeignKey("organization.id", ondelete="CASCADE"), index=True)


class Invitation(TenantOwned, Model):
    """An invitation to join an organisation sent to a phone or email with no account yet. It is
    accepted by registering with that contact, or with its token by a signed-in account."""

    __tablename__ = "organization_invitation"

    id: Mapped[int] = mapped_column(primary_key=True)
    organization_id: Mapped[int] = mapped_column(ForeignKey("organization.id", ondelete="CASCADE"), index=True)
    role_id: Mapped[int | None] = mapped_column(ForeignKey("role.id", ondelete="SET NULL"))
    phone: Mapped[str | None] = mapped_column(String(20), index=True)
    email: Mapped[str | None] = mapped_column(String(254), index=True)
    inviter_account_id: Mapped[int] = mapped_column(ForeignKey("account.id", ondelete="CASCADE"))
    inviter_name: Mapped[str] = mapped_column(String(20))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    expires_at: Mapped[datetime] = mapped_column()
    accepted_at: Mapped[datetime | None] = mapped_column()
    accepted_account_id: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
