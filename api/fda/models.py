"""FDA 21 CFR Part 11 (business-domain sections 1-4): the account's FDA mode, endorsements
(signature meanings, 11.50(a)(3)) and electronic signatures on data files (11.50, 11.70, 11.200)."""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from api.extensions.db import Model, TimestampMixin, str_enum, utcnow
from api.tenancy import TenantOwned

IDLE_MINUTES_DEFAULT, IDLE_MINUTES_MIN, IDLE_MINUTES_MAX = 15, 5, 120


class FdaSetting(TenantOwned, Model):
    """An account's FDA mode. Changing it is signed (user name and password again) and audited."""

    __tablename__ = "fda_setting"

    account_id: Mapped[int] = mapped_column(ForeignKey("account.id", ondelete="CASCADE"), primary_key=True)
    enabled: Mapped[bool] = mapped_column(default=False)
    # FDA mode signs a session out after this many minutes without a call (11.10(d), Annex 11 §12).
    idle_minutes: Mapped[int] = mapped_column(default=IDLE_MINUTES_DEFAULT, server_default=str(IDLE_MINUTES_DEFAULT))
    changed_at: Mapped[datetime] = mapped_column(default=utcnow)
    changed_by: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="SET NULL"))


class Endorsement(TenantOwned, TimestampMixin, Model):
    """A signature meaning the account's signers choose from: reviewed, approved, responsible for ..."""

    __tablename__ = "fda_endorsement"
    __table_args__ = (UniqueConstraint("owner_account_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    owner_account_id: Mapped[int] = mapped_column(ForeignKey("account.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(50))
    description: Mapped[str] = mapped_column(String(50), default="")


class SubjectType(enum.StrEnum):
    DEVICE = "device"
    STORAGE = "storage"
    WAYBILL = "waybill"


class AssignState(enum.StrEnum):
    UNASSIGNED = "unassigned"
    ASSIGNED = "assigned"


class SignState(enum.StrEnum):
    UNSIGNED = "unsigned"
    SIGNED = "signed"


class DataFile(TenantOwned, TimestampMixin, Model):
    """A data file to be signed: one device's (storage's, waybill's) readings over a window. Its
    record hash (SHA-256 of the readings of the window) is fixed when it is signed; a later reading in
    the window is kept, and the signed record shows the difference."""

    __tablename__ = "fda_data_file"
    __table_args__ = (Index("ix_fda_data_file_checker", "checker_account_id", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    owner_account_id: Mapped[int] = mapped_column(ForeignKey("account.id", ondelete="CASCADE"), index=True)
    file_name: Mapped[str] = mapped_column(String(100))
    subject_type: Mapped[SubjectType] = mapped_column(str_enum(SubjectType, length=10))
    subject_id: Mapped[int] = mapped_column()
    collect_begin: Mapped[datetime] = mapped_column()
    collect_end: Mapped[datetime] = mapped_column()
    time_zone: Mapped[str] = mapped_column(String(64))
    checker_account_id: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="SET NULL"))
    assign_state: Mapped[AssignState] = mapped_column(str_enum(AssignState, length=12), default=AssignState.UNASSIGNED)
    sign_state: Mapped[SignState] = mapped_column(str_enum(SignState, length=10), default=SignState.UNSIGNED)
    # The unguessable code of the public verification link printed on the signed PDF.
    verify_code: Mapped[str] = mapped_column(String(32), unique=True)
    # The signed PDF in the download centre (api/report owns files).
    export_file_id: Mapped[int | None] = mapped_column(ForeignKey("export_file.id", ondelete="SET NULL"))


class Signature(TenantOwned, Model):
    """An executed electronic signature (11.50): printed name, date and time with its zone, meaning;
    bound to the record by its hash (11.70)."""

    __tablename__ = "fda_signature"

    id: Mapped[int] = mapped_column(primary_key=True)
    file_id: Mapped[int] = mapped_column(ForeignKey("fda_data_file.id", ondelete="CASCADE"), unique=True)
    signer_account_id: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="SET NULL"))
    printed_name: Mapped[str] = mapped_column(String(50))
    user_name: Mapped[str] = mapped_column(String(50))
    meaning: Mapped[str] = mapped_column(String(50))
    meaning_description: Mapped[str] = mapped_column(String(50), default="")
    signed_at: Mapped[datetime] = mapped_column(default=utcnow)
    time_zone: Mapped[str] = mapped_column(String(64))
    record_hash: Mapped[str] = mapped_column(String(64))
    readings: Mapped[int] = mapped_column(default=0)
    # SHA-256 over the record hash, signer, time and meaning: the signature cannot be moved to
    # another record or altered without this changing.
    signature_hash: Mapped[str] = mapped_column(String(64))
