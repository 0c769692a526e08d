"""Issue 44: the operation-log entry is written in the transaction of the change it records.

Before, the entry was written in a second transaction after the change committed: under concurrency
a change could commit without its entry (on SQLite two writers read one chain head and the second
entry broke the chain's unique index: a device delete, a scrap and a role delete answered 500 with
their change committed and no entry), and `flask audit verify` still said intact. Now a change and
its entry commit together or not at all, and the chain stays whole with 20 calls committing at once
(a real server: gunicorn, on PostgreSQL; gthread workers on `make run`'s SQLite)."""

from __future__ import annotations

import threading
from collections import Counter

import pytest
from flask_migrate import upgrade
from sqlalchemy import event, func, select, text
from sqlalchemy.orm import Session

from api import create_app
from api.audit.models import AuditChainHead, OperationLog
from api.device.catalogue import sync_catalogue
from api.device.models import Device, DeviceEvent
from api.device.services import issue_guids
from api.extensions.db import db
from api.extensions.smorest import ApiError
from api.organization import hierarchy as organization_hierarchy
from api.organization.models import Organization
from api.platform.services import sync_tenants
from api.role.models import Role
from api.settings import TestConfig
from api.tenancy import find_platform
from tests.api.account_helpers import auth, login, make_account
from tests.api.device_helpers import DEVICE, add, backdate_issuance
from tests.api.gunicorn_helpers import Api

ORG = "/api/base/BaseOrganization"
ROLE = "/api/base/BaseRole"


def run_verify(app):
    return app.test_cli_runner().invoke(args=["audit", "verify"])


def log_count(app) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(OperationLog))


def fleet(app, client, devices: int, roles: int) -> tuple[dict, list[int], list[int]]:
    """An owner with `devices` claimed loggers and `roles` roles nobody holds."""
    with app.app_context():
        logger = sync_catalogue()[0x8002]
        db.session.commit()
        issued = issue_guids(find_platform("localhost"), logger, devices, "RACE")
        backdate_issuance()
    make_account(app, user_name="race_owner")
    headers = auth(login(client, "race_owner"))
    device_ids = [add(client, headers, guid, name=f"Fridge {i}") for i, (guid, _) in enumerate(issued)]
    role_ids = []
    for i in range(roles):
        body = client.post(
            f"{ROLE}/insert", json={"roleName": f"Shift {i}", "permissions": ["device.list.query"]}, headers=headers
        ).get_json()
        assert body["code"] == 0, body
        role_ids.append(body["data"]["id"])
    return headers, device_ids, role_ids


def mixed_calls(device_ids: list[int], role_ids: list[int], orgs: int) -> list[tuple[str, str, dict | None]]:
    """Scrap, delete and rename devices, delete roles, create organisations: 20 different changes."""
    calls = [("PUT", f"{DEVICE}/Device/scrap/{i}", None) for i in device_ids[:4]]
    calls += [("DELETE", f"{DEVICE}/Device/delete/{i}", None) for i in device_ids[4:8]]
    calls += [("PUT", f"{DEVICE}/Device/update", {"deviceId": i, "deviceName": f"Renamed {i}"}) for i in device_ids[8:]]
    calls += [("DELETE", f"{ROLE}/delete/{i}", None) for i in role_ids]
    calls += [("POST", f"{ORG}/insert", {"name": f"Depot {i} east"}) for i in range(orgs)]
    return calls


