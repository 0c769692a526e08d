"""The operation log's recorder: every mutating call of a signed-in account (POST / PUT / PATCH /
DELETE through `Blueprint.requires`) is written down with who, what, when, its target and the rows
it changed before and after. Row changes are collected from the ORM's flushes during the call, so
no handler or service has to describe its own changes.

The entry is written in the same transaction as the changes it records: `begin()` arms the
request's session, and its `before_commit` hook adds the entry for the changes of the transaction
being committed (one commit, one entry; a view that commits twice gets two). So a change is never
committed without its entry, and an entry never without its change: a failure of either rolls both
back. A rollback (of the transaction or of a savepoint) forgets the changes it undid. A view that
fails is rolled back. Values are kept without their secrets (api/audit/redaction.py).
"""

from __future__ import annotations

import enum
from datetime import date, datetime
from decimal import Decimal

from flask import g, has_request_context, request
from sqlalchemy import inspect
from sqlalchemy.orm import Session, SessionTransaction

from api.audit.models import OperationLog
from api.audit.redaction import changed_secrets, redact, redact_field, set_secrets
from api.extensions.db import bulk_write_table, db
from api.extensions.reasons import change_reason  # given with any mutating call, recorded with the entry
from api.extensions.smorest import mutation_recorders
from api.identity.auth import require_account
from api.tenancy import data_platform_id

# Tables whose rows are bookkeeping, not business data.
SKIPPED_TABLES = frozenset(
    {
        "operation_log",
        "audit_chain_head",
        "hash_legacy_cutoff",
        "account_session",
        "outbound_message",
        "verification_code",
    }
)
# Rows of one transaction kept with their values; past that, rows are still named (table and id).
MAX_ROWS = 50
MAX_LISTED = 1000
# session.info: the changes of the open transaction, where each open savepoint began in them, and the
# entries of events (record_event) waiting for the transaction's commit.
CHANGES, MARKS, PENDING = "audit_changes", "audit_marks", "audit_pending_entries"


def _plain(value):
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, dict | list):
        return value
    return str(value)


def _identity(obj) -> str:
    """The row's primary key: an inserted row's too (after_flush runs before it gets its identity)."""
    state = inspect(obj)
    identity = state.identity or state.mapper.primary_key_from_instance(obj)
    return ",".join(str(part) for part in identity) if identity and None not in identity else ""


def _recording(session: Session) -> bool:
    """Whether `session` is the request's session of a call being recorded."""
    return (
        has_request_context()
        and g.get("audit_view") is not None
        and db.session.registry.has()
        and session is db.session.registry()
    )


def _row_change(obj, kind: str, detailed: bool) -> dict | None:
    state = inspect(obj)
    before, after, secrets = {}, {}, []
    for column in state.mapper.column_attrs:
        key = column.key
        if kind == "insert":
            value = _plain(getattr(obj, key))
            after[key] = redact_field(key, value)
            secrets += set_secrets(key, value)
        elif kind == "delete":
            before[key] = redact_field(key, _plain(getattr(obj, key)))
        else:
            history = state.attrs[key].history
            if history.has_changes():
                old = _plain(history.deleted[0] if history.deleted else None)
                new = _plain(history.added[0] if history.added else None)
                before[key], after[key] = redact_field(key, old), redact_field(key, new)
                secrets += changed_secrets(key, old, new)
    if kind == "update" and not after:
        return None
    change = {"table": obj.__tablename__, "id": _identity(obj), "kind": kind, "secrets": secrets}
    return change | ({"before": before, "after": after} if detailed else {"before": {}, "after": {}})


def _collect(session: Session, flush_context) -> None:
    if not _recording(session):
        return
    changes = session.info.setdefault(CHANGES, [])
    for kind, objects in (("insert", session.new), ("update", session.dirty), ("delete", session.deleted)):
        for obj in objects:
            table = getattr(obj, "__tablename__", None)
            if table is None or table in SKIPPED_TABLES or len(changes) >= MAX_LISTED:
                continue
            change = _row_change(obj, kind, detailed=len(changes) < MAX_ROWS)
            if change is not None:
                changes.append(change)


def _count_bulk(orm_execute_state):
    """Bulk UPDATE/DELETE statements never reach after_flush: run them here and note what they did."""
    name = bulk_write_table(orm_execute_state)
    session = orm_execute_state.session
    if name is None or name in SKIPPED_TABLES or not _recording(session):
        return None
    result = orm_execute_state.invoke_statement()
    changes = session.info.setdefault(CHANGES, [])
    if result.rowcount and len(changes) < MAX_LISTED:
        kind = "update" if orm_execute_state.is_update else "delete"
        changes.append(
            {"table": name, "id": "", "kind": kind, "secrets": [], "before": {}, "after": {"rows": result.rowcount}}
        )
    return result


def _savepoint_begun(session: Session, transaction: SessionTransaction) -> None:
    if transaction.nested and _recording(session):
        session.info.setdefault(MARKS, {})[transaction] = len(session.info.get(CHANGES) or [])


