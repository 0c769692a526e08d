"""The operation log's recorder: every mutating call of a signed-in account (POST / PUT / PATCH /
DELETE through `Blueprint.login_required`) is written down with who, what, when, its target and the
rows it changed before and after. Row changes are collected from the ORM's flushes during the call,
so no handler or service has to describe its own changes.
"""

from __future__ import annotations

import enum
from datetime import date, datetime
from decimal import Decimal
from urllib.parse import unquote

from flask import g, has_request_context, request
from sqlalchemy import event, inspect
from sqlalchemy.orm import Session

from api.account.auth import require_account
from api.audit import chain
from api.audit.models import OperationLog
from api.extensions.db import bulk_write_table, db
from api.extensions.smorest import mutation_recorders
from api.tenancy import data_platform_id

# Tables whose rows are bookkeeping, not business data.
SKIPPED_TABLES = frozenset(
    {"operation_log", "audit_chain_head", "account_session", "outbound_message", "verification_code"}
)
# A reason for the change may be given with any mutating call (FDA mode asks for one): it is recorded
# with the entry. Services that take the reason in their own input set g.audit_reason instead.
REASON_HEADER = "X-Change-Reason"
MAX_REASON = 200
REDACTED = ("hash", "secret", "password", "token")
MAX_ROWS = 50


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


def _value(key: str, value):
    return "***" if any(word in key for word in REDACTED) and value is not None else _plain(value)


def _identity(obj) -> str:
    identity = inspect(obj).identity
    return ",".join(str(part) for part in identity) if identity else ""


def _collect(session: Session, flush_context) -> None:
    if not has_request_context() or g.get("audit_changes") is None:
        return
    changes = g.audit_changes
    for kind, objects in (("insert", session.new), ("update", session.dirty), ("delete", session.deleted)):
        for obj in objects:
            state = inspect(obj)
            table = getattr(obj, "__tablename__", None)
            if table is None or table in SKIPPED_TABLES or len(changes) >= MAX_ROWS:
                continue
            before, after = {}, {}
            for column in state.mapper.column_attrs:
                key = column.key
                history = state.attrs[key].history
                if kind == "insert":
                    after[key] = _value(key, getattr(obj, key))
                elif kind == "delete":
                    before[key] = _value(key, getattr(obj, key))
                elif history.has_changes():
                    before[key] = _value(key, history.deleted[0] if history.deleted else None)
                    after[key] = _value(key, history.added[0] if history.added else None)
            if kind == "update" and not after:
                continue
            changes.append({"table": table, "id": _identity(obj), "kind": kind, "before": before, "after": after})


def _count_bulk(orm_execute_state):
    """Bulk UPDATE/DELETE statements never reach after_flush: run them here and note what they did."""
    name = bulk_write_table(orm_execute_state)
    if name is None or not has_request_context() or g.get("audit_changes") is None:
        return None
    if name in SKIPPED_TABLES:
        return None
    result = orm_execute_state.invoke_statement()
    if result.rowcount and len(g.audit_changes) < MAX_ROWS:
        kind = "update" if orm_execute_state.is_update else "delete"
        g.audit_changes.append(
            {"table": name, "id": "", "kind": kind, "before": {}, "after": {"rows": result.rowcount}}
        )
    return result


class OperationRecorder:
    def begin(self) -> None:
        g.audit_changes = []

    def finish(self, view) -> None:

        changes, g.audit_changes = g.get("audit_changes") or [], None
        if not changes:
            return  # a query (the spec's page calls are POSTs), or a call that was refused or changed nothing
        account = require_account()
        summary = (view.__doc__ or "").strip().splitlines()[0][:200] if view.__doc__ else ""
        target = ", ".join(dict.fromkeys(f"{c['table']}#{c['id']}" for c in changes))[:200] or None
        db.session.add(
            OperationLog(
                platform_id=data_platform_id(),
                account_id=account.id,
                user_name=account.user_name,
                action=(request.endpoint or "")[:100],
                summary=summary,
                method=request.method,
                path=request.path[:300],
                target=target,
                before=[{"table": c["table"], "id": c["id"], "values": c["before"]} for c in changes if c["before"]],
                after=[{"table": c["table"], "id": c["id"], "values": c["after"]} for c in changes if c["after"]],
                ip=(request.remote_addr or "")[:45] or None,
                reason=change_reason(),
            )
        )
        db.session.commit()


def change_reason() -> str | None:
    reason = g.get("audit_reason") or unquote(request.headers.get(REASON_HEADER, ""))
    return reason.strip()[:MAX_REASON] or None


def install() -> None:
    """Register the recorder once per process (create_app may run several times in tests)."""
    if not event.contains(Session, "after_flush", _collect):
        event.listen(Session, "after_flush", _collect)
    if not event.contains(Session, "do_orm_execute", _count_bulk):
        event.listen(Session, "do_orm_execute", _count_bulk)
    chain.install()
    if not any(isinstance(r, OperationRecorder) for r in mutation_recorders):
        mutation_recorders.append(OperationRecorder())


def record_event(account, summary: str, *, target: str | None = None, details: dict | None = None) -> None:
    """An entry for something that changed no business row but must be on the trail (a refused
    electronic signature, for example). Added to the session: the caller commits."""
    db.session.add(
        OperationLog(
            platform_id=data_platform_id(),
            account_id=account.id if account is not None else None,
            user_name=(account.user_name if account is not None else "")[:50],
            action=(request.endpoint or "")[:100],
            summary=summary[:200],
            method=request.method,
            path=request.path[:300],
            target=(target or "")[:200] or None,
            before=[],
            after=[{"table": "event", "id": "", "values": details or {}}],
            ip=(request.remote_addr or "")[:45] or None,
            reason=change_reason(),
        )
    )