def at_once(api: Api, headers: dict, calls: list) -> list[tuple[str, int, dict]]:
    """Every call from its own thread, released together."""
    barrier, answers, lock = threading.Barrier(len(calls)), [], threading.Lock()

    def call(method, path, body):
        barrier.wait()
        status, answer = api.call(method, path, body, headers=headers, timeout=120)
        with lock:
            answers.append((path, status, answer))

    threads = [threading.Thread(target=call, args=c) for c in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def assert_one_entry_per_change(app, calls, answers, logged_before: int) -> None:
    assert len(answers) == len(calls)
    assert [a for a in answers if a[1] != 200 or a[2].get("code") != 0] == []
    with app.app_context():
        entries = db.session.scalars(select(OperationLog).order_by(OperationLog.seq).offset(logged_before)).all()
        assert Counter(e.path for e in entries) == Counter(path for _, path, _ in calls)
        scrapped = db.session.scalars(select(Device.id).where(Device.scrapped_at.is_not(None))).all()
        deleted = db.session.scalars(select(Device.id).where(Device.deleted.is_(True))).all()
        named = Counter(part for e in entries for part in (e.target or "").split(", "))
        for device_id in (*scrapped, *deleted):
            assert named[f"device#{device_id}"] == 1, device_id
        organizations_made = db.session.scalars(select(Organization.id)).all()
        assert len(organizations_made) == sum(1 for _, path, _ in calls if path.endswith("/insert"))
        for org_id in organizations_made:
            assert named[f"organization#{org_id}"] == 1
        # (SQLite gives a deleted role's id to the next new one: an organisation's roles, made meanwhile.)
        assert db.session.scalars(select(Role.id).where(Role.role_name.like("Shift %"))).all() == []
        by_path = {e.path: e for e in entries}
        for _, path, _ in calls:
            if path.startswith(f"{ROLE}/delete/"):
                assert f"role#{path.rsplit('/', 1)[1]}" in by_path[path].target.split(", ")
        head = db.session.scalar(select(AuditChainHead))
        assert head.seq == logged_before + len(calls) == entries[-1].seq
    result = run_verify(app)
    assert result.exit_code == 0, result.output
    assert f"{logged_before + len(calls)} entries, chain intact" in result.output


def test_twenty_concurrent_changes_each_commit_with_exactly_one_entry_on_postgresql(app, client):
    headers, device_ids, role_ids = fleet(app, client, devices=10, roles=4)
    calls = mixed_calls(device_ids, role_ids, orgs=6)
    assert len(calls) == 20
    logged_before = log_count(app)
    api = Api(app, "-w", "2").wait_healthy()
    try:
        answers = at_once(api, headers, calls)
    finally:
        api.close()
    assert_one_entry_per_change(app, calls, answers, logged_before)


@pytest.fixture
def sqlite_app(tmp_path):
    """The api on a SQLite file, as `make run` keeps it."""
    sqlite = create_app(TestConfig, {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'coldchain.db'}"})
    with sqlite.app_context():
        upgrade()
        sync_tenants()
        db.session.commit()
    yield sqlite
    with sqlite.app_context():
        db.session.remove()
        db.engine.dispose()


def test_concurrent_delete_scrap_and_role_delete_on_sqlite_commit_with_their_entries(sqlite_app):
    """The 500s of the issue: on SQLite the head was read outside the writer's transaction."""
    client = sqlite_app.test_client()

    class Client:  # the conftest client's shape, on this app
        def post(self, url, **kwargs):
            return client.post(url, headers={"Host": "localhost", **kwargs.pop("headers", {})}, **kwargs)

    headers, device_ids, role_ids = fleet(sqlite_app, Client(), devices=10, roles=4)
    calls = mixed_calls(device_ids, role_ids, orgs=6)
    logged_before = log_count(sqlite_app)
    api = Api(sqlite_app, "-w", "2", "-k", "gthread", "--threads", "10").wait_healthy()
    try:
        answers = at_once(api, headers, calls)
    finally:
        api.close()
    assert_one_entry_per_change(sqlite_app, calls, answers, logged_before)


@pytest.fixture
def failing_entry(app):
    """The database refuses the transaction right after the entry was flushed into it."""

    def refuse(session, flush_context):
        if any(isinstance(row, OperationLog) for row in session.new):
            raise RuntimeError("disk full while writing the operation log")

    event.listen(Session, "after_flush", refuse)
    yield
    event.remove(Session, "after_flush", refuse)


def test_a_change_that_fails_after_its_entry_was_added_leaves_neither(app, client, failing_entry):
    make_account(app, user_name="tx_owner")
    headers = auth(login(client, "tx_owner"))
    before = log_count(app)
    body = client.post(f"{ORG}/insert", json={"name": "Never made"}, headers=headers).get_json()
    assert body["code"] == 500
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Organization)) == 0
    assert log_count(app) == before


