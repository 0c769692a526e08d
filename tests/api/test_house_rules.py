"""One owner per side effect, thin jobs (issue 17): periodic jobs are all scheduled, the outbox has
one writer, notify knows no area, report modules import one way, pages load their details at once;
plus the expiry notices and the honest delivery status."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import event, select

import api
from api.alarm.models import Alarm, AlarmKind, AlarmStatus
from api.device.expiry import REMINDER_DAYS, due_reminder, send_expiry_notices
from api.device.models import Device
from api.extensions.db import db, utcnow
from api.hooks import periodic_jobs
from api.identity.models import Account
from api.notify.delivery import deliver
from api.notify.models import Channel, DeliveryStatus, OutboundMessage
from api.notify.services import add_message
from api.settings import ROOT
from api.tenancy import find_platform
from tests.api import device_helpers
from tests.api.alarm.helpers import ALARM
from tests.api.device_helpers import add

guids, owner = device_helpers.guids, device_helpers.owner
API = ROOT / "api"


def job_modules():
    for info in pkgutil.walk_packages(api.__path__, "api."):
        if info.name.endswith(".jobs") and info.name != "api.jobs":
            yield importlib.import_module(info.name)


def test_every_periodic_job_is_declared_in_the_schedule():
    """A job that takes no ids is periodic: it must be a row of periodic_jobs() (else it never runs, as
    the partition upkeep did not)."""
    declared = {periodic.func for periodic in periodic_jobs()}
    periodic = set()
    for module in job_modules():
        for name, func in vars(module).items():
            if getattr(func, "queue_name", None) is None or func.__module__ != module.__name__:
                continue
            required = [p for p in inspect.signature(func).parameters.values() if p.default is inspect.Parameter.empty]
            if not required:
                periodic.add(f"{module.__name__}.{name}")
    assert "api.telemetry.jobs.ensure_upcoming_partitions" in periodic
    assert "api.device.jobs.send_expiry_notices" in periodic
    assert periodic - declared == set()


def imports_of(path: Path) -> set[str]:
    """Every module a file imports, at the top or inside functions; not the names imported only for
    annotations (under `if TYPE_CHECKING:`), which never run: the split PDF modules name the Report
    they draw on that way."""
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            node.body = []
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found


@pytest.mark.xdist_group("source_tree")  # reads every module, as tests/api/test_layers.py plants one
def test_only_the_outbox_function_writes_the_outbox_and_notify_imports_no_area():
    writers = []
    for path in API.rglob("*.py"):
        if "migrations" in path.parts:
            continue
        source = path.read_text()
        source = source.replace("class OutboundMessage(", "")
        if any(s in source for s in ("OutboundMessage(", "OutboundMessage.__table__", "insert(OutboundMessage")):
            writers.append(path.relative_to(ROOT).as_posix())
    assert writers == ["api/notify/services.py"]
    for path in (API / "notify").glob("*.py"):
        areas = {name for name in imports_of(path) if name.startswith("api.") and name.split(".")[1] == "alarm"}
        assert not areas, f"{path.name} imports {areas}"


def test_report_modules_import_one_way():
    """jobs -> generate -> services (never back), counting function-level imports."""
    graph = {
        path.stem: {
            name.split(".")[2]
            for name in imports_of(path)
            if name.startswith("api.report.") and len(name.split(".")) > 2
        }
        for path in (API / "report").glob("*.py")
    }

    def reaches(start: str, target: str, seen=()) -> bool:
        return any(n == target or (n not in seen and reaches(n, target, (*seen, n))) for n in graph.get(start, ()))

    for module in graph:
        assert not reaches(module, module), f"api.report.{module} imports itself through a cycle"
    assert "jobs" not in graph["services"] and "jobs" not in graph["generate"]


def test_an_alarm_page_costs_the_same_queries_for_one_row_or_many(app, client, owner, guids):
    device_id = add(client, owner, guids["th_a"][0])

    def alarms(n: int) -> None:
        with app.app_context():
            device = db.session.get(Device, device_id)
            now = utcnow()
            for i in range(n):
                db.session.add(
                    Alarm(
                        platform_id=device.platform_id,
                        owner_account_id=device.owner_account_id,
                        device_id=device_id,
                        kind=AlarmKind.UPPER,
                        sensor=1,
                        status=AlarmStatus.CLOSED,
                        breach_started_at=now - timedelta(hours=i + 1),
                        opened_at=now - timedelta(hours=i + 1),
                        closed_at=now - timedelta(hours=i),
                        last_seen_at=now - timedelta(hours=i),
                        processed_by=device.owner_account_id,
                    )
                )
            db.session.commit()

    def statements() -> int:
        count = 0

        def tick(*_args, **_kwargs):
            nonlocal count
            count += 1

        with app.app_context():
            engine = db.engine
        event.listen(engine, "before_cursor_execute", tick)
        try:
            body = client.post(
                f"{ALARM}/Alarm/page", json={"deviceId": device_id, "start": 1, "pageSize": 20}, headers=owner
            ).get_json()
        finally:
            event.remove(engine, "before_cursor_execute", tick)
        assert body["code"] == 0, body
        assert all(row["processedBy"] for row in body["data"]["list"])
        return count

    alarms(1)
    one = statements()
    alarms(9)
    assert statements() == one


@pytest.mark.parametrize(
    ("left", "due"),
    [(timedelta(days=40), None), (timedelta(days=29), 30), (timedelta(days=6), 7), (timedelta(hours=3), 1)],
)
def test_the_due_reminder(left, due):
    now = utcnow()
    assert due_reminder(now + left, now) == due
    assert REMINDER_DAYS == (30, 7, 1)


def test_expiry_notices_are_sent_once_per_reminder(app, client, owner, guids):
    device_id = add(client, owner, guids["th_a"][0], name="Fridge")
    with app.app_context():
        device = db.session.get(Device, device_id)
        db.session.get(Account, device.owner_account_id).email = "owner@example.com"
        now = utcnow()
        device.service_expires_at = now + timedelta(days=6)
        db.session.commit()
        first = send_expiry_notices(now)
        again = send_expiry_notices(now + timedelta(hours=1))  # the next run: nothing twice
        later = send_expiry_notices(now + timedelta(days=5, hours=12))  # one day left
        rows = db.session.scalars(select(OutboundMessage).order_by(OutboundMessage.id)).all()
    assert first == 1 and again == 0 and later == 1
    assert {row.dedupe_key.split(":")[-2] for row in rows} == {"D7", "D1"}
    assert all("Fridge" in row.body for row in rows)


def test_a_run_over_sites_of_two_languages_writes_each_reminder_in_its_own(app, client, owner, guids):
    """The texts are made language by language (api/device/expiry.py); each reminder keeps its
    platform's language and the messages are written in device order, languages interleaved."""
    ids = [add(client, owner, guids[name][0], name=name) for name in ("th_a", "th_b", "cold_room")]
    with app.app_context():
        english, chinese = (find_platform(host) for host in ("localhost", "junjia.localhost"))
        english.default_locale, chinese.default_locale = "en-US", "zh-CN"
        now = utcnow()
        for device_id in ids:
            device = db.session.get(Device, device_id)
            device.service_expires_at = now + timedelta(days=6)
        db.session.get(Device, ids[1]).platform_id = chinese.id
        db.session.get(Account, db.session.get(Device, ids[0]).owner_account_id).email = "owner@example.com"
        db.session.commit()
        assert send_expiry_notices(now) == 3
        rows = db.session.scalars(select(OutboundMessage).order_by(OutboundMessage.id)).all()
        assert [row.dedupe_key.split(":")[1] for row in rows] == [str(device_id) for device_id in ids]
        assert [row.lang for row in rows] == ["en-US", "zh-CN", "en-US"]
        assert rows[0].body.startswith("The service of th_a") and rows[2].body.startswith("The service of cold_room")
        assert rows[1].body.startswith("th_b（") and "到期" in rows[1].subject


