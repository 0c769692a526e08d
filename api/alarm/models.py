from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Float, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from api.extensions.db import Model, TimestampMixin, str_enum, utcnow
from api.tenancy import TenantOwned


class AlarmKind(enum.StrEnum):
    UPPER = "upper"  # a reading above the sensor's upper limit
    LOWER = "lower"  # below the lower limit
    OFFLINE = "offline"  # no data for interval x N
    BATTERY = "battery"  # battery below the rule's threshold
    FAULT = "fault"  # a probe reported no value
    FENCE = "fence"  # a waybill's device crossed an electric fence that raises alarms (api/waybill)
    BUDGET = "budget"  # goods on the device used the alert share of a stability band (api/budget)


SENSOR_KINDS = (AlarmKind.UPPER, AlarmKind.LOWER, AlarmKind.FAULT)


class AlarmStatus(enum.StrEnum):
    DELAYING = "delaying"  # outside the limits, but not yet for the rule's delay: not an alarm yet
    OPEN = "open"
    CLOSED = "closed"  # recovered


class ProcessState(enum.StrEnum):
    PENDING = "pending"
    AGREED = "agreed"
    REJECTED = "rejected"
    ON_HOLD = "on_hold"


class CloseReason(enum.StrEnum):
    """Why an alarm closed without its value recovering (shown in the alarm record)."""

    DEVICE_DISABLED = "device_disabled"
    DEVICE_SCRAPPED = "device_scrapped"
    ASSET_DISABLED = "asset_disabled"
    WAYBILL_COMPLETED = "waybill_completed"  # a trip's fence alarms, when its waybill completes


class AckVia(enum.StrEnum):
    """How an alarm was acknowledged."""

    SMS = "sms"  # a reply carrying the alarm's code, from the phone it was sent to
    VOICE = "voice"  # a key press during the alarm's call
    EMAIL = "email"  # the signed link of the alarm's email
    CONSOLE = "console"  # a signed-in user in the console


class RuleClass(enum.StrEnum):
    ALARM = "alarm"
    WARNING = "warning"


class MessageType(enum.StrEnum):
    ALARM = "alarm"
    SYSTEM = "system"


