"""Helpers for group-commit tests: a group runner that holds its first group while callers queue."""

from __future__ import annotations

import threading

from tests.reliability.scenarios import wait_until


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


def start_in_order(commit, held: HeldGroups, calls: list) -> list[threading.Thread]:
    """Each call in its own thread, in order: the first leads (its group held by `held`), each next
    one starts once the one before has queued behind it. Returns the started threads."""
    threads = []
    for call in calls:
        queued = commit.queued()
        thread = threading.Thread(target=call)
        thread.start()
        threads.append(thread)
        if len(threads) == 1:
            assert held.first_running.wait(10)
        else:
            assert wait_until(lambda queued=queued: commit.queued() == queued + 1, timeout=10, step=0.002)
    return threads


def finish(held: HeldGroups, threads: list[threading.Thread]) -> None:
    """Release the held group and wait for every caller."""
    held.release.set()
    for thread in threads:
        thread.join(30)
