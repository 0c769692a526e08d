"""Waybills (shipments watched from door to door), electric fences, fence events and share links."""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Float, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from api.extensions.db import Model, TimestampMixin, str_enum, utcnow
from api.tenancy import TenantOwned


class WaybillState(enum.StrEnum):
    NOT_STARTED = "not_started"
    IN_PROGRESS = "in_progress"
    COMPLETED = "completed"


class Trigger(enum.StrEnum):
    """How a waybill starts (leaving its origin fence) or stops (entering its destination fence)."""

    MANUAL = "manual"
    FENCE = "fence"
    TIME = "time"


class Disposition(enum.StrEnum):
    RELEASED = "released"
    QUARANTINED = "quarantined"  # held until decided (a stability band exhausted: api/budget)
    REJECTED = "rejected"


class FenceShape(enum.StrEnum):
    CIRCLE = "circle"
    POLYGON = "polygon"


class FenceEventKind(enum.StrEnum):
    ENTER = "enter"
    LEAVE = "leave"


class Fence(TenantOwned, TimestampMixin, Model):
    """An electric fence: a circle (centre + radius in metres) or a polygon of at most ten points
    ([[lat, lng], ...]). Crossing it raises an event and, if asked, an alarm."""

    __tablename__ = "fence"

    id: Mapped[int] = mapped_column(primary_key=True)
    owner_account_id: Mapped[int] = mapped_column(ForeignKey("account.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(20))
    shape: Mapped[FenceShape] = mapped_column(str_enum(FenceShape))
    lat: Mapped[float | None] = mapped_column(Float)
    lng: Mapped[float | None] = mapped_column(Float)
    radius: Mapped[float | None] = mapped_column(Float)
    points: Mapped[list[list[float]]] = mapped_column(JSON, default=list)
    alarm_enter: Mapped[bool] = mapped_column(default=False)
    alarm_leave: Mapped[bool] = mapped_column(default=False)


class Waybill(TenantOwned, TimestampMixin, Model):
    """A shipment with its logger: while in progress the waybill's limits drive the device's alarms
    (`saved_limit` keeps the device's own limit to restore afterwards)."""

    __tablename__ = "waybill"
    __table_args__ = (Index("ix_waybill_device_state", "device_id", "state"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    owner_account_id: Mapped[int] = mapped_column(ForeignKey("account.id", ondelete="CASCADE"), index=True)
    device_id: Mapped[int] = mapped_column(ForeignKey("device.id", ondelete="CASCADE"))
    order_num: Mapped[str] = mapped_column(String(20))
    waybill_num: Mapped[str] = mapped_column(String(32), index=True)
    goods_name: Mapped[str] = mapped_column(String(20))
    express_number: Mapped[str | None] = mapped_column(String(100))
    cooler_code: Mapped[str | None] = mapped_column(String(20))
    record_interval: Mapped[int | None] = mapped_column()  # minutes
    sensor: Mapped[int] = mapped_column(default=1)  # the probe the limits apply to
    upper_limit: Mapped[float] = mapped_column(Float)
    lower_limit: Mapped[float] = mapped_column(Float)
    air_flag: Mapped[bool] = mapped_column(default=False)
    fence_model_id: Mapped[int | None] = mapped_column(ForeignKey("fence.id", ondelete="SET NULL"))
    origin_fence_id: Mapped[int | None] = mapped_column(ForeignKey("fence.id", ondelete="SET NULL"))
    destination_fence_id: Mapped[int | None] = mapped_column(ForeignKey("fence.id", ondelete="SET NULL"))
    start_mode: Mapped[Trigger] = mapped_column(str_enum(Trigger), default=Trigger.MANUAL)
    stop_mode: Mapped[Trigger] = mapped_column(str_enum(Trigger), default=Trigger.MANUAL)
    start_at: Mapped[datetime | None] = mapped_column()
    stop_at: Mapped[datetime | None] = mapped_column()
    ignore_minutes: Mapped[int] = mapped_column(default=10)
    sender_name: Mapped[str] = mapped_column(String(20))
    sender_phone: Mapped[str] = mapped_column(String(20))
    receiver_company: Mapped[str | None] = mapped_column(String(20))
    receiver_name: Mapped[str] = mapped_column(String(20))
    receiver_phone: Mapped[str] = mapped_column(String(20))
    alarm_name: Mapped[str | None] = mapped_column(String(20))
    alarm_phone: Mapped[str | None] = mapped_column(String(20))
    alarm_email: Mapped[str | None] = mapped_column(String(100))
    state: Mapped[WaybillState] = mapped_column(str_enum(WaybillState), default=WaybillState.NOT_STARTED)
    start_requested_at: Mapped[datetime | None] = mapped_column()  # waiting for the device's first upload
    started_at: Mapped[datetime | None] = mapped_column()
    armed_at: Mapped[datetime | None] = mapped_column()  # end of the ignore period
    armed: Mapped[bool] = mapped_column(default=False)
    completed_at: Mapped[datetime | None] = mapped_column()
    saved_limit: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    fence_inside: Mapped[dict[str, bool]] = mapped_column(JSON, default=dict)
    fence_checked_at: Mapped[datetime | None] = mapped_column()  # positions up to here are evaluated
    disposition: Mapped[Disposition | None] = mapped_column(str_enum(Disposition))
    disposition_reason: Mapped[str | None] = mapped_column(String(200))
    disposed_by: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="SET NULL"))
    disposed_at: Mapped[datetime | None] = mapped_column()


class WaybillFenceEvent(Model):
    """One crossing of a fence by a waybill's device (exactly one per crossing: hysteresis)."""

    __tablename__ = "waybill_fence_event"

    id: Mapped[int] = mapped_column(primary_key=True)
    waybill_id: Mapped[int] = mapped_column(ForeignKey("waybill.id", ondelete="CASCADE"), index=True)
    fence_id: Mapped[int | None] = mapped_column(ForeignKey("fence.id", ondelete="SET NULL"))
    fence_name: Mapped[str] = mapped_column(String(20))
    kind: Mapped[FenceEventKind] = mapped_column(str_enum(FenceEventKind))
    ts: Mapped[datetime] = mapped_column()
    lat: Mapped[float] = mapped_column(Float)
    lng: Mapped[float] = mapped_column(Float)
    alarm_id: Mapped[int | None] = mapped_column(ForeignKey("alarm.id", ondelete="SET NULL"))


class WaybillShare(Model):
    """A link that shows one waybill to anyone holding it, until it expires or is revoked; only the
    token's digest is stored (the link is shown once), the PIN as an argon2 hash."""

    __tablename__ = "waybill_share"

    id: Mapped[int] = mapped_column(primary_key=True)
    waybill_id: Mapped[int] = mapped_column(ForeignKey("waybill.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    token_hint: Mapped[str] = mapped_column(String(8))
    pin_hash: Mapped[str | None] = mapped_column(String(200))
    # Wrong PINs are counted per link, whichever address they come from: `pin_failures` in a row
    # (the lock's count, cleared by the right PIN), `pin_failures_total` ever (what the owner sees).
    pin_failures: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    pin_failures_total: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    pin_failed_at: Mapped[datetime | None] = mapped_column()
    pin_locked_until: Mapped[datetime | None] = mapped_column()
    expires_at: Mapped[datetime] = mapped_column()
    revoked_at: Mapped[datetime | None] = mapped_column()
    created_by: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class WaybillShareAccess(Model):
    """The access log of a share link: when, from where, and what the visitor got."""

    __tablename__ = "waybill_share_access"

    id: Mapped[int] = mapped_column(primary_key=True)
    share_id: Mapped[int] = mapped_column(ForeignKey("waybill_share.id", ondelete="CASCADE"), index=True)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    ip: Mapped[str | None] = mapped_column(String(64))
    user_agent: Mapped[str | None] = mapped_column(String(200))
    outcome: Mapped[str] = mapped_column(String(20))  # shown, pin, locked, expired, revoked


class TrackTemplate(TenantOwned, TimestampMixin, Model):
    """How a track is drawn on the map (business-domain section 5: name max 10): the line's colour and
    width, whether stops of at least `stop_minutes` are marked (0: not marked), whether the stretches
    where the temperature was outside the waybill's limits are drawn in the alarm colours. One of an
    account's templates may be its default."""

    __tablename__ = "track_template"
    __table_args__ = (UniqueConstraint("owner_account_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    owner_account_id: Mapped[int] = mapped_column(ForeignKey("account.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(10))
    line_color: Mapped[str] = mapped_column(String(7))
    line_width: Mapped[int] = mapped_column(default=3)
    stop_minutes: Mapped[int] = mapped_column(default=0)
    color_by_limits: Mapped[bool] = mapped_column(default=True)
    is_default: Mapped[bool] = mapped_column(default=False)
