from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String, event
from sqlalchemy.orm import Mapped, mapped_column

from api.extensions.db import Model, utcnow
from api.tenancy import TenantOwned


class OperationLog(TenantOwned, Model):
    """One mutating call of a signed-in account: who, what, when, target, before and after.
    Written once by the recorder (api/audit/recorder.py) and never changed."""

    __tablename__ = "operation_log"
    __table_args__ = (Index("ix_operation_log_account_time", "account_id", "created_at"),)

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


class ReadOnlyLogError(RuntimeError):
    pass


@event.listens_for(OperationLog, "before_update")
@event.listens_for(OperationLog, "before_delete")
def _read_only(mapper, connection, target) -> None:
    raise ReadOnlyLogError("the operation log cannot be changed")
