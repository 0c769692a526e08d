"""Sealed chain heads exported off the database (21 CFR 11.10(e), Annex 11 §9).

The head of each platform's chain (its last sequence number and hash) is written now and then as a
signed statement into a write-once folder (`AUDIT_HEAD_EXPORT_DIR`, default var/audit-heads; point it
at storage the database's administrators cannot rewrite): one new file per seal, created exclusively
and made read-only, never overwritten; a head that went back is never sealed. `flask audit verify`
then checks the database against the exported heads (check_exported): the chain must still hold the
exported entry with its exported hash, and the head's seal (the site's, with an RFC 3161 timestamp)
must verify. So deleting the newest entries and moving the head back, or recomputing every hash (even
with the key), is caught: the exported head names an entry that is gone or hashes otherwise.
"""

from __future__ import annotations

import json
import logging
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from flask import current_app
from sqlalchemy import select

from api.audit import chain, head_seal
from api.audit.models import AuditChainHead, OperationLog
from api.extensions import hashkeys
from api.extensions.db import db, utcnow

FORMAT = "coldchain-audit-head/1"
log = logging.getLogger(__name__)


def export_dir() -> Path:
    configured = current_app.config.get("AUDIT_HEAD_EXPORT_DIR")
    return Path(configured) if configured else Path(current_app.config["FILES_DIR"]).parent / "audit-heads"


def canonical(statement: dict[str, Any]) -> bytes:
    return json.dumps(statement, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def exported(platform_id: int) -> list[Path]:
    """The platform's exported heads, oldest first (the names sort by sequence number, then time)."""
    folder = export_dir() / str(platform_id)
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def _latest_statement(platform_id: int) -> dict[str, Any] | None:
    for path in reversed(exported(platform_id)):
        try:
            return json.loads(path.read_bytes())["statement"]
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return None


def _write_once(path: Path, data: bytes) -> None:
    """Create `path` with `data`; never replaces a file (O_EXCL), leaves it read-only."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o444)
    with os.fdopen(handle, "wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())


def seal_heads() -> list[Path]:
    """Export every platform's chain head that moved since its last export; the files written."""
    found = db.session.scalars(select(AuditChainHead).order_by(AuditChainHead.platform_id)).all()
    # Stamped after the heads were read: all a head names was committed before its time, which is
    # what lets a verification ignore the heads sealed after its snapshot began (check_exported).
    now = utcnow().astimezone(UTC)
    key_id = hashkeys.current_key().key_id
    written = []
    for head in found:
        if head.seq == 0:
            continue
        latest = _latest_statement(head.platform_id)
        if latest is not None and (latest.get("seq"), latest.get("hash")) == (head.seq, head.last_hash):
            continue
        if latest is not None and isinstance(latest.get("seq"), int) and latest["seq"] > head.seq:
            # The head went back: entries were removed. Never seal that; `flask audit verify` names it.
            log.error(
                "audit head of platform %s is behind its export (#%s < #%s)", head.platform_id, head.seq, latest["seq"]
            )
            continue
        statement = {
            "format": FORMAT,
            "platform": head.platform_id,
            "seq": head.seq,
            "hash": head.last_hash,
            "at": now.isoformat(timespec="microseconds"),
            "keyId": key_id,
        }
        data = canonical(statement)
        document = {"statement": statement, "seal": head_seal.sign(head.platform_id, data)}
        path = export_dir() / str(head.platform_id) / f"{head.seq:015d}-{now:%Y%m%dT%H%M%S%fZ}.json"
        _write_once(path, json.dumps(document, indent=1, sort_keys=True).encode())
        written.append(path)
    return written


# A head sealed after the verification's snapshot began: what it names may be missing from the snapshot
# only because it was committed later, so the database is not held against it.
NEWER_THAN_SNAPSHOT = chain.Break(0, 0, None, "sealed after the snapshot began")


def check_exported(platform_id: int, every: bool = False, before: datetime | None = None) -> chain.Break | None:
    """The first exported head of the platform the database contradicts, or whose seal fails. Once the
    chain walk passed, the newest head vouches for every entry before it (each hash covers the one
    before), so only it is checked unless it fails or `every` asks for each file's seal too; then
    every head, oldest first, so the earliest one contradicted is named. `before`: when the
    verification's snapshot began (heads sealed since are checked for their seal only)."""
    paths = exported(platform_id)
    if not every:
        for path in reversed(paths):
            broken = _contradiction(platform_id, path, before)
            if broken is None:
                return None
            if broken is not NEWER_THAN_SNAPSHOT:
                break
    for path in paths:
        broken = _contradiction(platform_id, path, before)
        if broken is not None and broken is not NEWER_THAN_SNAPSHOT:
            return broken
    return None


def _sealed_after(statement: dict[str, Any], before: datetime | None) -> bool:
    try:
        return before is not None and datetime.fromisoformat(str(statement.get("at"))) >= before
    except (ValueError, TypeError):  # no time, or one without its zone: held against the database
        return False


def _contradiction(platform_id: int, path: Path, before: datetime | None) -> chain.Break | None:
    where = f"the exported head {path.name}"
    try:
        document = json.loads(path.read_bytes())
        statement = document["statement"]
        seq, expected = int(statement["seq"]), str(statement["hash"])
    except (OSError, ValueError, KeyError, TypeError):
        return chain.Break(platform_id, 0, None, f"{where} cannot be read", key=f"head:{path.name}:unreadable")
    if statement.get("platform") != platform_id:
        problem = f"{where} names platform {statement.get('platform')}"
        return chain.Break(platform_id, seq, None, problem, key=f"head:{path.name}:platform")
    refused = head_seal.problem(platform_id, canonical(statement), document.get("seal"))
    if refused is not None:
        return chain.Break(platform_id, seq, None, f"{where}: {refused}", key=f"head:{path.name}:seal")
    if _sealed_after(statement, before):
        return NEWER_THAN_SNAPSHOT
    entry = db.session.execute(
        select(OperationLog.id, OperationLog.entry_hash).where(
            OperationLog.platform_id == platform_id, OperationLog.seq == seq
        )
    ).first()
    sealed = f"{where} (sealed {statement.get('at')})"
    if entry is None:
        problem = f"entry #{seq} missing: {sealed} names it, the database lacks it"
        return chain.Break(platform_id, seq, None, problem, key=f"head:{path.name}")
    if entry.entry_hash != expected:
        problem = f"entry #{seq} (id {entry.id}) hashes otherwise than {sealed}: the chain was rewritten"
        return chain.Break(platform_id, seq, entry.id, problem, key=f"head:{path.name}")
    return None


def exported_platforms() -> set[int]:
    folder = export_dir()
    if not folder.is_dir():
        return set()
    return {int(child.name) for child in folder.iterdir() if child.is_dir() and child.name.isdigit()}


def verify_all(every_head: bool = False) -> list[chain.Verdict]:
    """Every platform's verdict: its chain (api/audit/chain.py), then its exported heads (the newest,
    or `every_head`); a platform with exported heads but no chain left is checked too."""
    started = utcnow()  # before the snapshot (chain.verify_all's first query)
    verdicts = {verdict.platform_id: verdict for verdict in chain.verify_all()}
    for platform_id in exported_platforms() - set(verdicts):
        verdicts[platform_id] = chain.Verdict(platform_id, 0, None)
    for verdict in verdicts.values():
        if verdict.broken is None:
            verdict.broken = check_exported(verdict.platform_id, every_head, started)
    return [verdicts[platform_id] for platform_id in sorted(verdicts)]