class SensorLimit(Model):
    """The owner's limits for one sensor of one device; an optional delay (minutes outside the limits
    before it becomes an alarm)."""

    __tablename__ = "sensor_limit"
    __table_args__ = (UniqueConstraint("device_id", "sensor"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    device_id: Mapped[int] = mapped_column(ForeignKey("device.id", ondelete="CASCADE"))
    sensor: Mapped[int] = mapped_column()
    upper: Mapped[float | None] = mapped_column(Float)
    lower: Mapped[float | None] = mapped_column(Float)
    delay_minutes: Mapped[int] = mapped_column(default=0)
    enabled: Mapped[bool] = mapped_column(default=True)


class SensorLimitHistory(Model):
    """The limits of one sensor over time (valid from, to; who changed them and why): a report applies
    the limits in force at each reading's time. Written with every change of a SensorLimit
    (api/alarm/limit_history), never edited afterwards."""

    __tablename__ = "sensor_limit_history"
    __table_args__ = (Index("ix_sensor_limit_history_device", "device_id", "sensor", "valid_from"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    device_id: Mapped[int] = mapped_column(ForeignKey("device.id", ondelete="CASCADE"))
    sensor: Mapped[int] = mapped_column()
    upper: Mapped[float | None] = mapped_column(Float)
    lower: Mapped[float | None] = mapped_column(Float)
    delay_minutes: Mapped[int] = mapped_column(default=0)
    enabled: Mapped[bool] = mapped_column(default=True)
    valid_from: Mapped[datetime] = mapped_column(default=utcnow)
    valid_to: Mapped[datetime | None] = mapped_column()
    changed_by: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="SET NULL"))
    reason: Mapped[str | None] = mapped_column(String(200))


class MessageTemplate(TimestampMixin, Model):
    """An operator's text for one channel, in each language: {"zh-CN": "...", "en-US": "..."} with
    placeholders {device} {guid} {sensor} {value} {limit} {time} {level} {alarm}."""

    __tablename__ = "message_template"

    id: Mapped[int] = mapped_column(primary_key=True)
    msg_name: Mapped[str] = mapped_column(String(20), unique=True)
    type: Mapped[str] = mapped_column(String(10))  # a notify Channel value
    content: Mapped[dict[str, str]] = mapped_column(JSON, default=dict)


class AlarmRule(TimestampMixin, Model):
    """The operator's alarm and warning rules, defaults per device type: which kinds are evaluated
    (activeDefault), the message content, level and threshold (battery %)."""

    __tablename__ = "alarm_rule"
    __table_args__ = (UniqueConstraint("device_type_id", "alarm_kind"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    device_type_id: Mapped[int] = mapped_column(ForeignKey("device_type.id", ondelete="CASCADE"))
    alarm_kind: Mapped[AlarmKind] = mapped_column(str_enum(AlarmKind))
    rule_class: Mapped[RuleClass] = mapped_column(str_enum(RuleClass), default=RuleClass.ALARM)
    rule_name: Mapped[str] = mapped_column(String(100))
    content: Mapped[str | None] = mapped_column(String(500))
    alarm_level: Mapped[int] = mapped_column(default=1)
    active_default: Mapped[bool] = mapped_column(default=True)
    threshold: Mapped[float | None] = mapped_column(Float)
    template_id: Mapped[int | None] = mapped_column(ForeignKey("message_template.id", ondelete="SET NULL"))


class Alarm(TenantOwned, Model):
    """One excursion of one device (and sensor): opened, updated while it lasts, closed on recovery;
    processed by a person (agreed, rejected, on hold) with a result."""

    __tablename__ = "alarm"
    __table_args__ = (
        Index("ix_alarm_device_status", "device_id", "status"),
        Index("ix_alarm_escalation", "status", "process_state"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    owner_account_id: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="SET NULL"), index=True)
    device_id: Mapped[int] = mapped_column(ForeignKey("device.id", ondelete="CASCADE"))
    kind: Mapped[AlarmKind] = mapped_column(str_enum(AlarmKind))
    sensor: Mapped[int | None] = mapped_column()
    status: Mapped[AlarmStatus] = mapped_column(str_enum(AlarmStatus), default=AlarmStatus.DELAYING)
    breach_started_at: Mapped[datetime] = mapped_column()
    opened_at: Mapped[datetime | None] = mapped_column()
    closed_at: Mapped[datetime | None] = mapped_column()
    last_seen_at: Mapped[datetime] = mapped_column()
    limit_value: Mapped[float | None] = mapped_column(Float)
    first_value: Mapped[float | None] = mapped_column(Float)
    peak_value: Mapped[float | None] = mapped_column(Float)
    last_value: Mapped[float | None] = mapped_column(Float)
    process_state: Mapped[ProcessState] = mapped_column(str_enum(ProcessState), default=ProcessState.PENDING)
    result: Mapped[str | None] = mapped_column(String(50))
    processed_by: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="SET NULL"))
    processed_at: Mapped[datetime | None] = mapped_column()
    # Escalation bookkeeping: the highest level notified so far (0: none yet).
    level_reached: Mapped[int] = mapped_column(default=0)
    # Why it closed when that was not a recovery (CloseReason); NULL: the value came back within limits.
    close_reason: Mapped[str | None] = mapped_column(String(40))
    # Acknowledged (api/alarm/ack.py): when, how (AckVia), by whom (an account, or the phone / email the
    # alarm reached). Stops the alarm's repeats and escalation; set once (the first acknowledgement wins).
    acknowledged_at: Mapped[datetime | None] = mapped_column()
    ack_via: Mapped[str | None] = mapped_column(String(10))
    ack_account_id: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="SET NULL"))
    ack_by: Mapped[str | None] = mapped_column(String(254))


