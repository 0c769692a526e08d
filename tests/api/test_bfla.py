"""Function-level authorization, probed from every operation's declared need (see tests/api/bfla.py).

Every documented operation x every identity of the matrix -> the outcome the need declares. A new
operation is probed as soon as it is documented; it cannot be documented without a need, because the
app refuses to start with an operation that declares none (api/access/gate.install).
"""

from __future__ import annotations

import os

import pytest

from api.access.gate import KINDS
from api.extensions.db import db
from api.identity.models import StaffRole
from tests.api import bfla, bola
from tests.api.account_helpers import BASE, auth, login, make_account
from tests.api.device_helpers import DEVICE, minutes_ago, upload
from tests.api.test_bola import JUNJIA, MARKER, SEEDERS, guids

__all__ = ["guids"]

# The recipient's template: real-time, chart and info, temperature; the push block and humidity hidden.
TEMPLATE_ITEMS = [
    {"permissionCode": "realtime", "viewStatus": 1, "setStatus": 0},
    {"permissionCode": "chart", "viewStatus": 1, "setStatus": 0},
    {"permissionCode": "info", "viewStatus": 1, "setStatus": 0},
    {"permissionCode": "0001", "viewStatus": 1, "setStatus": 0},
]
# Values of the hidden humidity parameter (above 59 so that no timestamp's seconds can look alike)
# and the hidden push block's recipient: none may appear in any answer to the recipient.
HUMIDITY_READING, HUMIDITY_LOWER, HUMIDITY_UPPER = 88.8, 64.5, 97.5
HIDDEN_MARKERS = ["88.8", "64.5", "97.5", f"R{MARKER}"]


def account_keys(client, headers) -> frozenset[str]:
    body = client.get(f"{BASE}/accountInfo", headers=headers).get_json()
    assert body["code"] == 0, body
    return frozenset(body["data"]["permissionRoutes"])


@pytest.fixture
def matrix(app, client, make_client, guids):
    document = client.get("/api/openapi.json").get_json()
    openapi = bola.OpenApi(document)
    make_account(app, user_name="owner_a", email=f"a_{MARKER.lower()}@example.com")
    make_account(app, user_name="operator", staff_role=StaffRole.OPERATOR)
    owner_headers = auth(login(client, "owner_a"))
    recorders = {
        "owner": bola.Recorder(client, owner_headers, openapi),
        "operator": bola.Recorder(client, auth(login(client, "operator")), openapi),
    }
    state = {"guids": guids, "markers": []}
    for who, seed in SEEDERS:
        seed(recorders[who], state)
    a = recorders["owner"]
    device_id = state["device_id"]
    guid, key = guids["th_a"]
    assert (
        upload(client, guid, key, [{"ts": minutes_ago(5), "readings": {"1": 4.2, "2": HUMIDITY_READING}}]).get_json()[
            "code"
        ]
        == 0
    )
    limits = [
        {"sensor": 1, "upperLimit": 8, "lowerLimit": 2},
        {"sensor": 2, "upperLimit": HUMIDITY_UPPER, "lowerLimit": HUMIDITY_LOWER},
    ]
    a.call("post", "/api/alarm/SensorLimit/save", json_body={"deviceId": device_id, "limits": limits})
    for call in ("SensorLimit/list", "PushSetting/get", "Alarm/deviceStatus"):
        a.call("get", f"/api/alarm/{call}?deviceId={device_id}")
    # The organisation: the device bound, an admin and an Observer member with A's preset roles.
    organization = a.call("get", "/api/base/BaseOrganization/tree")[0]
    a.call(
        "post",
        "/api/base/BaseOrganization/bindDevice",
        json_body={"organizationId": organization["id"], "deviceIds": [device_id]},
    )
    english = {"Accept-Language": "en-US"}  # preset role names follow the language
    page = a.call("post", "/api/base/BaseRole/page", json_body={}, headers=english)
    roles = {r["roleName"]: r["id"] for r in page["list"]}
    members = {"admin member": "Administrator", "observer member": "Observer"}
    for user_name, role in zip(("admin_m", "observer_m"), members.values(), strict=True):
        make_account(app, user_name=user_name)
        found = a.call("get", f"/api/base/BaseAccount/queryAccountByUEP?keyword={user_name}")
        a.call(
            "post",
            "/api/base/BaseAccount/organizationAddUser",
            json_body={"organizationId": organization["id"], "ticket": found["ticket"], "roleId": roles[role]},
        )
    # The share recipient.
    make_account(app, user_name="recipient_s", email="recipient_s@example.com")
    template = a.call(
        "post", f"{DEVICE}/DevicePermissionTemplate/insert", json_body={"name": "Partial", "items": TEMPLATE_ITEMS}
    )
    a.call(
        "post",
        f"{DEVICE}/DeviceShare/insert",
        json_body={
            "deviceIds": [device_id],
            "userName": "recipient_s",
            "sharerName": "Guard",
            "templateId": template["id"],
            "expire": "7d",
        },
    )
    junjia = make_client(JUNJIA)
    make_account(app, host=JUNJIA, user_name="admin_junjia", staff_role=StaffRole.PLATFORM_ADMIN)
    identities = []
    for name, user_name, relation in (
        ("owner", "owner_a", "owner"),
        ("admin member", "admin_m", "member"),
        ("observer member", "observer_m", "member"),
        ("share recipient", "recipient_s", "shared"),
        ("staff", "operator", None),
    ):
        headers = auth(login(client, user_name))
        identities.append(
            bfla.Identity(
                name,
                headers,
                account_keys(client, headers),
                relation,
                {i["permissionCode"]: i for i in TEMPLATE_ITEMS} if relation == "shared" else None,
                client,
            )
        )
    other = auth(login(junjia, "admin_junjia"))
    identities.append(bfla.Identity("other site admin", other, account_keys(junjia, other), None, None, junjia))
    identities.append(bfla.Identity("signed out", None, frozenset(), None, None, client))
    templates = {**recorders["operator"].templates, **recorders["owner"].templates}
    with app.app_context():
        bfla.take_snapshot()
        bfla.install_change_log()
    yield {"openapi": openapi, "templates": templates, "identities": identities}
    with app.app_context():
        bfla.remove_change_log()


