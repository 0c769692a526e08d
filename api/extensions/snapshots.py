"""Per-process snapshots of rows that every request reads and almost nothing writes.

Platforms (one per request, to resolve the host) and the device catalogue (labels on every device
list) change only through `flask sync-tenants` and `flask sync-catalogue`, at deploy time. Reading
them from PostgreSQL on each request costs more than the rest of a list page, so each process keeps
a copy:
- a write to a watched model through the ORM (a flush or a bulk UPDATE / DELETE) clears every copy
  of that model in this process at once, which also covers the tests, which rewrite them between
  cases;
- other processes (another gunicorn worker, the RQ worker) pick a change up within `ttl` seconds.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from sqlalchemy import event
from sqlalchemy.orm import Session

from api.extensions.db import bulk_write_table, flushed_models

V = TypeVar("V")
_registry: list[Snapshots] = []


class Snapshots(Generic[V]):
    def __init__(self, *watched: type, ttl: float = 30.0):
        self.watched = watched
        self.ttl = ttl
        self._values: dict[Hashable, tuple[float, V]] = {}
        _registry.append(self)

    def get(self, key: Hashable, load: Callable[[], V | None]) -> V | None:
        """The copy kept for `key`, else `load()` (kept unless None)."""
        cached = self._values.get(key)
        if cached is not None and cached[0] > time.monotonic():
            return cached[1]
        value = load()
        if value is not None:
            self._values[key] = (time.monotonic() + self.ttl, value)
        return value

    def clear(self) -> None:
        self._values.clear()


@event.listens_for(Session, "after_flush")
def _forget_flushed(session, _context) -> None:
    written = flushed_models(session)
    for snapshots in _registry:
        if any(issubclass(model, snapshots.watched) for model in written):
            snapshots.clear()


@event.listens_for(Session, "do_orm_execute")
def _forget_bulk_written(orm_execute_state) -> None:
    table = bulk_write_table(orm_execute_state)
    if table is None:
        return
    for snapshots in _registry:
        if any(model.__tablename__ == table for model in snapshots.watched):
            snapshots.clear()