def test_a_view_that_fails_after_flushing_its_change_leaves_no_entry(app, client, monkeypatch):
    make_account(app, user_name="tx_owner")
    headers = auth(login(client, "tx_owner"))
    original = organization_hierarchy.create

    def create_then_refuse(*args, **kwargs):
        made = original(*args, **kwargs)  # committed: this change has its entry
        refused = Organization(name="Flushed then refused", owner_account_id=made.owner_account_id)
        refused.platform_id = made.platform_id
        db.session.add(refused)
        db.session.flush()
        raise ApiError("refused after a flush", code=4999)

    monkeypatch.setattr(organization_hierarchy, "create", create_then_refuse)
    body = client.post(f"{ORG}/insert", json={"name": "Committed first"}, headers=headers).get_json()
    assert body["code"] == 4999
    with app.app_context():
        names = db.session.scalars(select(Organization.name)).all()
        entries = db.session.scalars(select(OperationLog)).all()
    assert names == ["Committed first"]
    assert len(entries) == 1 and "Committed first" in str(entries[0].after)
    assert "Flushed then refused" not in str(entries[0].after)


def test_verify_names_a_device_change_committed_without_its_entry(app, client):
    """What the chain cannot see (an entry never written), the device's own event log shows."""
    headers, device_ids, _ = fleet(app, client, devices=1, roles=0)
    assert client.put(f"{DEVICE}/Device/scrap/{device_ids[0]}", headers=headers).get_json()["code"] == 0
    assert run_verify(app).exit_code == 0
    with app.app_context():  # what the old recorder left behind: the change, and no entry for it
        scrap = db.session.scalar(select(DeviceEvent).where(DeviceEvent.action == "scrap"))
        db.session.execute(text("DELETE FROM device_event WHERE id = :id"), {"id": scrap.id})
        db.session.add(DeviceEvent(device_id=scrap.device_id, account_id=scrap.account_id, action="scrap", detail={}))
        db.session.commit()
        orphan = db.session.scalar(select(DeviceEvent.id).where(DeviceEvent.action == "scrap"))
    result = run_verify(app)
    assert result.exit_code == 1
    assert f"device event id {orphan} (scrap of device {device_ids[0]}" in result.output
    assert "committed without its log row" in result.output


def test_a_savepoint_rolled_back_takes_its_changes_out_of_the_entry(app, client, monkeypatch):
    """An import that skips a bad row (a savepoint rolled back) logs the rows it kept, not the skipped one."""
    make_account(app, user_name="tx_owner")
    headers = auth(login(client, "tx_owner"))
    original = organization_hierarchy.create

    def create_with_a_skipped_row(*args, **kwargs):
        made = original(*args, **kwargs)
        try:
            with db.session.begin_nested():
                skipped = Organization(name="Skipped row", owner_account_id=made.owner_account_id)
                skipped.platform_id = made.platform_id
                db.session.add(skipped)
                db.session.flush()
                raise ValueError("a bad row")
        except ValueError:
            pass
        made.name = "Kept and renamed"
        db.session.commit()
        return made

    monkeypatch.setattr(organization_hierarchy, "create", create_with_a_skipped_row)
    assert client.post(f"{ORG}/insert", json={"name": "Kept"}, headers=headers).get_json()["code"] == 0
    with app.app_context():
        entries = db.session.scalars(select(OperationLog).order_by(OperationLog.seq)).all()
        names = db.session.scalars(select(Organization.name)).all()
    assert names == ["Kept and renamed"]
    assert len(entries) == 2  # the view committed twice: an entry each
    assert "'name': 'Kept'" in str(entries[0].after) and "'name': 'Kept and renamed'" in str(entries[1].after)
    assert all("Skipped row" not in str(e.after) for e in entries)
