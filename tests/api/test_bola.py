"""Broken object-level authorization, probed generically from /api/openapi.json (see tests/api/bola.py).

Every documented operation that takes an id is called by accounts of platform `junjia` with the ids
of platform `default`'s accounts: it must be refused (or answer nothing), show none of A's data and
change nothing in the database. A new call is probed as soon as it is documented; an area that adds
objects extends `SEEDERS` so that A owns one of them.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from urllib.parse import urlencode

import pytest

from api.account.models import StaffRole
from api.extensions.db import db
from tests.api import bola
from tests.api.account_helpers import auth, login, make_account
from tests.api.device_helpers import DEVICE, guids, minutes_ago, upload

__all__ = ["guids"]

JUNJIA = "junjia.localhost"
MARKER = "zq7Secret"  # in every free text A writes, so an answer that shows A's data is easy to spot


def seed_devices(a: bola.Recorder, world: dict) -> None:
    guid, key = world["guids"]["th_a"]
    device_id = a.call(
        "post",
        f"{DEVICE}/Device/add",
        json_body={"deviceGuid": guid, "deviceName": f"F{MARKER}"[:15], "timeZone": "Asia/Shanghai"},
    )["id"]
    world["device_id"] = device_id
    world["markers"] += [guid, f"F{MARKER}"[:15]]
    response = upload(
        a.client, guid, key, [{"ts": minutes_ago(m), "readings": {"1": 4.0 + m / 10}} for m in (30, 20, 10)]
    )
    assert response.get_json()["code"] == 0
    a.call("post", f"{DEVICE}/Device/page", json_body={})
    a.call("get", f"{DEVICE}/Device/detail/{device_id}")
    a.call("put", f"{DEVICE}/Device/update", json_body={"deviceId": device_id, "deviceName": f"G{MARKER}"[:15]})
    world["markers"].append(f"G{MARKER}"[:15])
    a.call("put", f"{DEVICE}/Device/focus/{device_id}", json_body={"focus": True})
    a.call("get", f"{DEVICE}/DeviceEvent/list?deviceId={device_id}")
    a.call("post", f"{DEVICE}/DeviceCommand/send", json_body={"deviceId": device_id, "params": {"0101": 5}})
    a.call("get", f"{DEVICE}/DeviceCommand/list?deviceId={device_id}")
    record = {
        "deviceId": device_id,
        "kind": "maintenance",
        "reportTime": "2026-11-01T09:00:00+08:00",
        "startTime": "2026-11-01T09:00:00+08:00",
        "endTime": "2026-11-01T11:00:00+08:00",
        "person": "Li Wei",
        "approver": "Zhang",
        "content": f"Coils {MARKER}",
    }
    record_id = a.call("post", f"{DEVICE}/MaintenanceRecord/insert", json_body=record)["id"]
    world["markers"].append(f"Coils {MARKER}")
    a.call("put", f"{DEVICE}/MaintenanceRecord/update", json_body={**record, "id": record_id})
    a.call("post", f"{DEVICE}/MaintenanceRecord/page", json_body={"deviceId": device_id})
    for call in ("latest", "energy"):
        a.call("get", f"{DEVICE}/DeviceData/{call}?deviceId={device_id}")
    now = datetime.now(UTC)
    window = urlencode({"start": (now - timedelta(hours=1)).isoformat(), "end": now.isoformat()})
    a.call("get", f"{DEVICE}/DeviceData/chart?deviceId={device_id}&{window}")
    a.call("get", f"{DEVICE}/DeviceData/track?deviceId={device_id}&{window}")


def seed_notices(operator: bola.Recorder, world: dict) -> None:
    notice = operator.call(
        "post",
        "/api/base/BaseNotice/insert",
        json_body={"noticeTitle": f"N {MARKER}", "noticeContent": f"<p>{MARKER}</p>"},
    )
    world["markers"].append(f"N {MARKER}")
    operator.call(
        "put",
        "/api/base/BaseNotice/updateWithNotEmptyFiled",
        json_body={"noticeId": notice["noticeId"], "enabled": True},
    )


def seed_alarms_and_reports(a: bola.Recorder, world: dict) -> None:
    device_id = world["device_id"]
    recipients = [{"name": f"R{MARKER}", "email": "ops@example.com"}]
    setting = {"deviceId": device_id, "multiLevel": False, "channels": ["email"]}
    a.call(
        "post",
        "/api/alarm/PushSetting/save",
        json_body={**setting, "levels": [{"level": 1, "minutes": 0, "recipients": recipients}]},
    )
    report = {
        "reportName": f"D{MARKER}",
        "reportType": "device",
        "frequency": "daily",
        "receivers": [{"name": "QA", "email": "qa@example.com"}],
        "deviceIds": [device_id],
        "nextReportTime": (datetime.now(UTC) + timedelta(hours=1)).isoformat(),
    }
    created = a.call("post", "/api/report/ScheduledReport/insert", json_body=report)
    a.call(
        "put", "/api/report/ScheduledReport/update", json_body={**report, "id": created["id"], "frequency": "weekly"}
    )
    world["markers"] += [f"R{MARKER}", f"D{MARKER}"]


def seed_organizations_and_sharing(a: bola.Recorder, world: dict) -> None:
    device_id = world["device_id"]
    organization = a.call("post", "/api/base/BaseOrganization/insert", json_body={"name": f"O{MARKER}"})
    invite = {"organizationId": organization["id"], "email": "invitee@example.com", "inviterName": "Ann"}
    a.call("post", "/api/base/BaseAccount/invite", json_body=invite)
    items = [{"permissionCode": "0001", "viewStatus": 1, "setStatus": 0}]
    template = a.call("post", f"{DEVICE}/DevicePermissionTemplate/insert", json_body={"name": "T", "items": items})
    share = {"deviceIds": [device_id], "email": "guard@example.com", "templateId": template["id"], "expire": "7d"}
    a.call("post", f"{DEVICE}/DeviceShare/insert", json_body={**share, "sharerName": f"S{MARKER}"[:20]})
    a.call("post", f"{DEVICE}/DeviceTransfer/insert", json_body={"deviceId": device_id, "userName": "operator"})
    world["markers"] += [f"O{MARKER}", f"S{MARKER}"[:20]]


# (who on platform default, seeder). Areas with new objects append theirs; A's templates teach B's calls.
SEEDERS: list[tuple[str, Callable[[bola.Recorder, dict], None]]] = [
    ("owner", seed_devices),
    ("operator", seed_notices),
    ("owner", seed_alarms_and_reports),
    ("owner", seed_organizations_and_sharing),
]


@pytest.fixture
def world(app, client, make_client, guids):
    document = client.get("/api/openapi.json").get_json()
    openapi = bola.OpenApi(document)
    make_account(app, user_name="owner_a", email=f"a_{MARKER.lower()}@example.com")
    make_account(app, user_name="operator", staff_role=StaffRole.OPERATOR)
    recorders = {
        "owner": bola.Recorder(client, auth(login(client, "owner_a")), openapi),
        "operator": bola.Recorder(client, auth(login(client, "operator")), openapi),
    }
    state = {"guids": guids, "markers": ["owner_a", f"a_{MARKER.lower()}@example.com"]}
    for who, seed in SEEDERS:
        seed(recorders[who], state)
    templates = {}
    for recorder in recorders.values():
        templates.update(recorder.templates)
    junjia = make_client(JUNJIA)
    b_ids = {
        make_account(app, host=JUNJIA, user_name="bob_junjia"),
        make_account(app, host=JUNJIA, user_name="admin_junjia", staff_role=StaffRole.PLATFORM_ADMIN),
    }
    callers = {
        "junjia user": auth(login(junjia, "bob_junjia")),
        "junjia admin": auth(login(junjia, "admin_junjia")),
    }
    with app.app_context():
        ids = bola.table_ids(b_ids)
    return {
        "openapi": openapi,
        "templates": templates,
        "ids": ids,
        "markers": state["markers"],
        "client": junjia,
        "callers": callers,
    }


def run_probe(app, world) -> tuple[list[bola.ProbeResult], list[str], list[str]]:
    openapi, client = world["openapi"], world["client"]
    results, covered, with_ids = [], [], []
    for operation in openapi.operations:
        if not operation.id_slots:
            continue
        with_ids.append(operation.key)
        template = world["templates"].get(operation.key)
        slot_candidates = {slot: bola.candidates(operation, slot[1], world["ids"]) for slot in operation.id_slots}
        rounds = max(len(v) for v in slot_candidates.values())
        if rounds == 0:
            continue
        reached = False
        for who, headers in world["callers"].items():
            for i in range(rounds):
                values = {slot: vals[min(i, len(vals) - 1)] for slot, vals in slot_candidates.items() if vals}
                url, body, extra = bola.build_request(openapi, operation, template, values)
                with app.app_context():
                    before = bola.fingerprint()
                response = getattr(client, operation.method)(url, json=body, headers={**headers, **extra})
                with app.app_context():
                    after = bola.fingerprint()
                verdict, reason = bola.judge(operation, response, world["markers"])
                if before != after:
                    changed = sorted(t for t in after if after[t] != before.get(t))
                    verdict, reason = "leak", f"database changed: {changed}"
                reached = reached or verdict != "invalid"
                body_json = response.get_json(silent=True) or {}
                results.append(
                    bola.ProbeResult(operation.key, who, response.status_code, body_json.get("code"), verdict, reason)
                )
        if reached:
            covered.append(operation.key)
    return results, covered, with_ids


def test_no_call_lets_another_platform_use_my_ids(app, world):
    results, covered, with_ids = run_probe(app, world)
    leaks = [r for r in results if r.verdict == "leak"]
    pct = 100.0 * len(covered) / len(with_ids) if with_ids else 100.0
    summary = f"{len(covered)}/{len(with_ids)} calls with ids covered ({pct:.0f}%)"
    print(f"\nBOLA probe: {summary}, {len(results)} requests, {len(leaks)} leaks")
    for r in results:
        print(f"  {r.verdict:8} {r.status} code={r.code} {r.as_who:13} {r.operation} {r.reason}")
    out = os.environ.get("BOLA_REPORT")
    if out:
        with open(out, "w", encoding="utf-8") as handle:
            handle.write(f"{len(covered)} {len(with_ids)} {len(leaks)} {len(results)}\n")
    assert with_ids, "the probe found no call with ids: is the OpenAPI document empty?"
    assert not leaks, "\n".join(f"{r.operation} as {r.as_who}: {r.reason}" for r in leaks)
    assert covered == with_ids, f"not reaching authorization (all 422): {sorted(set(with_ids) - set(covered))}"


def test_lists_never_show_my_rows_to_another_platform(app, world):
    """Every read without ids (lists, counts, pages), with A's own request body where A made one."""
    openapi, client = world["openapi"], world["client"]
    probed = 0
    for operation in openapi.operations:
        action = operation.path.rsplit("/", 1)[-1].lower()
        reads = operation.method == "get" or action.startswith(("page", "list", "query"))
        if operation.id_slots or "{" in operation.path or not reads or not operation.spec.get("security"):
            continue
        for headers in world["callers"].values():
            url, body, extra = bola.build_request(openapi, operation, world["templates"].get(operation.key), {})
            response = getattr(client, operation.method)(url, json=body, headers={**headers, **extra})
            raw = response.get_data(as_text=True)
            assert response.status_code < 500, (operation.key, raw[:200])
            assert not [m for m in world["markers"] if m in raw], (operation.key, raw[:300])
            probed += 1
    assert probed >= 4


def test_the_probe_catches_a_leak(app, world, monkeypatch):
    """The probe itself can fail: with the device scoping switched off, B reads A's device."""
    import api.device.services as device_services

    original = device_services.visible
    monkeypatch.setattr(device_services, "visible", lambda stmt, model: stmt)
    results, _, _ = run_probe(app, world)
    monkeypatch.setattr(device_services, "visible", original)
    assert any(r.verdict == "leak" and "Device/detail" in r.operation for r in results)
    with app.app_context():
        db.session.remove()
