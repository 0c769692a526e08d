"""Installs what the areas' manifests declare (api/hooks.py): the one place that knows every
extension point's registry. Only the app factory (api/__init__.py) calls it."""

from __future__ import annotations

from flask_smorest import Api
from sqlalchemy import event
from sqlalchemy.orm import Session

from api.account import services as account_services
from api.alarm import guests, holds, places, recipients
from api.asset import hooks as asset_hooks
from api.device import hooks as device_hooks
from api.device import services as device_services
from api.extensions import trail
from api.hooks import Manifest
from api.notify import delivery, inbound
from api.report import kinds
from api.telemetry import calibration as probe_calibration
from api.telemetry import ingest


def blueprints_in_order(declared: tuple[Manifest, ...]) -> list:
    placed = sorted((p for m in declared for p in m.blueprints), key=lambda p: p.position)
    return [p.blueprint for p in placed]


def ingest_steps_in_order(declared: tuple[Manifest, ...]) -> list:
    return sorted((step for m in declared for step in m.ingest_steps), key=lambda step: step.order)


def _listen_once(target, name: str, listener) -> None:
    # create_app runs many times in one test process: a listener is installed once.
    if not event.contains(target, name, listener):
        event.listen(target, name, listener)


def _set_registry(registry: list, items: list) -> None:
    """The registry holds what the manifests declare, in their order, and no more: tests build
    several apps in one process."""
    registry[:] = items


def install_hooks(declared: tuple[Manifest, ...]) -> None:
    """Everything but the blueprints and the access rules."""
    steps = ingest_steps_in_order(declared)
    _set_registry(ingest.READING_HANDLERS, [step.on_readings for step in steps])
    _set_registry(ingest.BATCH_LOOKUPS, [step.lookup for step in steps if step.lookup is not None])
    _set_registry(delivery.FAILURE_HOOKS, [hook for m in declared for hook in m.delivery_failures])
    delivery.SECRET_RESOLVERS.clear()
    for manifest in declared:
        delivery.SECRET_RESOLVERS.update(manifest.secret_resolvers)
    for provider in (p for m in declared for p in m.message_providers):
        delivery.register_provider_settings(provider)
    _set_registry(account_services.WELCOMES, [fn for m in declared for fn in m.account_welcomes])
    account_services.ACCOUNT_INFO_PARTS.clear()
    for manifest in declared:
        account_services.ACCOUNT_INFO_PARTS.update(manifest.account_info)
    _set_registry(device_services.COMMAND_LISTENERS, [fn for m in declared for fn in m.command_listeners])
    _set_registry(device_services.DELETE_GUARDS, [fn for m in declared for fn in m.delete_guards])
    _set_registry(device_hooks.RETIRE_HANDLERS, [fn for m in declared for fn in m.device_retirements])
    _set_registry(places.PLACE_FINDERS, [fn for m in declared for fn in m.alarm_places])
    _set_registry(holds.HOLD_FINDERS, [fn for m in declared for fn in m.alarm_holds])
    _set_registry(probe_calibration.CALIBRATION_FINDERS, [fn for m in declared for fn in m.probe_calibrations])
    _set_registry(delivery.SEND_GUARDS, [fn for m in declared for fn in m.send_guards])
    _set_registry(trail.RECORDERS, [fn for m in declared for fn in m.trail_recorders])
    _set_registry(trail.GXP_MODES, [fn for m in declared for fn in m.gxp_modes])
    _set_registry(inbound.HANDLERS, [fn for m in declared for fn in m.provider_inbound])
    _set_registry(guests.GUEST_SOURCES, [source for m in declared for source in m.alarm_guests])
    _set_registry(recipients.ON_CALL_SOURCES, [source for m in declared for source in m.alarm_on_call])
    _set_registry(asset_hooks.SWITCH_HANDLERS, [fn for m in declared for fn in m.asset_switches])
    for kind in (k for m in declared for k in m.report_kinds):
        kinds.register_kind(kind)
    # "What happens on flush and commit": the listeners in manifest order (the audit trail's
    # before_flush seal runs after the areas' history rows are added).
    for manifest in sorted(declared, key=lambda m: m.area == "audit"):
        for session_event in manifest.session_events:
            _listen_once(Session, session_event.name, session_event.listener)
    for manifest in declared:
        for installer in manifest.installers:
            installer()


def register_blueprints(api: Api, declared: tuple[Manifest, ...]) -> None:
    for blueprint in blueprints_in_order(declared):
        api.register_blueprint(blueprint)


def install_access_rules(declared: tuple[Manifest, ...]) -> None:
    """Reach rules, object kinds and member keys, then what billing settles and who keeps a session."""
    for manifest in declared:
        for installer in (*manifest.access_rules, *manifest.settlements, *manifest.session_policies):
            installer()
