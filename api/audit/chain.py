"""The operation log as a tamper-evident trail (21 CFR 11.10(e), EU GMP Annex 11 §9).

Every entry is a link of its platform's chain: it stores its sequence number, the hash of the entry
before it and the HMAC-SHA256 of its own content (who, when, what, old and new values, reason)
together with that previous hash, keyed with a secret kept outside the database
(api/extensions/hashkeys.py) and naming the key's id; entries from before keys existed keep their
plain SHA-256 (api/audit/keyed.py). A head row per platform holds the last sequence number and hash.
Editing a row changes its content hash, deleting one leaves a gap in the sequence (and a wrong
previous hash after it), deleting the newest ones leaves the head ahead of the table: `verify` names
the first broken entry. Deleting the newest ones and moving the head back, or rewriting the chain with
the key, is caught by the sealed heads exported off the database (api/audit/heads.py).

Entries are sealed as they are flushed, whoever writes them (the recorder, the FDA area), so no
writer can forget. On PostgreSQL a transaction-scoped advisory lock per platform orders concurrent
writers; on SQLite the transaction takes the database's write lock before reading the head.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import UTC

from sqlalchemy import select, text
from sqlalchemy.orm import Session

from api.audit import coverage, keyed
from api.audit.models import AuditChainHead, OperationLog
from api.extensions import hashkeys
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


def body_of(entry: OperationLog, prev_hash: str) -> bytes:
    """What the entry's hash is made of: its content and the previous entry's hash."""
    return json.dumps(
        {"prev": prev_hash, "entry": content_of(entry)},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
        default=str,
    ).encode()


def digest(entry: OperationLog, prev_hash: str) -> str:
    """The entry's keyed hash (HMAC-SHA256 with the installation's current key)."""
    return hashkeys.keyed(body_of(entry, prev_hash))[0]


def legacy_digest(entry: OperationLog, prev_hash: str) -> str:
    """The unkeyed SHA-256 of entries written before keys existed (and of a forger without the key)."""
    return hashlib.sha256(body_of(entry, prev_hash)).hexdigest()


def _head(session: Session, platform_id: int) -> AuditChainHead:
    connection = session.connection()
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:ns, :key)"), {"ns": LOCK_NAMESPACE, "key": platform_id})
    elif connection.dialect.name == "sqlite":
        # pysqlite opens the transaction at its first write only: a head read before any write ran
        # outside it, so two writers read one head and the second entry broke the chain's unique
        # index after its change had committed. A write first takes the database's write lock
        # (waiting its turn), and the head is then read inside it.
        connection.execute(text("UPDATE audit_chain_head SET seq = seq WHERE platform_id = :key"), {"key": platform_id})
    head = session.scalar(select(AuditChainHead).where(AuditChainHead.platform_id == platform_id))
    if head is None:
        head = AuditChainHead(platform_id=platform_id, seq=0, last_hash=GENESIS)
        session.add(head)
    return head


def seal(session: Session, entry: OperationLog, heads: dict[int, AuditChainHead] | None = None) -> None:
    """Link `entry` to its platform's chain. `heads`: the heads already locked by this flush (a head
    created by it is not found by a query before it is flushed)."""
    # Microseconds are what both databases keep: the stored time must hash like the sealed one.
    entry.created_at = (entry.created_at or utcnow()).astimezone(UTC)
    entry.before = entry.before or []
    entry.after = entry.after or []
    heads = {} if heads is None else heads
    with session.no_autoflush:
        head = heads.get(entry.platform_id) or _head(session, entry.platform_id)
        heads[entry.platform_id] = head
        entry.seq = head.seq + 1
        entry.prev_hash = head.last_hash
        entry.entry_hash, entry.hash_key_id = hashkeys.keyed(body_of(entry, head.last_hash))
        head.seq, head.last_hash = entry.seq, entry.entry_hash


def seal_new_entries(session: Session, flush_context, instances) -> None:
    entries = sorted(
        (obj for obj in session.new if isinstance(obj, OperationLog) and obj.entry_hash is None),
        key=lambda obj: obj.created_at or utcnow(),
    )
    heads: dict[int, AuditChainHead] = {}
    for entry in entries:
        seal(session, entry, heads)


@dataclass
class Break:
    platform_id: int
    seq: int
    entry_id: int | None
    problem: str
    key: str | None = None  # what names this break once (alarms); the entry's number by default

    def describe(self) -> str:
        if self.key is not None:
            return f"platform {self.platform_id}: {self.problem}"
        row = f"id {self.entry_id}" if self.entry_id is not None else "no row"
        return f"platform {self.platform_id}: entry #{self.seq} ({row}): {self.problem}"


@dataclass
class Verdict:
    platform_id: int
    entries: int
    broken: Break | None


def verify_platform(platform_id: int, batch: int = 2000) -> Verdict:
    """Walk one platform's chain in sequence order; the first broken link, if any. Checked: entries
    numbered 1, 2, 3 ... without a hole, each linked to the one before, each hashing to its stored
    hash, the head naming the last; no entry after the chain began without its link fields; and
    every journalled change since the chain began named by an entry (api/audit/coverage.py)."""
    head = db.session.scalar(select(AuditChainHead).where(AuditChainHead.platform_id == platform_id))
    expected_seq, prev_hash, checked, last_id = 1, GENESIS, 0, None
    named: dict[str, set[str]] = {}
    began = None
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
    after, legacy = 0, keyed.legacy_limit("operation_log")
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
            problem = keyed.problem(
                "operation_log", entry.id, body_of(entry, prev_hash), entry.hash_key_id, entry.entry_hash, legacy
            )
            if problem is not None:
                return Verdict(platform_id, checked, Break(platform_id, entry.seq, entry.id, problem))
            prev_hash, expected_seq, checked, last_id = entry.entry_hash, expected_seq + 1, checked + 1, entry.id
            began = began or entry.created_at
            coverage.named_rows(entry, named)
        after = rows[-1].seq
        db.session.expunge_all()
    if head is not None and (head.seq != expected_seq - 1 or head.last_hash != prev_hash):
        problem = f"missing (the chain ends at #{expected_seq - 1}, id {last_id}; the head says #{head.seq})"
        return Verdict(platform_id, checked, Break(platform_id, expected_seq, None, problem))
    if head is None and checked:
        return Verdict(platform_id, checked, Break(platform_id, expected_seq - 1, last_id, "the chain head is missing"))
    unlogged = coverage.first_unlogged(platform_id, began, named) if began is not None else None
    if unlogged is not None:
        problem = (
            f"device event id {unlogged.id} ({unlogged.action} of device {unlogged.device_id} at "
            f"{unlogged.created_at.isoformat(timespec='seconds')}) is named by no entry: a change was "
            "committed without its log row"
        )
        return Verdict(platform_id, checked, Break(platform_id, 0, None, problem, key=f"device_event:{unlogged.id}"))
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
    """Every platform's verdict. On PostgreSQL in one snapshot (REPEATABLE READ), so a change and its
    entry committed while the chain is walked are seen together or not at all."""
    if db.session.get_bind().dialect.name == "postgresql" and not db.session().in_transaction():
        db.session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
    platforms = set(db.session.scalars(select(AuditChainHead.platform_id)))
    platforms |= set(
        db.session.scalars(select(OperationLog.platform_id).where(OperationLog.seq.is_not(None)).distinct())
    )
    return [verify_platform(platform_id) for platform_id in sorted(platforms)]