class AlarmDisposition(Model):
    """One processing decision on an alarm: who, when, what (agreed, rejected, on hold) and the
    comment. Append-only: a later decision is a new row, never an edit; the latest one is the alarm's
    process state (kept on the alarm too, for filters and escalation)."""

    __tablename__ = "alarm_disposition"
    __table_args__ = (Index("ix_alarm_disposition_alarm", "alarm_id", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    alarm_id: Mapped[int] = mapped_column(ForeignKey("alarm.id", ondelete="CASCADE"))
    state: Mapped[ProcessState] = mapped_column(str_enum(ProcessState))
    result: Mapped[str | None] = mapped_column(String(50))
    account_id: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Message(TenantOwned, Model):
    """The account's message centre: one row per opened alarm, plus system messages (balance
    exhausted ...). Text is rendered when read, in the reader's language, from `code` and `params`."""

    __tablename__ = "message"
    __table_args__ = (Index("ix_message_owner_created", "owner_account_id", "created_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    owner_account_id: Mapped[int] = mapped_column(ForeignKey("account.id", ondelete="CASCADE"))
    type: Mapped[MessageType] = mapped_column(str_enum(MessageType))
    alarm_id: Mapped[int | None] = mapped_column(ForeignKey("alarm.id", ondelete="CASCADE"), unique=True)
    device_id: Mapped[int | None] = mapped_column(ForeignKey("device.id", ondelete="CASCADE"), index=True)
    code: Mapped[str] = mapped_column(String(40))
    params: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    read_at: Mapped[datetime | None] = mapped_column()

    alarm: Mapped[Alarm | None] = relationship()


class PushSetting(TimestampMixin, Model):
    """How a device's alarms reach people: levels (minutes after trigger), channels, repeats, delay,
    scheduled hours and what is urgent enough to ignore them."""

    __tablename__ = "push_setting"

    device_id: Mapped[int] = mapped_column(ForeignKey("device.id", ondelete="CASCADE"), primary_key=True)
    enabled: Mapped[bool] = mapped_column(default=True)
    multi_level: Mapped[bool] = mapped_column(default=False)
    level_minutes: Mapped[list[int]] = mapped_column(JSON, default=list)  # [level 1, level 2, level 3]
    channels: Mapped[list[str]] = mapped_column(JSON, default=list)
    repeat_count: Mapped[int] = mapped_column(default=0)  # extra sends per level while unprocessed
    # Each level reached repeats at the interval until the alarm is acknowledged (repeat_count ignored,
    # bounded by api.alarm.escalation.ACK_REPEAT_LIMIT).
    repeat_until_ack: Mapped[bool] = mapped_column(default=False)
    interval_minutes: Mapped[int] = mapped_column(default=10)
    delay_minutes: Mapped[int] = mapped_column(default=0)
    schedule_start: Mapped[str | None] = mapped_column(String(5))  # "HH:MM" in the device's time zone
    schedule_end: Mapped[str | None] = mapped_column(String(5))
    urgent_kinds: Mapped[list[str]] = mapped_column(JSON, default=list)
    webhook_url: Mapped[str | None] = mapped_column(String(500))
    webhook_secret: Mapped[str | None] = mapped_column(String(64))

    recipients: Mapped[list[AlarmRecipient]] = relationship(
        order_by="(AlarmRecipient.level, AlarmRecipient.id)", cascade="all, delete-orphan"
    )


class AlarmRecipient(Model):
    __tablename__ = "alarm_recipient"

    id: Mapped[int] = mapped_column(primary_key=True)
    device_id: Mapped[int] = mapped_column(ForeignKey("push_setting.device_id", ondelete="CASCADE"), index=True)
    level: Mapped[int] = mapped_column()
    name: Mapped[str] = mapped_column(String(50))
    phone: Mapped[str | None] = mapped_column(String(20))
    email: Mapped[str | None] = mapped_column(String(254))
    lang: Mapped[str] = mapped_column(String(10), default="zh-CN")
    # "contact" (name, phone, email as entered) or "onCall": the person on call of a schedule at each
    # send (api/alarm/recipients.py); `schedule_id` names it, None picks the device's by scope.
    kind: Mapped[str] = mapped_column(String(10), default="contact", server_default="contact")
    schedule_id: Mapped[int | None] = mapped_column()
