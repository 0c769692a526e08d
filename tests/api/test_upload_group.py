"""HTTP uploads that arrive together are authenticated and stored in one transaction (a group
commit, api/telemetry/routes.py), each answered with its own outcome in its own language."""

from __future__ import annotations

import threading

from sqlalchemy import event

from api.extensions.db import db
from api.extensions.snapshots import clear_all
from api.telemetry import ingest as ingest_module
from api.telemetry import routes
from api.telemetry.store import INLINE_ROWS
from tests.api.device_helpers import add, guids, minutes_ago, owner, upload
from tests.api.group_helpers import HeldGroups, finish, start_in_order
from tests.api.test_telemetry import store_statements, stored

__all__ = ["guids", "owner"]


def test_uploads_arriving_together_are_stored_together_and_answered_each_in_its_language(
    app, client, make_client, owner, guids
):
    th_a, th_b, cold, junjia = guids["th_a"], guids["th_b"], guids["cold_room"], guids["junjia_th"]
    ids = {name: add(client, owner, guids[name][0], name=name) for name in ("th_a", "th_b", "cold_room")}
    held = HeldGroups(routes._ingest_group)
    app.extensions["telemetry.uploads"] = routes.upload_group(held)
    chinese, english = make_client(lang="zh-CN"), make_client(lang="en-US")
    good = {"readings": {"1": 4.0, "2": 50}}
    unknown_sensor = {"ts": minutes_ago(3), "readings": {"77": 1.0}}
    calls = [  # (client, header guid, key, records, body guid), in the order they arrive
        (english, th_a[0], th_a[1], [{"ts": minutes_ago(5), **good}], th_a[0]),
        (chinese, th_b[0], th_b[1], [{"ts": minutes_ago(4), **good}, unknown_sensor], th_b[0]),
        (english, cold[0], cold[1], [unknown_sensor, {"ts": minutes_ago(4), "readings": {"1": 2.0}}], cold[0]),
        (english, th_a[0], th_a[1], [{"ts": minutes_ago(2), **good}], th_a[0]),  # th_a's second
        (english, junjia[0], "not-its-key", [{"ts": minutes_ago(2), **good}], junjia[0]),
        (english, junjia[0], junjia[1], [{"ts": minutes_ago(1), **good}], th_b[0]),  # junjia's 2nd: next group
    ]
    answers: dict[int, object] = {}
    uploads = [
        lambda i=i, call=call: answers.__setitem__(i, upload(*call[:4], body_guid=call[4]))
        for i, call in enumerate(calls)
    ]
    finish(held, start_in_order(app.extensions["telemetry.uploads"], held, uploads))

    groups = [[upload.device_guid for upload in group] for group in held.groups]
    assert groups == [[th_a[0]], [th_b[0], cold[0], th_a[0], junjia[0]], [junjia[0]]]
    bodies = [answers[index].get_json() for index in range(len(calls))]
    statuses = [answers[index].status_code for index in range(len(calls))]
    assert statuses == [200, 200, 200, 200, 401, 403], bodies
    assert [body["data"]["accepted"] for body in bodies[:4]] == [2, 2, 1, 2], bodies
    [chinese_reason] = [r["reason"] for r in bodies[1]["data"]["rejected"]]
    [english_reason] = [r["reason"] for r in bodies[2]["data"]["rejected"]]
    assert english_reason == "This device has no sensor 77."
    assert chinese_reason != english_reason and "77" in chinese_reason  # rendered in the caller's language
    assert bodies[4]["msg"] == "Unknown device or wrong device credential."
    assert bodies[5]["msg"] == "A device may only upload its own data."
    assert [stored(app, ids[name]) for name in ("th_a", "th_b", "cold_room")] == [4, 2, 1]


