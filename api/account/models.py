from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from api.extensions.db import Model, TimestampMixin, str_enum, utcnow
from api.tenancy import TenantOwned


class AccountType(enum.StrEnum):
    ENTERPRISE = "enterprise"
    PERSONAL = "personal"


class StaffRole(enum.StrEnum):
    """Platform staff: the operator runs the whole platform, a platform admin runs one branded site."""

    OPERATOR = "operator"
    PLATFORM_ADMIN = "platform_admin"


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
    time_zone: Mapped[str] = mapped_column(String(64), default="Asia/Shanghai")
    temperature_unit: Mapped[str] = mapped_column(String(1), default="C")
    # Password ageing (spec: warning from day 75, 90-day lifetime) counts from here.
    prev_reset_at: Mapped[datetime] = mapped_column(default=utcnow)
    cancelled: Mapped[bool] = mapped_column(default=False)
