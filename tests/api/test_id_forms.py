"""Ids in their one form (api/extensions/integers.py) and an access gate that never skips one.

Issue 44: the gate checked only ids of plain digits and let "+2" through to a schema that read it as 2:
another site's certificate, FDA signatures skipped, a share template's hidden block read. The probe of
tests/api/id_forms.py sends every id of every documented operation in the spellings parsers read as
the same integer, as another site's user and admin and as a view-only share recipient.
"""

from __future__ import annotations

import copy
import os
from urllib.parse import quote

import pytest
from hypothesis import given
from hypothesis import strategies as st

from api.access import gate
from api.extensions import integers
from api.extensions.db import db
from tests.api import id_forms
from tests.api.account_helpers import auth, login, make_account
from tests.api.device_helpers import DEVICE, add, guids
from tests.api.fda_helpers import fda_mode
from tests.api.test_bola import world

__all__ = ["guids", "world"]

CAL = "/api/calibration"
ALARM = "/api/alarm"
EN = {"Accept-Language": "en-US"}
# A view-only template: real-time data only, the alarm and push blocks hidden, nothing settable.
VIEW_ONLY = {
    "name": "View only",
    "items": [
        {"permissionCode": "0001", "viewStatus": 1, "setStatus": 0},
        {"permissionCode": "realtime", "viewStatus": 1, "setStatus": 0},
        {"permissionCode": "alarm", "viewStatus": 0, "setStatus": 0},
        {"permissionCode": "push", "viewStatus": 0, "setStatus": 0},
    ],
}


@pytest.fixture
def callers(app, client, world):
    """Another site's user and admin (the BOLA world's), and a view-only recipient of A's device."""
    owner = auth(login(client, "owner_a"))
    make_account(app, user_name="viewer_a", email="viewer_a@example.com")
    template = client.post(f"{DEVICE}/DevicePermissionTemplate/insert", json=VIEW_ONLY, headers=owner).get_json()
    share = {
        "deviceIds": [world["ids"]["device"][0]],
        "userName": "viewer_a",
        "sharerName": "Probe",
        "templateId": template["data"]["id"],
        "expire": "7d",
    }
    assert client.post(f"{DEVICE}/DeviceShare/insert", json=share, headers=owner).get_json()["code"] == 0
    junjia = world["client"]
    found = {who: (junjia, headers) for who, headers in world["callers"].items()}
    found["share viewer"] = (client, auth(login(client, "viewer_a")))
    return found


def test_no_spelling_of_an_id_reaches_an_object(app, world, callers):
    outcomes, probed = id_forms.probe(app, world, callers)
    leaks = [o for o in outcomes if o.verdict == "leak"]
    print(f"\nid-forms probe: {len(probed)} operations, {len(outcomes)} calls, {len(leaks)} leaks")
    report = os.environ.get("ID_FORMS_REPORT")
    if report:
        with open(report, "w", encoding="utf-8") as handle:
            handle.write(f"{len(probed)} {len(leaks)} {len(outcomes)}\n")
    assert len(probed) >= 100, f"only {len(probed)} operations with integer ids: is the document complete?"
    assert {o.as_who for o in outcomes} == set(callers)
    assert not leaks, "\n".join(f"{o.operation} as {o.as_who}, {o.slot}={o.form}: {o.reason}" for o in leaks[:30])
    # No odd spelling is ever taken: it is refused as such (422), or the call is refused before any id
    # is read (the key: 403; another object of the call: 404 or a template's 4030).
    taken = sorted({(o.operation, o.slot, o.form) for o in outcomes if o.status < 300 and o.code == 0})
    assert not taken, taken[:20]


def skipping_gate(need, path_kwargs=None):
    """The gate as it was: only plain digits checked, any other spelling skipped."""
    path_kwargs = gate.request.view_args or {} if path_kwargs is None else path_kwargs
    raw = path_kwargs.get(need.arg, gate.request.args.get(need.arg))
    if raw is None and gate.request.is_json:
        raw = (gate.request.get_json(silent=True) or {}).get(need.arg)
    values = raw if isinstance(raw, list) else [raw]
    return [int(v) for v in values if isinstance(v, int) or (isinstance(v, str) and v.strip().isdigit())]


def lenient_parse(value):
    """int()'s reading of "+2", " 2", "2.0" (the planted defect); what int() cannot read stays refused."""
    if isinstance(value, bool):
        return value
    try:
        return int(float(value))
    except (TypeError, ValueError) as error:
        raise integers.NotCanonicalError(value) from error


def test_the_probe_catches_a_planted_skip(app, world, callers, monkeypatch):
    """With the gate skipping odd spellings and the schema reading them as int() does, the probe finds
    the leaks of issue 44."""
    monkeypatch.setattr(gate, "requested_ids", skipping_gate)
    monkeypatch.setattr(integers, "parse", lenient_parse)
    outcomes, probed = id_forms.probe(app, world, callers, only="/Device/detail", examples=50)
    monkeypatch.undo()
    with app.app_context():
        db.session.remove()
    assert probed
    assert any(o.verdict == "leak" for o in outcomes), outcomes


