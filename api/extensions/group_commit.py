"""Group commit: concurrent callers' small units of work done together, in one transaction.

A one-record HTTP upload costs a handful of statements and a commit, whatever its size; PostgreSQL
and SQLAlchemy spend most of its CPU on them. The uploads that arrive while a transaction runs wait
for it, then go together in the next one (leader / followers): the first caller with nobody leading
does the work of everyone queued, in its own thread and request, and hands the lead to the next
caller queued, if any. Every caller still answers only after its own work has committed. An idle
server adds no wait (a lone caller leads at once); a busy one amortizes each transaction over the
callers that arrived during the previous one.

A group holds at most one item per `key` (a device's uploads go one per transaction, in order: the
others wait for the next group). `run_group(items)` returns one outcome per item, in order. If it
raises, every item of the group is done alone, so a failing item costs only itself: its caller gets
the exception, raised in its own thread (unless `alone_after(exc)` says the items would fail alike
alone, a database gone: then every caller gets it at once).

A caller about to wait calls `before_wait()` first: a waiting request must hold no pooled database
connection, or the leader could wait for one that waits for it.

An item for which `alone(item)` is true (a large batch) gains nothing from company: its own work
dwarfs what a shared transaction saves. It is done at once in its caller's thread, outside the
groups: it neither waits for the group running nor makes the next one wait for it, and runs beside
the groups (the work itself orders what must be ordered: a device's state is locked).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

Item = TypeVar("Item")


@dataclass
class _Waiter(Generic[Item]):
    item: Item
    done: threading.Event = field(default_factory=threading.Event)
    leads: bool = False  # set with `done` when the lead is handed to this caller
    finished: bool = False
    outcome: Any = None
    error: BaseException | None = None

    def result(self) -> Any:
        if self.error is not None:
            raise self.error
        return self.outcome


class GroupCommit(Generic[Item]):
    def __init__(
        self,
        run_group: Callable[[list[Item]], list[Any]],
        key: Callable[[Item], object],
        *,
        before_wait: Callable[[], None] = lambda: None,
        alone_after: Callable[[Exception], bool] = lambda exc: True,
        alone: Callable[[Item], bool] = lambda item: False,
        max_group: int = 200,
    ):
        self._run_group = run_group
        self._alone = alone
        self._key = key
        self._before_wait = before_wait
        self._alone_after = alone_after
        self._max_group = max_group
        self._lock = threading.Lock()
        self._queue: list[_Waiter[Item]] = []
        self._leading = False  # a caller is doing a group; the queue waits for it

    def queued(self) -> int:
        """Callers waiting for a group (not counting the group being done)."""
        with self._lock:
            return len(self._queue)

    def submit(self, item: Item) -> Any:
        if self._alone(item):
            [outcome] = self._run_group([item])
            return outcome
        waiter = _Waiter(item)
        released = False
        while True:
            with self._lock:
                leads = not self._leading
                if leads or released:  # a caller queues only once it holds nothing the leader may need
                    self._queue.append(waiter)
                    self._leading = True
                    break
            self._before_wait()
            released = True
        if not leads:
            waiter.done.wait()
            if not waiter.leads:
                return waiter.result()
        self._lead()
        return waiter.result()

    def _lead(self) -> None:
        """Do the queue's head group (this caller is its first item), then hand on the lead."""
        with self._lock:
            group, later, keys = [], [], set()
            for waiter in self._queue:
                key = self._key(waiter.item)
                if key in keys or len(group) >= self._max_group:
                    later.append(waiter)
                else:
                    keys.add(key)
                    group.append(waiter)
            self._queue = later
        try:
            self._do(group)
        finally:
            with self._lock:
                successor = self._queue[0] if self._queue else None
                self._leading = successor is not None
            for waiter in group:
                if not waiter.finished:  # the leader's thread was stopped mid-group
                    waiter.error = RuntimeError("the group's leader stopped")
                    waiter.finished = True
                waiter.done.set()
            if successor is not None:
                successor.leads = True
                successor.done.set()

    def _do(self, group: list[_Waiter[Item]]) -> None:
        try:
            outcomes = self._run_group([waiter.item for waiter in group])
        except Exception as exc:
            if len(group) == 1 or not self._alone_after(exc):
                for waiter in group:
                    waiter.error, waiter.finished = exc, True
                return
            for waiter in group:
                self._do_alone(waiter)
            return
        for waiter, outcome in zip(group, outcomes, strict=True):
            waiter.outcome, waiter.finished = outcome, True

    def _do_alone(self, waiter: _Waiter[Item]) -> None:
        try:
            [waiter.outcome] = self._run_group([waiter.item])
        except Exception as exc:
            waiter.error = exc
        waiter.finished = True
