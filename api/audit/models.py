from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, ForeignKey, Index, String, event
from sqlalchemy.orm import Mapped, mapped_column

from api.extensions.db import Model, utcnow
from api.tenancy import TenantOwned


class OperationLog(TenantOwned, Model):
    """One mutating call of a signed-in account: who, what, when, target, before and after.
    Written once by the recorder (api/audit/recorder.py) and never changed."""

    __tablename__ = "operation_log"
    __table_args__ = (
        Index("ix_operation_log_account_time", "account_id", "created_at"),
        Index("ix_operation_log_chain", "platform_id", "seq", unique=True),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="SET NULL"))
    user_name: Mapped[str] = mapped_column(String(50))
    action: Mapped[str] = mapped_column(String(100))  # the call's endpoint
    summary: Mapped[str] = mapped_column(String(200), default="")  # what the call does
    method: Mapped[str] = mapped_column(String(10))
    path: Mapped[str] = mapped_column(String(300))
    target: Mapped[str | None] = mapped_column(String(200))
    before: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    after: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    ip: Mapped[str | None] = mapped_column(String(45))
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    # Why the change was made, where one is asked (FDA mode: 21 CFR 11.10(e)).
    reason: Mapped[str | None] = mapped_column(String(200))
    # The hash chain (api/audit/chain.py): the entry's place in its platform's chain, the previous
    # entry's hash and the hash of its own content with that previous hash. NULL on entries written
    # before the chain existed.
    seq: Mapped[int | None] = mapped_column(BigInteger)
    prev_hash: Mapped[str | None] = mapped_column(String(64))
    entry_hash: Mapped[str | None] = mapped_column(String(64))
    # The id of the HMAC key the entry hash was made with (api/extensions/hashkeys.py); NULL on
    # entries hashed with plain SHA-256 before keys existed (accepted up to HashLegacyCutoff only).
    hash_key_id: Mapped[str | None] = mapped_column(String(16))


class AuditChainHead(Model):
    """The last link of a platform's chain: its sequence number and hash, so that deleting the newest
    entries is detected too (the chain alone would just look shorter)."""

    __tablename__ = "audit_chain_head"

    platform_id: Mapped[int] = mapped_column(ForeignKey("platform.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(BigInteger, default=0)
    last_hash: Mapped[str] = mapped_column(String(64))


class HashLegacyCutoff(Model):
    """The last row of a table hashed before keyed hashes began (written by migration 0035, never
    changed): a row after it without a key id was hashed by someone without the key, and is refused."""

    __tablename__ = "hash_legacy_cutoff"

    table_name: Mapped[str] = mapped_column(String(64), primary_key=True)
    last_id: Mapped[int] = mapped_column(BigInteger, default=0)


class ReadOnlyLogError(RuntimeError):
    pass


@event.listens_for(OperationLog, "before_update")
@event.listens_for(OperationLog, "before_delete")
def _read_only(mapper, connection, target) -> None:
    raise ReadOnlyLogError("the operation log cannot be changed")