@given(st.integers(min_value=-(2**63), max_value=2**63))
def test_the_canonical_form_reads_every_integer(number):
    assert integers.parse(str(number)) == number
    assert integers.parse(number) == number


@given(st.data())
def test_no_odd_spelling_is_read(data):
    number = data.draw(st.integers(min_value=0, max_value=2**31 - 1))
    form = data.draw(id_forms.odd_forms(number))
    with pytest.raises(integers.NotCanonicalError):
        integers.parse(form)


def answer(response):
    return response.status_code, response.get_json()


def test_issue_44_cases_are_refused_naming_the_field(app, client, world, callers):
    device_id = world["ids"]["device"][0]
    junjia, admin = callers["junjia admin"]
    status, body = answer(junjia.get(f"{CAL}/Certificate/device?deviceId=%2B{device_id}", headers={**admin, **EN}))
    assert status == 422 and body["msg"] == "Invalid input - deviceId: Not a valid integer.", body
    viewer_client, viewer = callers["share viewer"]
    status, body = answer(viewer_client.get(f"{ALARM}/PushSetting/get?deviceId=%2B{device_id}", headers=viewer))
    assert status == 422 and "deviceId" in body["data"]["errors"], body
    # The canonical id is refused by the template's hidden block, as before.
    status, body = answer(viewer_client.get(f"{ALARM}/PushSetting/get?deviceId={device_id}", headers=viewer))
    assert (status, body["code"]) == (200, 4030)
    for form in (f"+{device_id}", f"0{device_id}", id_forms._in_digits(device_id, "\u0660"), f" {device_id}"):
        status, body = answer(viewer_client.get(f"{DEVICE}/Device/detail/{quote(form)}", headers={**viewer, **EN}))
        assert status == 422 and body["msg"] == "Invalid input - device_id: Not a valid integer.", (form, body)
    for value in (f"+{device_id}", float(device_id), f"{device_id}.0", True):
        body = {"deviceId": value, "limits": [{"sensor": 1, "upperLimit": 8, "lowerLimit": 2}]}
        status, answered = answer(viewer_client.post(f"{ALARM}/SensorLimit/save", json=body, headers=viewer))
        assert status == 422 and "deviceId" in answered["data"]["errors"], (value, answered)


def test_an_id_of_no_row_is_a_422_never_a_create(app, client, world):
    owner = auth(login(client, "owner_a"))
    for bad in (0, -1, 2**31):
        status, body = answer(client.put(f"{DEVICE}/Device/update", json={"deviceId": bad}, headers=owner))
        assert status == 422 and "deviceId" in body["data"]["errors"], (bad, body)


def test_the_gate_checks_the_id_wherever_it_stands(app, client, world, callers, guids):
    """An id of one's own in the query and another's in the body: both are checked (the schema reads
    the body)."""
    junjia, user = callers["junjia user"]
    own = add(junjia, user, guids["junjia_th"][0], "Bob's fridge")
    victim = world["ids"]["device"][0]
    rename = {"deviceId": victim, "deviceName": "Bob's now"}
    status, _ = answer(junjia.put(f"{DEVICE}/Device/update?deviceId={own}", json=rename, headers=user))
    assert status == 404
    status, _ = answer(junjia.get(f"{DEVICE}/Device/detail/{victim}?deviceId={own}", headers=user))
    assert status == 404


def test_the_gate_refuses_to_start_with_an_id_it_cannot_read(app, client):
    """An operation whose declared object argument is not where the operation takes its input (a
    renamed field) is found before the app serves anything."""
    document = client.get("/api/openapi.json").get_json()
    assert gate.unreadable_object_ids(app, document) == []
    planted = copy.deepcopy(document)
    operation = planted["paths"]["/api/alarm/PushSetting/get"]["get"]
    operation["parameters"] = [p for p in operation["parameters"] if p["name"] != "deviceId"]
    assert gate.unreadable_object_ids(app, planted) == ["GET /api/alarm/PushSetting/get: deviceId"]


def test_fda_evidence_follows_the_record_not_what_the_gate_admitted(app, client, world, monkeypatch):
    """FDA mode's policy loads the records the request names itself: with the gate admitting nothing,
    a change to an FDA owner's record still needs its reason."""
    from api.fda.records import EVIDENCE_REQUIRED

    operator = auth(login(client, "operator"))
    fda_mode(app, user_name="owner_a")
    monkeypatch.setattr(gate, "check_object", lambda need, object_id, account: None)
    body = {"deviceId": world["ids"]["device"][0], "limits": [{"sensor": 1, "upperLimit": 8, "lowerLimit": 2}]}
    refused = client.post(f"{ALARM}/SensorLimit/save", json=body, headers={**operator, **EN}).get_json()
    assert refused["code"] == EVIDENCE_REQUIRED, refused
