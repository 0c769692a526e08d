"""Helpers for group-commit tests: a group runner that holds its first group while callers queue."""

from __future__ import annotations

import threading
import time


def wait_for(predicate, timeout: float = 10.0) -> None:
    """Wait until `predicate()` holds (another thread's progress), failing after `timeout`."""
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        threading.Event().wait(0.002)


class HeldGroups:
    """A group runner whose first group waits for `release`: the callers that arrive meanwhile queue."""

    def __init__(self, run_group=lambda items: [("done", item) for item in items]):
        self.groups: list[list] = []
        self.first_running = threading.Event()
        self.release = threading.Event()
        self.run_group = run_group

    def __call__(self, items: list) -> list:
        self.groups.append(list(items))
        if len(self.groups) == 1:
            self.first_running.set()
            assert self.release.wait(10)
        return self.run_group(items)
