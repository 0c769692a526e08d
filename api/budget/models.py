from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Float, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from api.extensions.db import Model, TimestampMixin, str_enum
from api.tenancy import TenantOwned


class StabilityProfile(TenantOwned, TimestampMixin, Model):
    """A product's stability data: its labelled storage range [range_low, range_high] (no budget is
    spent inside it), bands outside it ([{"low", "high", "hours"}], api/budget/compute.py says which
    values each holds), an optional MKT limit and the share of a band that raises an alert."""

    __tablename__ = "stability_profile"

    id: Mapped[int] = mapped_column(primary_key=True)
    owner_account_id: Mapped[int] = mapped_column(ForeignKey("account.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(50))
    range_low: Mapped[float] = mapped_column(Float)
    range_high: Mapped[float] = mapped_column(Float)
    bands: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    mkt_limit: Mapped[float | None] = mapped_column(Float)
    alert_percent: Mapped[int] = mapped_column(default=80)


class WaybillBudget(Model):
    """A waybill's goods under a profile: one per waybill; `alerted_at` / `alarm_id` once its threshold
    alarm has been raised (never twice)."""

    __tablename__ = "waybill_budget"

    id: Mapped[int] = mapped_column(primary_key=True)
    waybill_id: Mapped[int] = mapped_column(ForeignKey("waybill.id", ondelete="CASCADE"), unique=True)
    profile_id: Mapped[int] = mapped_column(ForeignKey("stability_profile.id", ondelete="CASCADE"), index=True)
    alerted_at: Mapped[datetime | None] = mapped_column()
    alarm_id: Mapped[int | None] = mapped_column(ForeignKey("alarm.id", ondelete="SET NULL"))


class LotDisposition(enum.StrEnum):
    RELEASED = "released"
    QUARANTINED = "quarantined"
    REJECTED = "rejected"


class StorageLot(TenantOwned, TimestampMixin, Model):
    """A lot of a product held in a storage from `placed_at` until `removed_at` (open: still there),
    optionally under a stability profile; its disposition once a band is exhausted (signed in FDA mode)."""

    __tablename__ = "storage_lot"
    __table_args__ = (Index("ix_storage_lot_storage", "storage_id", "removed_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    storage_id: Mapped[int] = mapped_column(ForeignKey("cold_storage.id", ondelete="CASCADE"))
    product: Mapped[str] = mapped_column(String(50))
    lot_number: Mapped[str | None] = mapped_column(String(50))
    quantity: Mapped[int] = mapped_column()
    placed_at: Mapped[datetime] = mapped_column()
    removed_at: Mapped[datetime | None] = mapped_column()
    profile_id: Mapped[int | None] = mapped_column(ForeignKey("stability_profile.id", ondelete="SET NULL"), index=True)
    alerted_at: Mapped[datetime | None] = mapped_column()
    alarm_id: Mapped[int | None] = mapped_column(ForeignKey("alarm.id", ondelete="SET NULL"))
    disposition: Mapped[LotDisposition | None] = mapped_column(str_enum(LotDisposition))
    disposition_reason: Mapped[str | None] = mapped_column(String(200))
    disposed_by: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="SET NULL"))
    disposed_at: Mapped[datetime | None] = mapped_column()
