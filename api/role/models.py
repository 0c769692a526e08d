from __future__ import annotations

import enum

from sqlalchemy import JSON, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from api.extensions.db import Model, TimestampMixin, str_enum
from api.tenancy import TenantOwned


class OrganizationType(enum.StrEnum):
    """Roles are fetched by the type of organisation they serve (queryRoleByOrganizationType)."""

    ENTERPRISE = "enterprise"
    PERSONAL = "personal"


class Role(TenantOwned, TimestampMixin, Model):
    """A named set of permission keys (business-domain section 6) defined by an account for the
    members of its organisations. Preset roles are created with the account's first organisation."""

    __tablename__ = "role"

    id: Mapped[int] = mapped_column(primary_key=True)
    owner_account_id: Mapped[int] = mapped_column(ForeignKey("account.id", ondelete="CASCADE"), index=True)
    role_name: Mapped[str] = mapped_column(String(20))
    role_type: Mapped[OrganizationType] = mapped_column(str_enum(OrganizationType))
    description: Mapped[str | None] = mapped_column(String(200))
    permissions: Mapped[list[str]] = mapped_column(JSON, default=list)
    preset: Mapped[bool] = mapped_column(default=False)
