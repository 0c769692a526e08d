"""Per-process snapshots of rows that every request reads and almost nothing writes.

Platforms (one per request, to resolve the host) and the device catalogue (labels on every device
list) change only through `flask sync-tenants` and `flask sync-catalogue`, at deploy time. Reading
them from PostgreSQL on each request costs more than the rest of a list page, so each process keeps
a copy:
- a write to a watched model through the ORM (a flush or a bulk UPDATE / DELETE) clears every copy
  of that model in this process at once, which also covers the tests, which rewrite them between
  cases;
- a committed write also moves a generation counter in Redis on; every process looks at the
  counters at most once per `GENERATION_CHECK_SECONDS` (one MGET for all snapshots) and drops its
  copies whose counter moved, so a platform created or changed through the customization page is
  live on every api and web process within about a second (well under the 5 s promised);
- without Redis (the embedded default) other processes pick a change up within `ttl` seconds.
"""

from __future__ import annotations

import logging
import time
import weakref
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from flask import has_app_context
from redis.exceptions import RedisError

from api.extensions.db import bulk_write_table, db, flushed_models
from api.extensions.redis import redis_connection

V = TypeVar("V")
_registry: list[Snapshots] = []
log = logging.getLogger(__name__)
GENERATION_CHECK_SECONDS = 1.0
GENERATION_PREFIX = "snapshots:generation:"
# When this process last read the counters, and what they were.
_seen: dict[str, object] = {"checked_at": float("-inf"), "generations": None}
_database_names: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class Snapshots(Generic[V]):
    def __init__(self, *watched: type, ttl: float = 30.0):
        self.watched = watched
        self.ttl = ttl
        self.name = ",".join(sorted(model.__tablename__ for model in watched))
        self._values: dict[Hashable, tuple[float, V]] = {}
        _registry.append(self)

    def get(self, key: Hashable, load: Callable[[], V | None]) -> V | None:
        """The copy kept for `key` in the app's database, else `load()` (kept unless None)."""
        _follow_other_processes()
        key = (_database(), key)
        cached = self._values.get(key)
        if cached is not None and cached[0] > time.monotonic():
            return cached[1]
        value = load()
        if value is not None:
            self._values[key] = (time.monotonic() + self.ttl, value)
        return value

    def clear(self) -> None:
        self._values.clear()


def _database() -> str:
    """The app's database, part of every key: one process may serve apps on different databases
    (the tests do). Rendered once per engine: the URL's text costs more than the lookup it keys."""
    engine = db.engine
    name = _database_names.get(engine)
    if name is None:
        name = _database_names[engine] = engine.url.render_as_string(hide_password=True)
    return name


def clear_all() -> None:
    """Drop every copy in this process (the tests empty their tables with plain SQL, which no ORM event sees)."""
    for snapshots in _registry:
        snapshots.clear()


def _generation_keys() -> list[str]:
    return [GENERATION_PREFIX + snapshots.name for snapshots in _registry]


def _follow_other_processes() -> None:
    """At most once a second: drop the copies whose generation another process moved on."""
    now = time.monotonic()
    if now - _seen["checked_at"] < GENERATION_CHECK_SECONDS or not has_app_context():
        return
    _seen["checked_at"] = now
    connection = redis_connection()
    if connection is None:
        return
    try:
        generations = connection.mget(_generation_keys())
    except RedisError as exc:  # copies then follow within their ttl
        log.warning("snapshot generations unavailable: %s", exc)
        return
    previous = _seen["generations"]
    _seen["generations"] = generations
    if previous is None or len(previous) != len(generations):
        return
    for snapshots, before, after in zip(_registry, previous, generations, strict=True):
        if before != after:
            snapshots.clear()


def _forget(session, snapshots: Snapshots) -> None:
    snapshots.clear()
    session.info.setdefault("snapshots_written", set()).add(snapshots.name)


def forget_flushed(session, _context) -> None:
    written = flushed_models(session)
    for snapshots in _registry:
        if any(issubclass(model, snapshots.watched) for model in written):
            _forget(session, snapshots)


def forget_bulk_written(orm_execute_state) -> None:
    table = bulk_write_table(orm_execute_state)
    if table is None:
        return
    for snapshots in _registry:
        if any(model.__tablename__ == table for model in snapshots.watched):
            _forget(orm_execute_state.session, snapshots)


def move_generation_on(session) -> None:
    """Tell the other processes, once the write is visible to them."""
    written = session.info.pop("snapshots_written", None)
    if not written:
        return
    # This process cleared its copies at the flush; a reload between flush and commit may have
    # read the old rows, so clear again now that the commit is visible.
    for snapshots in _registry:
        if snapshots.name in written:
            snapshots.clear()
    connection = redis_connection() if has_app_context() else None
    if connection is None:
        return
    try:
        with connection.pipeline(transaction=False) as pipe:
            for name in sorted(written):
                pipe.incr(GENERATION_PREFIX + name)
            pipe.execute()
    except RedisError as exc:  # the others then follow within their ttl
        log.warning("snapshot generation not moved on: %s", exc)


def forget_rolled_back(session) -> None:
    """A copy loaded after the flush may hold rows that were never committed."""
    for snapshots in _registry:
        if snapshots.name in session.info.pop("snapshots_written", ()):
            snapshots.clear()
