from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from api.extensions.db import Model, str_enum, utcnow


class CaptchaChallenge(Model):
    """An image captcha: the answer kept hashed, valid once and for a few minutes."""

    __tablename__ = "captcha_challenge"

    key: Mapped[str] = mapped_column(String(32), primary_key=True)
    answer_hash: Mapped[str] = mapped_column(String(64))
    expires_at: Mapped[datetime] = mapped_column(index=True)


class CodePurpose(enum.StrEnum):
    LOGIN = "login"
    REGISTER = "register"
    FORGOT = "forgot"
    BIND = "bind"


class CodeChannel(enum.StrEnum):
    PHONE = "phone"
    EMAIL = "email"


class VerificationCode(Model):
    __tablename__ = "verification_code"
    __table_args__ = (Index("ix_verification_code_lookup", "platform_id", "channel", "target", "created_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    platform_id: Mapped[int] = mapped_column(ForeignKey("platform.id", ondelete="CASCADE"))
    channel: Mapped[CodeChannel] = mapped_column(str_enum(CodeChannel))
    target: Mapped[str] = mapped_column(String(254))
    purpose: Mapped[CodePurpose] = mapped_column(str_enum(CodePurpose))
    code_hash: Mapped[str] = mapped_column(String(64))
    # Wrong guesses from the requester that asked for the code, and from everybody else together.
    attempts: Mapped[int] = mapped_column(default=0)
    foreign_attempts: Mapped[int] = mapped_column(default=0, server_default="0")
    client_ip: Mapped[str | None] = mapped_column(String(45))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime] = mapped_column()
    consumed_at: Mapped[datetime | None] = mapped_column()
