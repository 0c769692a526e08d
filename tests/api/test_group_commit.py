"""Group commit (api/extensions/group_commit.py): callers that arrive while a group runs go together
in the next one, one item per key, and a failing group is done item by item."""

from __future__ import annotations

import threading

from api.extensions.group_commit import GroupCommit
from tests.api.group_helpers import HeldGroups, finish, start_in_order


def call_in_order(commit: GroupCommit, held: HeldGroups, items: list) -> tuple[dict, dict, list[threading.Thread]]:
    """Each item submitted from its own thread: the first leads (its group held), each next one only
    once the previous one has queued."""
    results, errors = {}, {}

    def call(item):
        try:
            results[item] = commit.submit(item)
        except Exception as exc:
            errors[item] = exc

    threads = start_in_order(commit, held, [lambda item=item: call(item) for item in items])
    return results, errors, threads


def test_a_lone_caller_is_done_at_once_in_its_own_group():
    groups = []
    commit = GroupCommit(lambda items: groups.append(items) or [item * 2 for item in items], key=lambda item: item)
    assert commit.submit(21) == 42
    assert commit.submit(4) == 8
    assert groups == [[21], [4]]


def test_callers_arriving_during_a_group_go_together_in_the_next_one():
    held = HeldGroups()
    commit = GroupCommit(held, key=lambda item: item)
    results, errors, threads = call_in_order(commit, held, ["lead", "a", "b", "c", "d"])
    finish(held, threads)
    assert held.groups == [["lead"], ["a", "b", "c", "d"]]
    assert results == {item: ("done", item) for item in ["lead", "a", "b", "c", "d"]}
    assert not errors and commit.queued() == 0


def test_an_item_alone_is_done_at_once_beside_the_groups():
    held = HeldGroups()
    commit = GroupCommit(held, key=lambda item: item, alone=lambda item: item.startswith("big"))
    results, errors, threads = call_in_order(commit, held, ["lead", "a"])
    # The lead's group is still held and "a" waits for it: "big" neither waits nor joins the queue.
    assert commit.submit("big") == ("done", "big")
    assert held.groups == [["lead"], ["big"]] and commit.queued() == 1
    finish(held, threads)
    assert held.groups == [["lead"], ["big"], ["a"]]
    assert results == {"lead": ("done", "lead"), "a": ("done", "a")} and not errors


def test_a_group_holds_one_item_per_key_and_keeps_their_order():
    held = HeldGroups()
    commit = GroupCommit(held, key=lambda item: item[0])
    items = [("x", 0), ("a", 1), ("a", 2), ("b", 3), ("a", 4)]
    results, _errors, threads = call_in_order(commit, held, items)
    finish(held, threads)
    assert held.groups == [[("x", 0)], [("a", 1), ("b", 3)], [("a", 2)], [("a", 4)]]
    assert set(results) == set(items)


def test_a_failing_group_is_done_item_by_item_and_only_the_failing_caller_gets_the_error():
    def answer(item):
        if item == "bad":
            raise ValueError("bad item")
        return ("done", item)

    held = HeldGroups(lambda items: [answer(item) for item in items])
    commit = GroupCommit(held, key=lambda item: item)
    results, errors, threads = call_in_order(commit, held, ["lead", "a", "bad", "b"])
    finish(held, threads)
    assert held.groups == [["lead"], ["a", "bad", "b"], ["a"], ["bad"], ["b"]]
    assert results == {item: ("done", item) for item in ["lead", "a", "b"]}
    assert isinstance(errors["bad"], ValueError) and set(errors) == {"bad"}


def test_the_largest_group_is_capped():
    held = HeldGroups()
    commit = GroupCommit(held, key=lambda item: item, max_group=2)
    _results, _errors, threads = call_in_order(commit, held, ["lead", "a", "b", "c"])
    finish(held, threads)
    assert held.groups == [["lead"], ["a", "b"], ["c"]]


def test_many_callers_each_get_their_own_outcome():
    callers = 50
    commit = GroupCommit(lambda items: [item + 1000 for item in items], key=lambda item: item)
    results = {}
    threads = [threading.Thread(target=lambda n=n: results.__setitem__(n, commit.submit(n))) for n in range(callers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert results == {n: n + 1000 for n in range(callers)}
    assert commit.queued() == 0


def test_only_the_callers_that_wait_call_before_wait():
    held = HeldGroups()
    waited = []
    commit = GroupCommit(held, key=lambda item: item, before_wait=lambda: waited.append(threading.current_thread()))
    _results, _errors, threads = call_in_order(commit, held, ["lead", "a", "b"])
    finish(held, threads)
    assert len(waited) == 2 and threads[0] not in waited and set(waited) == set(threads[1:])


def test_a_group_that_would_fail_alike_alone_fails_every_caller_at_once():
    class DatabaseGoneError(Exception):
        pass

    def run_group(items):
        if len(held.groups) > 1:
            raise DatabaseGoneError()
        return [("done", item) for item in items]

    held = HeldGroups(run_group)
    commit = GroupCommit(held, key=lambda item: item, alone_after=lambda exc: not isinstance(exc, DatabaseGoneError))
    results, errors, threads = call_in_order(commit, held, ["lead", "a", "b"])
    finish(held, threads)
    assert held.groups == [["lead"], ["a", "b"]]  # not retried one by one
    assert results == {"lead": ("done", "lead")}
    assert set(errors) == {"a", "b"} and all(isinstance(exc, DatabaseGoneError) for exc in errors.values())
