"""FDA 21 CFR Part 11 (business-domain sections 1-4): the account's FDA mode, endorsements
(signature meanings, 11.50(a)(3)) and electronic signatures on data files (11.50, 11.70, 11.200)."""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, LargeBinary, String, UniqueConstraint
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
    IN_REVIEW = "in_review"  # some steps of its signing sequence are signed, not the last one
    SIGNED = "signed"  # the last step is signed: the record is final and frozen


class StepRole(enum.StrEnum):
    """The part a step of a signing sequence plays (api/fda/workflow.py)."""

    AUTHOR = "author"
    REVIEWER = "reviewer"
    APPROVER = "approver"


class SigningStep(TenantOwned, Model):
    """One step of an owner account's signing sequence (its FDA signing configuration): the role, the
    meanings (endorsements) a signer may choose at this step and the accounts allowed to sign it. An
    empty list means any of the account's endorsements / any of its possible checkers."""

    __tablename__ = "fda_signing_step"
    __table_args__ = (UniqueConstraint("owner_account_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    owner_account_id: Mapped[int] = mapped_column(ForeignKey("account.id", ondelete="CASCADE"), index=True)
    position: Mapped[int] = mapped_column()
    role: Mapped[StepRole] = mapped_column(str_enum(StepRole, length=10))
    endorsement_ids: Mapped[list[int]] = mapped_column(JSON, default=list)
    signer_ids: Mapped[list[int]] = mapped_column(JSON, default=list)


class StepAssignment(Model):
    """Who the creator assigned a step of a data file to (the current step's is also the file's checker)."""

    __tablename__ = "fda_step_assignment"
    __table_args__ = (UniqueConstraint("file_id", "step"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    file_id: Mapped[int] = mapped_column(ForeignKey("fda_data_file.id", ondelete="CASCADE"))
    step: Mapped[int] = mapped_column()
    account_id: Mapped[int] = mapped_column(ForeignKey("account.id", ondelete="CASCADE"), index=True)


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
    # The signing sequence fixed when the file was created ([{step, role, endorsementIds, signerIds}]);
    # None: a file from before sequences, signed in one step by its checker.
    workflow: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON)


class Signature(TenantOwned, Model):
    """An executed electronic signature (11.50): printed name, date and time with its zone, meaning;
    bound to the record by its hash (11.70). One per step of the file's signing sequence."""

    __tablename__ = "fda_signature"
    __table_args__ = (UniqueConstraint("file_id", "step"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    file_id: Mapped[int] = mapped_column(ForeignKey("fda_data_file.id", ondelete="CASCADE"), index=True)
    step: Mapped[int] = mapped_column(default=1, server_default="1")
    role: Mapped[str] = mapped_column(String(10), default="", server_default="")
    signer_account_id: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="SET NULL"))
    printed_name: Mapped[str] = mapped_column(String(50))
    user_name: Mapped[str] = mapped_column(String(50))
    meaning: Mapped[str] = mapped_column(String(50))
    meaning_description: Mapped[str] = mapped_column(String(50), default="")
    signed_at: Mapped[datetime] = mapped_column(default=utcnow)
    time_zone: Mapped[str] = mapped_column(String(64))
    record_hash: Mapped[str] = mapped_column(String(64))
    readings: Mapped[int] = mapped_column(default=0)
    # HMAC-SHA256 (api/extensions/hashkeys.py) over the record hash, file, signer, time and meaning:
    # the signature cannot be moved to another record or altered without this changing, and only the
    # key's holder can compute it. hash_key_id names the key; NULL: plain SHA-256 (signed before keys).
    signature_hash: Mapped[str] = mapped_column(String(64))
    hash_key_id: Mapped[str | None] = mapped_column(String(16))


class SignedChannel(Model):
    """A channel (device, sensor or all) of a signed file, fixed when it was signed: the record's hash
    is checked on these readings for good, whatever later happens to the device, storage or waybill."""

    __tablename__ = "fda_signed_channel"

    id: Mapped[int] = mapped_column(primary_key=True)
    file_id: Mapped[int] = mapped_column(ForeignKey("fda_data_file.id", ondelete="CASCADE"), index=True)
    device_id: Mapped[int] = mapped_column(index=True)  # no foreign key: the record outlives the device row
    sensor: Mapped[int | None] = mapped_column()


class RecordVersion(TenantOwned, Model):
    """A signed record as it was rendered (11.70): the sealed PDF's bytes, a snapshot of everything it
    printed (device name, limits, time zone, statistics, excursions, readings hash), their hashes and
    a seal hash binding them to the signature. Written once, never changed; a re-rendered file is a
    new version, and every version stays listed."""

    __tablename__ = "fda_record_version"
    __table_args__ = (UniqueConstraint("file_id", "version"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    file_id: Mapped[int] = mapped_column(ForeignKey("fda_data_file.id", ondelete="CASCADE"), index=True)
    version: Mapped[int] = mapped_column()
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="SET NULL"))
    reason: Mapped[str] = mapped_column(String(200))
    pdf: Mapped[bytes] = mapped_column(LargeBinary, deferred=True)
    pdf_hash: Mapped[str] = mapped_column(String(64))
    snapshot: Mapped[dict[str, Any]] = mapped_column(JSON)
    snapshot_hash: Mapped[str] = mapped_column(String(64))
    # HMAC-SHA256 over the version, the PDF's and the snapshot's hashes and the signature hash, with
    # the key named by hash_key_id (NULL: plain SHA-256, sealed before keys existed).
    seal_hash: Mapped[str] = mapped_column(String(64))
    hash_key_id: Mapped[str | None] = mapped_column(String(16))


class SigningThrottle(TenantOwned, Model):
    """Wrong electronic-signature attempts of one account (21 CFR 11.300(d)): the configured number within
    the window locks its signing until `locked_until`, ends its sessions and tells its owners' FDA
    contacts once per lock (api/fda/signing_lock.py)."""

    __tablename__ = "fda_signing_throttle"

    account_id: Mapped[int] = mapped_column(ForeignKey("account.id", ondelete="CASCADE"), primary_key=True)
    failures: Mapped[int] = mapped_column(default=0)
    window_start: Mapped[datetime] = mapped_column(default=utcnow)
    locked_until: Mapped[datetime | None] = mapped_column()


class OffRequestState(enum.StrEnum):
    PENDING = "pending"
    APPROVED = "approved"
    CANCELLED = "cancelled"


class FdaOffRequest(TenantOwned, Model):
    """Turning FDA mode off takes two people (api/fda/mode_off.py): the owner asks, signed, with a
    reason; a second person who administers the owner's FDA mode approves, signed, with a meaning.
    Every request stays (approved or withdrawn) as the record of who turned the controls off, and why."""

    __tablename__ = "fda_off_request"

    id: Mapped[int] = mapped_column(primary_key=True)
    owner_account_id: Mapped[int] = mapped_column(ForeignKey("account.id", ondelete="CASCADE"), index=True)
    requested_by: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="SET NULL"))
    requested_at: Mapped[datetime] = mapped_column(default=utcnow)
    reason: Mapped[str] = mapped_column(String(200))
    state: Mapped[OffRequestState] = mapped_column(
        str_enum(OffRequestState, length=10), default=OffRequestState.PENDING
    )
    decided_by: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="SET NULL"))
    decided_at: Mapped[datetime | None] = mapped_column()
    meaning: Mapped[str | None] = mapped_column(String(200))
