"""gunicorn.conf.py serves each worker's connections as gevent greenlets (issue 27), and psycopg
waits for PostgreSQL cooperatively: an upload waiting on a lock in PostgreSQL holds up no other
request of its worker. The control runs gunicorn's sync worker, which serves one request at a time:
there the same wait holds the next request up, so the check can fail."""

from __future__ import annotations

import threading

import pytest
from psycopg import waiting
from sqlalchemy import text

from api.extensions.db import db
from tests.api.device_helpers import add, backdate_issuance, guids, minutes_ago, owner
from tests.api.gunicorn_helpers import Api
from tests.reliability.scenarios import wait_until

__all__ = ["guids", "owner"]

UPLOAD = "/api/device/DeviceData/upload"


def waiting_on_a_lock(app) -> bool:
    with app.app_context():
        waiting = db.session.scalar(
            text(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()"
            )
        )
        db.session.remove()
    return waiting > 0


@pytest.mark.parametrize(("worker_class", "others_answer"), [(None, True), ("sync", False)])
def test_an_upload_waiting_on_postgresql_holds_up_no_other_request(
    app, client, owner, guids, worker_class, others_answer
):
    guid, key = guids["th_a"]
    add(client, owner, guid)
    with app.app_context():
        backdate_issuance()
    api = Api(app, *(["-k", worker_class] if worker_class else []))
    answers = {}
    try:
        api.wait_healthy()
        with app.app_context(), db.engine.connect() as holder:
            # The upload's state lock waits for this one.
            holder.execute(text("LOCK TABLE device_state IN EXCLUSIVE MODE"))
            body = {"guid": guid, "records": [{"ts": minutes_ago(5), "readings": {"1": 4.0, "2": 55}}]}
            headers = {"X-Device-Id": guid, "X-Device-Key": key}
            uploader = threading.Thread(target=lambda: answers.update(upload=api.call("POST", UPLOAD, body, headers)))
            uploader.start()
            assert wait_until(lambda: waiting_on_a_lock(app), timeout=30)
            try:
                answers["health"] = api.call("GET", "/api/health", timeout=3)[0]
            except TimeoutError:
                answers["health"] = None
            holder.rollback()
        uploader.join(30)
    finally:
        api.close()
    assert answers["health"] == (200 if others_answer else None)
    status, result = answers["upload"]
    assert status == 200 and result["data"]["accepted"] == 2, result


@pytest.mark.parametrize(("worker_class", "cooperative"), [(None, True), ("sync", False)])
def test_only_the_gevent_worker_patches_and_psycopg_waits_as_its_worker_does(app, worker_class, cooperative):
    """gevent's worker patches before it imports the app, so psycopg waits through gevent; the master
    imports nothing of the app, so a sync worker runs unpatched with psycopg's own wait (this test
    process's: nothing patches it). Fails when gunicorn.conf.py patches for every worker class, or
    imports the app before the patch (psycopg would then keep its blocking wait)."""
    api = Api(app, *(["-k", worker_class] if worker_class else []), wsgi="tests.api.wsgi_probe:app")
    try:
        status, answer = api.wait_healthy().call("GET", "/")
    finally:
        api.close()
    assert status == 200
    assert answer == {"patched": cooperative, "wait": "wait_poll" if cooperative else waiting.wait.__name__}
    assert cooperative or waiting.wait.__name__ != "wait_poll"