def run_probe(app, matrix, only: str = ""):
    openapi = matrix["openapi"]
    results, judged, declared = [], set(), []
    with app.app_context():
        mark, _ = bfla.changed_tables(0)
    for operation in openapi.operations:
        need = operation.spec.get("x-access")
        declared.append(operation.key)
        if need is None or need.get("public") or only not in operation.key:
            continue
        template = matrix["templates"].get(operation.key)
        url, body, extra = bola.build_request(openapi, operation, template, {})
        kind = KINDS.get(need.get("object") or "")
        device_bound = bool(kind and kind.device_of)
        # Without A's own request the object of the call is not A's: only the key is judged then.
        carries_object = template is not None
        for identity in matrix["identities"]:
            expected = bfla.expected_allowed(need, identity, carries_object, device_bound)
            if expected and need.get("object") and not carries_object:
                continue
            headers = {**(identity.headers or {}), **extra}
            response = getattr(identity.client, operation.method)(url, json=body, headers=headers)
            with app.app_context():
                mark, written = bfla.changed_tables(mark)
            was_refused = bfla.refused(response)
            raw = bola.answer_text(response)
            verdict, reason = "ok", ""
            if response.status_code >= 500:
                verdict, reason = "leak", f"server error {response.status_code}"
            elif not expected and not was_refused:
                verdict, reason = "leak", f"the need refuses it, answered {response.status_code} {raw[:100]}"
            elif not expected and written:
                verdict, reason = "leak", f"refused, but the database changed: {written}"
            elif identity.relation == "shared" and [m for m in HIDDEN_MARKERS if m in raw]:
                shown = [m for m in HIDDEN_MARKERS if m in raw]
                verdict, reason = "leak", f"the answer shows what the template hides: {shown}"
            elif expected and was_refused:
                verdict, reason = "over-refused", raw[:100]
            results.append((operation.key, identity.name, verdict, reason))
            judged.add(operation.key)
            if written:
                with app.app_context():
                    bfla.restore_snapshot(written)
                    mark, _ = bfla.changed_tables(mark)
                    db.session.remove()
    return results, judged, declared


def test_every_operation_declares_what_it_needs(client):
    document = client.get("/api/openapi.json").get_json()
    missing, wrong_arg = [], []
    for operation in bola.OpenApi(document).operations:
        need = operation.spec.get("x-access")
        if need is None:
            missing.append(operation.key)
            continue
        if need.get("arg"):
            params = {p["name"] for p in operation.spec.get("parameters", [])}
            params |= {p["name"] for p in document["paths"][operation.path].get("parameters", [])}
            _, body = bola.OpenApi(document).body_schema(operation.spec)
            fields = set((body or {}).get("properties", {}))
            path_names = {name.replace("device_id", "device_id") for name in params}
            if need["arg"] not in params | fields | path_names and "{" + need["arg"] + "}" not in operation.path:
                wrong_arg.append(f"{operation.key}: {need['arg']}")
        if need.get("object"):
            assert need["object"] in KINDS, f"{operation.key}: unknown object kind {need['object']}"
    assert not missing, missing
    assert not wrong_arg, wrong_arg


def test_no_role_or_template_does_more_than_its_need(app, matrix):
    results, judged, _ = run_probe(app, matrix)
    leaks = [r for r in results if r[2] == "leak"]
    over = [r for r in results if r[2] == "over-refused"]
    guarded = [
        op.key
        for op in matrix["openapi"].operations
        if op.spec.get("x-access") and not op.spec["x-access"].get("public")
    ]
    pct = 100.0 * len(judged) / len(guarded) if guarded else 100.0
    print(f"\nBFLA probe: {len(judged)}/{len(guarded)} operations judged, {len(results)} calls, {len(leaks)} leaks")
    print(f"  {len(over)} calls refused that the need would allow (objects the world lacks, business rules)")
    for operation, who, _verdict, reason in leaks:
        print(f"  leak {who:17} {operation} {reason}")
    out = os.environ.get("BFLA_REPORT")
    if out:
        with open(out, "w", encoding="utf-8") as handle:
            handle.write(f"{pct:.1f} {len(leaks)} {len(results)} {len(over)}\n")
    assert not leaks, "\n".join(f"{op} as {who}: {reason}" for op, who, _, reason in leaks)
    assert pct == 100.0, sorted(set(guarded) - judged)


def test_the_probe_catches_a_planted_leak(app, matrix, monkeypatch):
    """The probe can fail: with the template check planted away, the recipient reads the push block."""
    import api.access.gate as gate

    monkeypatch.setattr(gate, "may_view", lambda device, code: True)
    results, _, _ = run_probe(app, matrix, only="/api/alarm/PushSetting/get")
    assert any(r[2] == "leak" and r[1] == "share recipient" and "PushSetting/get" in r[0] for r in results)
