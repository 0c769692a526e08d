"""The operation log as a tamper-evident trail (21 CFR 11.10(e), EU GMP Annex 11 §9).

Every entry is a link of its platform's chain: it stores its sequence number, the hash of the entry
before it and the SHA-256 of its own content (who, when, what, old and new values, reason) together
with that previous hash. A head row per platform holds the last sequence number and hash. Editing a
row changes its content hash, deleting one leaves a gap in the sequence (and a wrong previous hash
after it), deleting the newest ones leaves the head ahead of the table: `verify` names the first
broken entry.

Entries are sealed as they are flushed, whoever writes them (the recorder, the FDA area), so no
writer can forget. On PostgreSQL a transaction-scoped advisory lock per platform orders concurrent
writers; SQLite serialises writers itself.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import UTC

from sqlalchemy import event, select, text
from sqlalchemy.orm import Session

from api.audit.models import AuditChainHead, OperationLog
from api.extensions.db import db, utcnow

GENESIS = "0" * 64
# The advisory-lock namespace of the chain (any constant; one per purpose).
LOCK_NAMESPACE = 0x0A0D17


def content_of(entry: OperationLog) -> dict:
    """What the hash covers, in a form that reads back identically from every database."""
    created = entry.created_at.astimezone(UTC).replace(tzinfo=None).isoformat(timespec="microseconds")
    return {
        "platform": entry.platform_id,
        "seq": entry.seq,
        "account": entry.account_id,
        "user": entry.user_name,
        "action": entry.action,
        "summary": entry.summary or "",
        "method": entry.method,
        "path": entry.path,
        "target": entry.target,
        "before": entry.before or [],
        "after": entry.after or [],
        "ip": entry.ip,
        "reason": entry.reason,
        "at": created,
    }


def digest(entry: OperationLog, prev_hash: str) -> str:
    body = json.dumps(
        {"prev": prev_hash, "entry": content_of(entry)},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
        default=str,
    )
    return hashlib.sha256(body.encode()).hexdigest()


def _head(session: Session, platform_id: int) -> AuditChainHead:
    connection = session.connection()
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:ns, :key)"), {"ns": LOCK_NAMESPACE, "key": platform_id})
    head = session.scalar(select(AuditChainHead).where(AuditChainHead.platform_id == platform_id))
    if head is None:
        head = AuditChainHead(platform_id=platform_id, seq=0, last_hash=GENESIS)
        session.add(head)
    return head


def seal(session: Session, entry: OperationLog) -> None:
    # Microseconds are what both databases keep: the stored time must hash like the sealed one.
    entry.created_at = (entry.created_at or utcnow()).astimezone(UTC)
    entry.before = entry.before or []
    entry.after = entry.after or []
    with session.no_autoflush:
        head = _head(session, entry.platform_id)
        entry.seq = head.seq + 1
        entry.prev_hash = head.last_hash
        entry.entry_hash = digest(entry, head.last_hash)
        head.seq, head.last_hash = entry.seq, entry.entry_hash


def _seal_new_entries(session: Session, flush_context, instances) -> None:
    entries = sorted(
        (obj for obj in session.new if isinstance(obj, OperationLog) and obj.entry_hash is None),
        key=lambda obj: obj.created_at or utcnow(),
    )
    for entry in entries:
        seal(session, entry)


def install() -> None:
    if not event.contains(Session, "before_flush", _seal_new_entries):
        event.listen(Session, "before_flush", _seal_new_entries)


@dataclass
class Break:
    platform_id: int
    seq: int
    entry_id: int | None
    problem: str

    def describe(self) -> str:
        row = f"id {self.entry_id}" if self.entry_id is not None else "no row"
        return f"platform {self.platform_id}: entry #{self.seq} ({row}): {self.problem}"


@dataclass
class Verdict:
    platform_id: int
    entries: int
    broken: Break | None


def verify_platform(platform_id: int, batch: int = 2000) -> Verdict:
    """Walk one platform's chain in sequence order; the first broken link, if any."""
    head = db.session.scalar(select(AuditChainHead).where(AuditChainHead.platform_id == platform_id))
    expected_seq, prev_hash, checked, last_id = 1, GENESIS, 0, None
    # Unchained entries after the chain began are rows whose link fields were wiped.
    unchained = db.session.scalar(
        select(OperationLog.id)
        .where(
            OperationLog.platform_id == platform_id,
            OperationLog.seq.is_(None),
            OperationLog.id > _first_id(platform_id),
        )
        .order_by(OperationLog.id)
        .limit(1)
    )
    if unchained is not None:
        return Verdict(platform_id, 0, Break(platform_id, 0, unchained, "its chain fields were removed"))
    after = 0
    while True:
        rows = db.session.scalars(
            select(OperationLog)
            .where(OperationLog.platform_id == platform_id, OperationLog.seq > after)
            .order_by(OperationLog.seq)
            .limit(batch)
        ).all()
        if not rows:
            break
        for entry in rows:
            if entry.seq != expected_seq:
                problem = f"missing (the next entry present is #{entry.seq}, id {entry.id})"
                return Verdict(platform_id, checked, Break(platform_id, expected_seq, None, problem))
            if entry.prev_hash != prev_hash:
                return Verdict(
                    platform_id,
                    checked,
                    Break(platform_id, entry.seq, entry.id, "its link to the previous entry is broken"),
                )
            if digest(entry, prev_hash) != entry.entry_hash:
                return Verdict(platform_id, checked, Break(platform_id, entry.seq, entry.id, "its content was changed"))
            prev_hash, expected_seq, checked, last_id = entry.entry_hash, expected_seq + 1, checked + 1, entry.id
        after = rows[-1].seq
        db.session.expunge_all()
    if head is not None and (head.seq != expected_seq - 1 or head.last_hash != prev_hash):
        problem = f"missing (the chain ends at #{expected_seq - 1}, id {last_id}; the head says #{head.seq})"
        return Verdict(platform_id, checked, Break(platform_id, expected_seq, None, problem))
    if head is None and checked:
        return Verdict(platform_id, checked, Break(platform_id, expected_seq - 1, last_id, "the chain head is missing"))
    return Verdict(platform_id, checked, None)


def _first_id(platform_id: int) -> int:
    """The id of the chain's first entry (entries before it predate the chain)."""
    first = db.session.scalar(
        select(OperationLog.id)
        .where(OperationLog.platform_id == platform_id, OperationLog.seq.is_not(None))
        .order_by(OperationLog.seq)
        .limit(1)
    )
    return first if first is not None else 2**63 - 1


def verify_all() -> list[Verdict]:
    platforms = set(db.session.scalars(select(AuditChainHead.platform_id)))
    platforms |= set(
        db.session.scalars(select(OperationLog.platform_id).where(OperationLog.seq.is_not(None)).distinct())
    )
    return [verify_platform(platform_id) for platform_id in sorted(platforms)]
