from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from api.extensions.db import Model, TimestampMixin
from api.tenancy import TenantOwned

MAX_DEVICES = 5


class Asset(TenantOwned, TimestampMixin, Model):
    """An asset (business-domain section 3) with up to five devices; disabling it disables them."""

    __tablename__ = "asset"

    id: Mapped[int] = mapped_column(primary_key=True)
    owner_account_id: Mapped[int] = mapped_column(ForeignKey("account.id", ondelete="CASCADE"), index=True)
    organization_id: Mapped[int | None] = mapped_column(ForeignKey("organization.id", ondelete="SET NULL"))
    comb_name: Mapped[str] = mapped_column(String(100))
    comb_type_name: Mapped[str | None] = mapped_column(String(50))
    comb_num: Mapped[str | None] = mapped_column(String(50))
    brand: Mapped[str | None] = mapped_column(String(50))
    model: Mapped[str | None] = mapped_column(String(50))
    volume: Mapped[str | None] = mapped_column(String(50))
    remark: Mapped[str | None] = mapped_column(String(200))
    custom: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    enabled: Mapped[bool] = mapped_column(default=True)


class AssetDevice(Model):
    """A device of an asset (at most one asset per device). `disabled_by_asset` remembers the
    devices the asset's disabling turned off, so enabling turns exactly those back on."""

    __tablename__ = "asset_device"

    device_id: Mapped[int] = mapped_column(ForeignKey("device.id", ondelete="CASCADE"), primary_key=True)
    asset_id: Mapped[int] = mapped_column(ForeignKey("asset.id", ondelete="CASCADE"), index=True)
    disabled_by_asset: Mapped[bool] = mapped_column(default=False)
