from __future__ import annotations

import enum
from typing import Any

from sqlalchemy import JSON, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from api.extensions.db import Model, TimestampMixin, str_enum
from api.tenancy import TenantOwned


class Scope(enum.StrEnum):
    SITE = "site"  # the account's whole tenant (every device of the account)
    ORGANIZATION = "organization"  # the devices placed in one of its organisations
    STORAGE = "storage"  # the devices whose probes are placed in one storage


class OnCallSchedule(TenantOwned, TimestampMixin, Model):
    """A weekly rota in a time zone: each entry hands over to its person at a weekday and wall-clock
    time until the next entry's hand-over; overrides (holidays, swaps) name another person for a local
    date or date-time range. Persons are `{"accountId": n}` (a user of the account, reached at its
    current phone and email) or a named contact `{"name", "phone", "email", "lang"}`."""

    __tablename__ = "oncall_schedule"

    id: Mapped[int] = mapped_column(primary_key=True)
    owner_account_id: Mapped[int] = mapped_column(ForeignKey("account.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(50))
    time_zone: Mapped[str] = mapped_column(String(64))
    scope: Mapped[Scope] = mapped_column(str_enum(Scope), default=Scope.SITE)
    organization_id: Mapped[int | None] = mapped_column(ForeignKey("organization.id", ondelete="CASCADE"))
    storage_id: Mapped[int | None] = mapped_column(ForeignKey("cold_storage.id", ondelete="CASCADE"))
    # [{"weekday": 1..7 (Monday 1), "time": "HH:MM", "person": {...}}]
    rota: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    # [{"start": "YYYY-MM-DD[THH:MM]", "end": "YYYY-MM-DD[THH:MM]", "person": {...}}], local wall time;
    # a date alone is the whole day (an end date includes that day).
    overrides: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
