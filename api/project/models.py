from __future__ import annotations

from sqlalchemy import ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from api.extensions.db import Model, TimestampMixin
from api.tenancy import TenantOwned


class Project(TenantOwned, TimestampMixin, Model):
    __tablename__ = "project"

    id: Mapped[int] = mapped_column(primary_key=True)
    owner_account_id: Mapped[int] = mapped_column(ForeignKey("account.id", ondelete="CASCADE"), index=True)
    project_name: Mapped[str] = mapped_column(String(20))


class ProjectDevice(Model):
    __tablename__ = "project_device"
    __table_args__ = (UniqueConstraint("project_id", "device_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    project_id: Mapped[int] = mapped_column(ForeignKey("project.id", ondelete="CASCADE"), index=True)
    device_id: Mapped[int] = mapped_column(ForeignKey("device.id", ondelete="CASCADE"), index=True)
