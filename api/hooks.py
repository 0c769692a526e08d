"""The hook catalogue: every way an area plugs into the platform, as data.

Each area declares what it brings once, in `api/<area>/manifest.py` (`MANIFEST = Manifest(...)`);
importing a manifest registers nothing. `create_app` finds the manifests and installs them
(api/assembly.py), so "what runs on ingest" or "what happens on commit" is read in one place: the
manifests, through the fields below. This module imports nothing of the api: every floor may use it.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Literal

SessionEventName = Literal[
    "before_flush", "after_flush", "do_orm_execute", "after_transaction_create", "after_soft_rollback",
    "before_commit", "after_commit", "after_rollback",
]  # fmt: skip


@dataclass(frozen=True)
class Placed:
    """A blueprint and its place in the API documentation (lower first; the order tags appear)."""

    position: int
    blueprint: Any


@dataclass(frozen=True)
class IngestStep:
    """A handler of every uploaded batch (api/telemetry/ingest.py), run in ascending `order`, and the
    batch lookup that loads what it needs for all devices of the batch at once."""

    order: int
    on_readings: Callable[..., None]
    lookup: Any = None


@dataclass(frozen=True)
class SessionEvent:
    """A listener of SQLAlchemy's Session events: what happens on flush, commit or rollback."""

    name: SessionEventName
    listener: Callable[..., Any]


@dataclass(frozen=True)
class PeriodicJob:
    """A job run on a schedule by RQ's CronScheduler (api/jobs/schedule.py)."""

    func: str  # dotted path of a function decorated with @job
    cron: str | None = None  # crontab expression, UTC
    interval: int | None = None  # or every N seconds
    timeout: int = 600


@dataclass(frozen=True)
class Manifest:
    """What one area brings. Every field is an extension point; an empty field is "nothing here"."""

    area: str
    blueprints: tuple[Placed, ...] = ()
    # Modules whose tables Alembic and the mapper registry must see.
    models: tuple[ModuleType, ...] = ()
    # Installers of the area's reach rules, object kinds and member keys into api/access.
    access_rules: tuple[Callable[[], None], ...] = ()
    ingest_steps: tuple[IngestStep, ...] = ()
    session_events: tuple[SessionEvent, ...] = ()
    # What billing's paid orders settle (api/billing/settlements.py).
    settlements: tuple[Callable[[], None], ...] = ()
    # Who may keep a session, and for how long (api/identity/sessions.py).
    session_policies: tuple[Callable[[], None], ...] = ()
    # The outbox (api/notify/delivery.py): a secret_ref prefix -> its secret; hooks of a failed row.
    secret_resolvers: Mapping[str, Callable[[str], str | None]] = field(default_factory=dict)
    delivery_failures: tuple[Callable[[Any], None], ...] = ()
    # Where a platform's own message providers are found (api/notify/delivery.py).
    message_providers: tuple[Callable[..., dict | None], ...] = ()
    # What a newly registered account is given, and the parts of accountInfo an area answers
    # (api/account/services.py).
    account_welcomes: tuple[Callable[[Any], None], ...] = ()
    account_info: Mapping[str, Callable[[int], Any]] = field(default_factory=dict)
    # Listeners of a device's command acknowledgements, and the guards that may refuse a device's
    # deletion (api/device/services.py).
    command_listeners: tuple[Callable[..., None], ...] = ()
    delete_guards: tuple[Callable[[Any], None], ...] = ()
    # Who else an alarm tells for a while, beyond its device's push setting (api/alarm/guests.py).
    alarm_guests: tuple[Any, ...] = ()
    # Who "the person on call" of a push-setting level is (api/alarm/recipients.py).
    alarm_on_call: tuple[Any, ...] = ()
    # Handlers of a device disabled or scrapped, in its transaction (api/device/hooks.py).
    device_retirements: tuple[Callable[[int, str], None], ...] = ()
    # Where an alarm's probe is (room, zone, name) and what holds a limit alarm back (defrost, door):
    # api/alarm/places.py and api/alarm/holds.py.
    alarm_places: tuple[Callable[..., Any], ...] = ()
    alarm_holds: tuple[Callable[..., Any], ...] = ()
    # Each probe's calibration certificates, for the overdue marks of charts, exports and reports
    # (api/telemetry/calibration.py).
    probe_calibrations: tuple[Callable[..., Any], ...] = ()
    # Guards that may withhold an outbox row when it is due (api/notify/delivery.py).
    send_guards: tuple[Callable[[Any], str | None], ...] = ()
    # The audit trail's event writer and FDA mode's test of an account (api/extensions/trail.py).
    trail_recorders: tuple[Callable[..., None], ...] = ()
    gxp_modes: tuple[Callable[[int], bool], ...] = ()
    # Handlers of the provider's SMS replies and key presses (api/notify/inbound.py).
    provider_inbound: tuple[Callable[[dict, Any], str | None], ...] = ()
    # Handlers of an asset's devices switched off or on (api/asset/hooks.py).
    asset_switches: tuple[Callable[[list[int], bool], None], ...] = ()
    # The kinds of file the download centre makes (api/report/kinds.ReportKind).
    report_kinds: tuple[Any, ...] = ()
    periodic_jobs: tuple[PeriodicJob, ...] = ()
    # Any other installer, of a registry inside the area itself.
    installers: tuple[Callable[[], None], ...] = ()


API_ROOT = Path(__file__).resolve().parent


def manifests() -> tuple[Manifest, ...]:
    """Every `api/<package>/manifest.py`'s MANIFEST, by package name. Found, not listed: a new area
    adds its manifest and nothing else. Imported by name at run time, so this catalogue stays at the
    bottom of the house: only the app factory and the scheduler, at the top, ask for them."""
    found = []
    for package in sorted(p.name for p in pkgutil.iter_modules([str(API_ROOT)]) if p.ispkg):
        if (API_ROOT / package / "manifest.py").is_file():
            found.append(importlib.import_module(f"api.{package}.manifest").MANIFEST)
    return tuple(found)


def periodic_jobs() -> tuple[PeriodicJob, ...]:
    return tuple(job for manifest in manifests() for job in manifest.periodic_jobs)
