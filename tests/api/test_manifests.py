"""The areas plug in through their manifests only (api/hooks.py): create_app registers exactly what
the manifests declare, in their declared order, and importing the manifests registers nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from sqlalchemy import event
from sqlalchemy.orm import Session

from api.alarm import guests, holds, places, recipients
from api.assembly import blueprints_in_order, ingest_steps_in_order
from api.asset import hooks as asset_hooks
from api.device import hooks as device_hooks
from api.device import services as device_services
from api.extensions.db import db
from api.hooks import manifests, periodic_jobs
from api.notify import delivery
from api.report.kinds import REPORT_KINDS
from api.telemetry import calibration as probe_calibration
from api.telemetry import ingest

ROOT = Path(__file__).resolve().parents[2]
FRAMEWORK_BLUEPRINTS = {"api-docs", "docs_assets"}  # flask-smorest's documentation, not an area's


def test_every_area_package_with_a_manifest_is_found_once():
    declared = manifests()
    names = [m.area for m in declared]
    assert len(names) == len(set(names))
    on_disk = sorted(p.parent.name for p in (ROOT / "api").glob("*/manifest.py"))
    assert sorted(names) == on_disk


def test_create_app_registers_exactly_the_declared_blueprints_in_their_order(app):
    declared = blueprints_in_order(manifests())
    registered = [name for name in app.blueprints if name not in FRAMEWORK_BLUEPRINTS]
    assert registered == [blueprint.name for blueprint in declared]
    positions = [p.position for m in manifests() for p in m.blueprints]
    assert len(positions) == len(set(positions)), "two blueprints claim one place in the documentation"


def test_create_app_installs_exactly_the_declared_hooks(app):
    declared = manifests()
    steps = ingest_steps_in_order(declared)
    assert [step.on_readings for step in steps] == ingest.READING_HANDLERS
    assert [step.lookup for step in steps if step.lookup is not None] == ingest.BATCH_LOOKUPS
    # A room's defrost or open door holds, and the waybill arms, before the alarms of the same batch are
    # evaluated (explicit order, not insert(0)); the budgets read their lookup before the waybill step
    # forgets it.
    assert [step.on_readings.__module__ for step in steps] == [
        "api.storage.holds",
        "api.budget.ingest",
        "api.waybill.services",
        "api.alarm.evaluation",
    ]
    assert [hook for m in declared for hook in m.delivery_failures] == delivery.FAILURE_HOOKS
    assert {k: v for m in declared for k, v in m.secret_resolvers.items()} == delivery.SECRET_RESOLVERS
    assert [fn for m in declared for fn in m.command_listeners] == device_services.COMMAND_LISTENERS
    assert [fn for m in declared for fn in m.delete_guards] == device_services.DELETE_GUARDS
    assert [fn for m in declared for fn in m.asset_switches] == asset_hooks.SWITCH_HANDLERS
    assert [fn for m in declared for fn in m.device_retirements] == device_hooks.RETIRE_HANDLERS
    assert [fn for m in declared for fn in m.alarm_places] == places.PLACE_FINDERS
    assert [fn for m in declared for fn in m.alarm_holds] == holds.HOLD_FINDERS
    assert [fn for m in declared for fn in m.probe_calibrations] == probe_calibration.CALIBRATION_FINDERS
    assert [fn for m in declared for fn in m.send_guards] == delivery.SEND_GUARDS
    assert [source for m in declared for source in m.alarm_guests] == guests.GUEST_SOURCES
    assert [source for m in declared for source in m.alarm_on_call] == recipients.ON_CALL_SOURCES
    kinds = [kind for m in declared for kind in m.report_kinds]
    assert all(REPORT_KINDS[kind.key] is kind for kind in kinds)
    assert set(REPORT_KINDS) == {kind.key for kind in kinds}
    for manifest in declared:
        for session_event in manifest.session_events:
            assert event.contains(Session, session_event.name, session_event.listener), session_event


def test_every_table_belongs_to_a_declared_models_module(app):
    declared_modules = {module.__name__ for m in manifests() for module in m.models}
    owners = {mapper.class_.__module__ for mapper in db.Model.registry.mappers}
    assert owners <= declared_modules, owners - declared_modules


def test_a_second_app_does_not_install_the_hooks_twice(app):
    from api import create_app
    from api.settings import TestConfig

    before = (list(ingest.READING_HANDLERS), list(delivery.FAILURE_HOOKS), list(device_services.COMMAND_LISTENERS))
    create_app(TestConfig)
    after = (list(ingest.READING_HANDLERS), list(delivery.FAILURE_HOOKS), list(device_services.COMMAND_LISTENERS))
    assert after == before


def test_the_periodic_jobs_are_the_manifests_rows():
    jobs = periodic_jobs()
    assert [job.func for job in jobs] == [job.func for m in manifests() for job in m.periodic_jobs]
    assert len({job.func for job in jobs}) == len(jobs)
    for job in jobs:  # each row names a job of the area that declares it
        assert job.func.startswith("api.")


IMPORT_ONLY = """
from api.hooks import manifests
from api.access import gate, reach
from api.alarm import guests, holds, places, recipients
from api.asset import hooks as asset_hooks
from api.device import hooks as device_hooks
from api.device import hooks as device_hooks
from api.device import services as device_services
from api.notify import delivery
from api.report.kinds import REPORT_KINDS
from api.telemetry import ingest
from api.telemetry.calibration import CALIBRATION_FINDERS
from sqlalchemy import event
from sqlalchemy.orm import Session

declared = manifests()
assert declared
leftovers = {
    "ingest": ingest.READING_HANDLERS + ingest.BATCH_LOOKUPS,
    "outbox": delivery.FAILURE_HOOKS + list(delivery.SECRET_RESOLVERS),
    "commands": device_services.COMMAND_LISTENERS + device_services.DELETE_GUARDS,
    "assets": asset_hooks.SWITCH_HANDLERS,
    "devices retired": device_hooks.RETIRE_HANDLERS,
    "alarm places, holds and guests": places.PLACE_FINDERS + holds.HOLD_FINDERS + guests.GUEST_SOURCES,
    "alarm on call": recipients.ON_CALL_SOURCES,
    "send guards": delivery.SEND_GUARDS,
    "probe calibrations": CALIBRATION_FINDERS,
    "report kinds": list(REPORT_KINDS),
    "object kinds": list(gate.KINDS),
    "reach": reach._rules,
    "session events": [
        e.name for m in declared for e in m.session_events if event.contains(Session, e.name, e.listener)
    ],
}
print({name: found for name, found in leftovers.items() if found})
"""


def test_importing_the_manifests_registers_nothing():
    result = subprocess.run(
        [sys.executable, "-c", IMPORT_ONLY], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "{}"