def test_a_message_only_logged_is_not_reported_as_sent(app):
    with app.app_context():
        assert not app.config["SMTP_HOST"]
        from api.tenancy import find_platform

        message_id = add_message(
            find_platform("localhost").id, Channel.EMAIL, "ann@example.com", "hello", dispatch=False
        )
        db.session.commit()
        assert deliver(message_id) == "logged"
        row = db.session.get(OutboundMessage, message_id)
        assert row.status == DeliveryStatus.LOGGED and row.provider_ref is None
        # A second add with the same key writes nothing.
        assert add_message(row.platform_id, Channel.EMAIL, "x@example.com", "x", dedupe_key="k1", dispatch=False)
        assert (
            add_message(row.platform_id, Channel.EMAIL, "x@example.com", "x", dedupe_key="k1", dispatch=False) is None
        )
        db.session.rollback()


# ---- the house's floors: module size, names, one way to declare a route (issue 46) ----------------------

MAX_MODULE_LINES = 450


def oversized_or_overflow(root: Path) -> list[str]:
    """Modules over MAX_MODULE_LINES lines, and modules (or packages) named `*_extra`: a module
    outgrown is split by responsibility, never by overflow."""
    found = []
    for path in sorted(root.rglob("*.py")):
        name = path.relative_to(root.parent).as_posix()
        lines = len(path.read_text().splitlines())
        if lines > MAX_MODULE_LINES:
            found.append(f"{name}: {lines} lines")
        if any(part.removesuffix(".py").endswith("_extra") for part in path.relative_to(root).parts):
            found.append(f"{name}: an _extra module")
    return found


def dynamic_views(root: Path) -> list[str]:
    """Modules that build MethodView classes with type(): only register_crud may (api/extensions/crud.py)."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "type"
                and len(node.args) == 3
                and "MethodView" in ast.unparse(node.args[1])
            ):
                found.append(path.relative_to(root.parent).as_posix())
    return found


@pytest.mark.xdist_group("source_tree")
def test_no_module_is_over_450_lines_or_named_extra():
    assert oversized_or_overflow(API) == []


@pytest.mark.xdist_group("source_tree")
def test_only_register_crud_builds_views():
    """One way to declare a route: a hand-written MethodView with its need, or register_crud for the
    calls of a kind (its five and its Actions); no area keeps a view factory of its own."""
    assert dynamic_views(API) == ["api/extensions/crud.py"]


def test_the_house_rules_catch_what_they_guard(tmp_path):
    """The checks above can fail: a long module, an _extra module and an area's own view factory."""
    area = tmp_path / "api" / "area"
    area.mkdir(parents=True)
    (area / "services.py").write_text("x = 1\n" * (MAX_MODULE_LINES + 1))
    (area / "routes_extra.py").write_text("x = 1\n")
    (area / "short.py").write_text("x = 1\n" * MAX_MODULE_LINES)
    (area / "routes.py").write_text("from flask.views import MethodView\nView = type('View', (MethodView,), {})\n")
    assert oversized_or_overflow(tmp_path / "api") == [
        "api/area/routes_extra.py: an _extra module",
        f"api/area/services.py: {MAX_MODULE_LINES + 1} lines",
    ]
    assert dynamic_views(tmp_path / "api") == ["api/area/routes.py"]
