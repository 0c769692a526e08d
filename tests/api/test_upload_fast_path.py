"""Device uploads answered below Flask (api/telemetry/fast_upload.py) answer exactly as the route does.

Two twin loggers get the same sequence of requests, one with the fast path on and one with it off;
every answer must match (status, headers, body), the readings stored must match, and the clean
uploads, and only those, must have been answered without Flask dispatching a request."""

from __future__ import annotations

import json
from contextlib import contextmanager

from flask import request_started
from sqlalchemy import update

from api import create_app
from api.device.models import Device
from api.extensions.db import db
from api.settings import TestConfig
from tests.api.device_helpers import DEVICE, add, guids, minutes_ago, owner
from tests.api.test_telemetry import stored

__all__ = ["guids", "owner"]

UPLOAD = f"{DEVICE}/DeviceData/upload"
GOOD = {"readings": {"1": 4.0, "2": 50}, "battery": 87, "signal": -71}


@contextmanager
def _fast_path(app, on: bool):
    before = app.config["DEVICE_UPLOAD_FAST_PATH"]
    app.config["DEVICE_UPLOAD_FAST_PATH"] = on
    try:
        yield
    finally:
        app.config["DEVICE_UPLOAD_FAST_PATH"] = before


def _twins(client, owner, guids) -> tuple[tuple[str, str], tuple[str, str], dict[str, int]]:
    """Two loggers of one type in the owner's account: (guid, key) of each, and their ids by guid."""
    fast, route = guids["th_a"], guids["th_b"]
    ids = {guid: add(client, owner, guid, name=f"Twin {n}") for n, (guid, _key) in enumerate((fast, route))}
    return fast, route, ids


def _post(
    body: dict | None = None,
    *,
    raw: bytes | None = None,
    lang=None,
    host="localhost",
    content_type=None,
    wrong_key: bool = False,
):
    """A step: an upload built for one twin (its guid and key, the other twin's guid)."""

    def send(client, guid, key, other_guid):
        payload = raw
        if payload is None:
            filled = {k: (guid if v == "GUID" else other_guid if v == "OTHER" else v) for k, v in body.items()}
            payload = json.dumps(filled).encode()
        headers = {"Host": host, "X-Device-Id": guid, "X-Device-Key": "wrong-key" if wrong_key else key}
        if lang is not None:
            headers["Accept-Language"] = lang
        return client.post(UPLOAD, data=payload, headers=headers, content_type=content_type or "application/json")

    return send


def _steps(times: list[int]) -> list[tuple[str, object, bool]]:
    """(name, step, answered below Flask). A step is a request or an action on the twin's device."""
    one = [{"ts": times[0], **GOOD}]
    return [
        ("clean, Chinese", _post({"guid": "GUID", "records": one}, lang="zh-CN"), True),
        ("clean, English", _post({"guid": "GUID", "records": [{"ts": times[1], **GOOD}]}, lang="en-US"), True),
        ("clean, no language", _post({"guid": "GUID", "records": [{"ts": times[2], **GOOD}]}), True),
        ("clean, a bare 'en'", _post({"guid": "GUID", "records": [{"ts": times[3], **GOOD}]}, lang="en"), True),
        ("re-sent: duplicates", _post({"guid": "GUID", "records": one}, lang="en-US"), True),
        (
            "an unknown top-level field",
            _post({"guid": "GUID", "records": [{"ts": times[4], **GOOD}], "fw": "1.2"}),
            True,
        ),
        ("a large batch", _post({"guid": "GUID", "records": [{"ts": t, **GOOD} for t in times[10:]]}), True),
        (
            "one record refused",
            _post({"guid": "GUID", "records": [{"ts": times[5], **GOOD}, {"ts": times[6], "readings": {"9": 1}}]}),
            False,
        ),
        ("every record refused", _post({"guid": "GUID", "records": [{"ts": times[7], "readings": {"9": 1}}]}), False),
        ("wrong key", _post({"guid": "GUID", "records": [{"ts": times[8], **GOOD}]}, wrong_key=True), False),
        ("another device's GUID", _post({"guid": "OTHER", "records": [{"ts": times[8], **GOOD}]}), False),
        ("no records", _post({"guid": "GUID"}, lang="en-US"), False),
        ("a GUID of letters", _post({"guid": "abc", "records": []}), False),
        ("not JSON", _post(raw=b'{"guid": '), False),
        ("too deep", _post(raw=b'{"guid": "1", "records": ' + b"[" * 40 + b"]" * 40 + b"}"), False),
        ("a list", _post(raw=b"[]"), False),
        (
            "text/plain",
            _post({"guid": "GUID", "records": [{"ts": times[8], **GOOD}]}, content_type="text/plain"),
            False,
        ),
        ("an unknown site", _post({"guid": "GUID", "records": [{"ts": times[8], **GOOD}]}, host="nowhere.test"), False),
        ("disable", "disable", None),
        ("a disabled device", _post({"guid": "GUID", "records": [{"ts": times[9], **GOOD}]}, lang="en-US"), False),
    ]