def _rolled_back(session: Session, previous_transaction: SessionTransaction) -> None:
    """A savepoint's rollback forgets the changes made since it began; the transaction's, all of them.
    (A failed flush's own sub-transaction is followed by one of those two.)"""
    if previous_transaction.nested:
        mark = session.info.get(MARKS, {}).pop(previous_transaction, None)
        if mark is not None and session.info.get(CHANGES):
            del session.info[CHANGES][mark:]
    elif previous_transaction.parent is None:
        for key in (CHANGES, MARKS, PENDING):
            session.info.pop(key, None)


def _before_commit(session: Session) -> None:
    """Add the entries of the transaction being committed, so that they commit (or fail) with it.
    They are flushed last, so the chain's lock (chain.py) is the transaction's last lock and is held
    only for its commit: no writer waits for a row while holding the chain."""
    if session.in_nested_transaction():
        return  # a savepoint's release: its changes are the transaction's, written at its commit
    entries = session.info.pop(PENDING, None) or []
    if _recording(session):
        session.flush()  # the changes still pending are collected by this flush
        changes = session.info.pop(CHANGES, None)
        session.info.pop(MARKS, None)
        if changes:
            entries.append(entry_for(changes))
    if entries:
        session.add_all(entries)
        session.flush()  # sealed into the chain now, inside this transaction


def entry_for(changes: list[dict]) -> OperationLog:
    account_id, user_name = g.audit_who
    view = g.audit_view
    summary = (view.__doc__ or "").strip().splitlines()[0][:200] if view.__doc__ else ""
    target = ", ".join(dict.fromkeys(f"{c['table']}#{c['id']}" for c in changes))[:200] or None
    before, after = [], []
    for change in changes:
        row = {"table": change["table"], "id": change["id"]}
        if change["kind"] != "insert" and change["id"]:  # a bulk statement's count is an "after"
            before.append(row | {"values": change["before"]})
        if change["kind"] != "delete" or change["after"]:
            secrets = {"redacted": change["secrets"]} if change["secrets"] else {}
            after.append(row | {"values": change["after"]} | secrets)
    return OperationLog(
        platform_id=data_platform_id(),
        account_id=account_id,
        user_name=user_name[:50],
        action=(request.endpoint or "")[:100],
        summary=summary,
        method=request.method,
        path=request.path[:300],
        target=target,
        before=before,
        after=after,
        ip=(request.remote_addr or "")[:45] or None,
        reason=change_reason(),
    )


class OperationRecorder:
    """Arms the request's session for one call (Blueprint._guard): begin before the view, finish after
    it returned, abandon when it raised."""

    def begin(self, view) -> None:
        account = require_account()
        g.audit_view, g.audit_who = view, (account.id, account.user_name)
        session = db.session()
        session.info.pop(CHANGES, None)
        session.info.pop(MARKS, None)

    def finish(self, view) -> None:
        try:
            if db.session.info.get(CHANGES) or db.session.info.get(PENDING):
                db.session.commit()  # changes flushed but not committed by the view: they and their entry
        finally:
            self._disarm()

    def abandon(self) -> None:
        """The view failed: what it had not committed is rolled back, and so never logged."""
        try:
            db.session.rollback()
        finally:
            self._disarm()

    @staticmethod
    def _disarm() -> None:
        g.audit_view = None
        if db.session.registry.has():
            for key in (CHANGES, MARKS, PENDING):
                db.session().info.pop(key, None)


LISTENERS = (
    ("after_flush", _collect),
    ("do_orm_execute", _count_bulk),
    ("after_transaction_create", _savepoint_begun),
    ("after_soft_rollback", _rolled_back),
    ("before_commit", _before_commit),
)


def install_operation_recorder() -> None:
    """Every mutating request is recorded (once per process: create_app may run several times in tests)."""
    if not any(isinstance(r, OperationRecorder) for r in mutation_recorders):
        mutation_recorders.append(OperationRecorder())


def record_event(
    account,
    summary: str,
    *,
    target: str | None = None,
    details: dict | None = None,
    platform_id: int | None = None,
) -> None:
    """An entry for something that changed no business row but must be on the trail (a refused
    electronic signature, for example). Written when the caller commits (dropped if it rolls back).
    `platform_id`: the data space whose chain it joins when not the request's (staff acting on an
    account of another site: the entry belongs where that account's people read it)."""
    db.session.info.setdefault(PENDING, []).append(
        OperationLog(
            platform_id=platform_id if platform_id is not None else data_platform_id(),
            account_id=account.id if account is not None else None,
            user_name=(account.user_name if account is not None else "")[:50],
            action=(request.endpoint or "")[:100],
            summary=summary[:200],
            method=request.method,
            path=request.path[:300],
            target=(target or "")[:200] or None,
            before=[],
            after=[{"table": "event", "id": "", "values": redact(details or {})}],
            ip=(request.remote_addr or "")[:45] or None,
            reason=change_reason(),
        )
    )