def test_a_failing_upload_costs_only_itself(app, client, owner, guids, monkeypatch):
    """A group that fails is done upload by upload: the others are stored, the failing one answers 500."""
    th_a, th_b = guids["th_a"], guids["th_b"]
    ids = {name: add(client, owner, guids[name][0], name=name) for name in ("th_a", "th_b")}
    failing = ids["th_b"]

    def fail_for_th_b(device, records):
        if device.id == failing:
            raise RuntimeError("a handler failed for this device")

    monkeypatch.setattr(ingest_module, "READING_HANDLERS", [*ingest_module.READING_HANDLERS, fail_for_th_b])
    held = HeldGroups(routes._ingest_group)
    app.extensions["telemetry.uploads"] = routes.upload_group(held)
    answers: dict[str, object] = {}

    def send(name, guid, key, minutes):
        answers[name] = upload(client, guid, key, [{"ts": minutes_ago(minutes), "readings": {"1": 3.0}}])

    # th_a's second upload queues behind the lead's group with th_b's: a group of two that fails
    uploads = [
        lambda: send("lead", *th_a, 6),
        lambda: send("th_b", *th_b, 5),
        lambda: send("th_a", *th_a, 4),
    ]
    finish(held, start_in_order(app.extensions["telemetry.uploads"], held, uploads))
    assert len(held.groups) == 4  # the lead's, the failing pair, then each of the pair alone
    assert answers["lead"].status_code == 200 and answers["th_a"].status_code == 200
    assert answers["th_b"].status_code == 500
    assert stored(app, ids["th_a"]) == 2 and stored(app, ids["th_b"]) == 0


def test_a_waiting_upload_holds_no_pooled_connection(app, client, owner, guids):
    """Followers give their connection back before waiting: else, with more waiting requests than the
    pool has connections, the leader would wait for a connection held by a request waiting for it."""
    names = ("th_a", "th_b", "cold_room")
    for name in names:
        add(client, owner, guids[name][0], name=name)
    held = HeldGroups(routes._ingest_group)
    app.extensions["telemetry.uploads"] = routes.upload_group(held)
    with app.app_context():
        engine = db.engine
    checkouts = []

    def checked_out(*_args) -> None:
        checkouts.append(threading.current_thread())

    event.listen(engine.pool, "checkout", checked_out)
    held_before = engine.pool.checkedout()

    def fresh_site_then_upload(name) -> None:
        clear_all()  # the request loads its site's platform: it checks out a connection first
        upload(client, *guids[name], [{"ts": minutes_ago(5), "readings": {"1": 4.0}}])

    threads = []
    try:
        uploads = [lambda name=name: fresh_site_then_upload(name) for name in names]
        threads = start_in_order(app.extensions["telemetry.uploads"], held, uploads)
        waiting = set(threads[1:])
        assert waiting <= set(checkouts)  # the followers did hold a connection before they queued
        assert engine.pool.checkedout() == held_before + 1  # the leader's only
    finally:
        finish(held, threads)
        event.remove(engine.pool, "checkout", checked_out)


def test_a_large_batch_is_stored_on_its_own_beside_the_groups(app, client, owner, guids):
    """A batch of more than ALONE_RECORDS records neither waits for the group running nor joins the
    next one, and one device's readings take the COPY path (no checked INSERT statement)."""
    th_a, th_b, cold = guids["th_a"], guids["th_b"], guids["cold_room"]
    ids = {name: add(client, owner, guids[name][0], name=name) for name in ("th_a", "th_b", "cold_room")}
    held = HeldGroups(routes._ingest_group)
    app.extensions["telemetry.uploads"] = routes.upload_group(held)
    answers: dict[str, object] = {}
    small = [{"ts": minutes_ago(1), "readings": {"1": 4.0}}]
    uploads = [
        lambda: answers.__setitem__("lead", upload(client, *th_a, small)),
        lambda: answers.__setitem__("queued", upload(client, *th_b, small)),
    ]
    threads = start_in_order(app.extensions["telemetry.uploads"], held, uploads)
    batch = [{"ts": minutes_ago(300 - minute), "readings": {"1": 4.0, "2": 50}} for minute in range(250)]
    assert len(batch) > ingest_module.ALONE_RECORDS and len(batch) * 2 > INLINE_ROWS
    try:
        with store_statements(app) as inserts:
            answer = upload(client, *cold, batch)  # answered while the lead's group is held
        assert answer.status_code == 200 and answer.get_json()["data"]["accepted"] == 500
        assert inserts == []  # COPied: the checked insert of a group of devices sends a statement
        assert [[u.device_guid for u in group] for group in held.groups] == [[th_a[0]], [cold[0]]]
    finally:
        finish(held, threads)
    assert [[u.device_guid for u in group] for group in held.groups] == [[th_a[0]], [cold[0]], [th_b[0]]]
    assert answers["lead"].status_code == answers["queued"].status_code == 200
    assert [stored(app, ids[name]) for name in ("th_a", "th_b", "cold_room")] == [1, 1, 500]