def _run(app, twin: tuple[str, str], other_guid: str, fast: bool, times: list[int]) -> list[tuple]:
    client = app.test_client()
    dispatched: list[int] = []

    def count(sender, **extra):
        dispatched.append(1)

    answers = []
    with request_started.connected_to(count, app), _fast_path(app, fast):
        for name, step, _below in _steps(times):
            if step == "disable":
                with app.app_context():
                    db.session.execute(update(Device).where(Device.guid == twin[0]).values(enabled=False))
                    db.session.commit()
                continue
            before = len(dispatched)
            response = step(client, twin[0], twin[1], other_guid)
            headers = sorted((k, v) for k, v in response.headers.items() if k != "Date")
            answers.append((name, response.status_code, headers, response.get_json(), len(dispatched) - before))
    return answers


def test_both_paths_answer_every_upload_alike_and_only_clean_ones_skip_flask(app, client, owner, guids):
    (fast_guid, fast_key), (route_guid, route_key), ids = _twins(client, owner, guids)
    times = [minutes_ago(60 - minute) for minute in range(10)] + [minutes_ago(200 - n * 0.5) for n in range(150)]

    fast = _run(app, (fast_guid, fast_key), route_guid, True, times)
    route = _run(app, (route_guid, route_key), fast_guid, False, times)

    for (name, *fast_answer, _), (_name, *route_answer, _) in zip(fast, route, strict=True):
        assert fast_answer == route_answer, name
    below = {name for name, _step, skips in _steps(times) if skips}
    assert {name for name, *_answer, dispatched in fast if dispatched == 0} == below
    assert all(dispatched == 1 for *_answer, dispatched in route)
    statuses = {name: status for name, status, *_rest in fast}
    assert statuses["clean, Chinese"] == 200 and statuses["wrong key"] == 401 and statuses["an unknown site"] == 421
    messages = {name: body["msg"] for name, _status, _headers, body, _dispatched in fast}
    assert messages["clean, English"] == "success" and messages["clean, Chinese"] != "success"
    assert [body["data"]["duplicates"] for name, _s, _h, body, _d in fast if name == "re-sent: duplicates"] == [2]
    # Each twin stored the same readings, once.
    assert stored(app, ids[fast_guid]) == stored(app, ids[route_guid]) == 2 * (5 + 150 + 1)  # two sensors a record


def test_an_error_of_the_work_is_answered_by_the_route_without_uploading_again(app, client, owner, guids):
    guid, key = guids["th_a"]
    add(client, owner, guid)
    group = app.extensions["telemetry.uploads"]
    calls = []

    class Failing:
        def submit(self, upload):
            calls.append(upload.guid)
            raise RuntimeError("the store failed")

    app.extensions["telemetry.uploads"] = Failing()
    try:
        answers = []
        for fast in (True, False):
            with _fast_path(app, fast):
                response = _post({"guid": "GUID", "records": [{"ts": minutes_ago(3), **GOOD}]}, lang="en-US")(
                    app.test_client(), guid, key, guid
                )
            answers.append((response.status_code, response.get_json()))
    finally:
        app.extensions["telemetry.uploads"] = group
    assert answers[0] == answers[1]
    assert answers[0][0] == 500
    assert calls == [guid, guid]  # once per path: the route answered the fast path's error, not retried it


def test_the_overseas_edition_answers_clean_uploads_in_english_on_both_paths(app, client, owner, guids):
    overseas = create_app(TestConfig, {"OVERSEAS": True})
    fast_twin, route_twin, _ids = _twins(client, owner, guids)
    answers = []
    for fast, (guid, key) in ((True, fast_twin), (False, route_twin)):
        for lang in (None, "zh-CN"):
            minutes = 5 if lang is None else 4
            step = _post({"guid": "GUID", "records": [{"ts": minutes_ago(minutes), **GOOD}]}, lang=lang)
            with _fast_path(overseas, fast):
                response = step(overseas.test_client(), guid, key, guid)
            answers.append((response.status_code, sorted(response.headers.items()), response.get_json()))
    assert answers[:2] == answers[2:]
    assert [body["msg"] for _status, _headers, body in answers[:2]] == ["success", "成功"]
