"""Fixed demo facts (`flask seed-demo`): tenants, accounts, a small fleet and 30 days of history.
Everything here is idempotent: running it again tops the history up to now."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import select, update

from api.account.demo import seed_social_sign_in
from api.account.services import ensure_account
from api.alarm.demo import seed_alarms, seed_limits
from api.asset.demo import seed_projects_and_assets
from api.billing.demo import seed_billing
from api.calibration.demo import seed_calibration
from api.datainterface.demo import seed_connector
from api.device.catalogue import sync_catalogue
from api.device.credentials import device_secret
from api.device.models import Device, DeviceState, GuidBatch
from api.device.services import claim, issue_guids
from api.extensions.db import db, utcnow
from api.fda.demo import seed_fda
from api.help.demo import seed_help
from api.identity.models import Account, AccountType, StaffRole
from api.organization.demo import seed_organizations
from api.platform.services import sync_tenants
from api.product.demo import seed_product
from api.storage.controller import ColdRoomController
from api.storage.demo import seed_storages
from api.telemetry.ingest import ingest, replaying
from api.telemetry.models import Reading
from api.telemetry.simulator import Profile, SimulatedDevice, readings, timeline
from api.waybill.demo import seed_waybills

DEMO_PASSWORD = "Cold#2026"
DEMO_ACCOUNTS = (
    # (tenant slug, user name, account type, staff role, profile)
    (
        "default",
        "demouser",
        AccountType.ENTERPRISE,
        None,
        {"real_name": "Demo User", "company_name": "Demo Cold Chain Co.", "email": "demouser@example.com"},
    ),
    (
        "default",
        "operator",
        AccountType.ENTERPRISE,
        StaffRole.OPERATOR,
        {"real_name": "Platform Operator", "company_name": "ColdTrace Cloud", "email": "operator@example.com"},
    ),
    (
        "junjia",
        "reseller",
        AccountType.ENTERPRISE,
        StaffRole.PLATFORM_ADMIN,
        {"real_name": "Junjia Admin", "company_name": "Junjia Cold Chain", "email": "reseller@example.com"},
    ),
)


@dataclass(frozen=True)
class DemoDevice:
    tenant: str
    owner: str
    type_code: int
    name: str
    profile: Profile
    interval_s: int


# Devices whose owner turned quick search on, so the public quick query has something to show.
DEMO_QUICK_SEARCH = frozenset({"Vaccine Fridge", "Cold Room 1"})
DEMO_FLEET = (
    DemoDevice("default", "demouser", 0x8002, "Pharmacy Fridge", Profile("fridge_rh", 5.0), 300),
    DemoDevice("default", "demouser", 0x8001, "Vaccine Fridge", Profile("fridge", 4.5), 300),
    DemoDevice("default", "demouser", 0x8003, "Cold Room 1", Profile("cold_room", -18.0), 300),
    DemoDevice("default", "demouser", 0x8005, "Lab Freezer -80", Profile("freezer", -80.0), 300),
    DemoDevice("default", "demouser", 0x8004, "Truck SH-HZ", Profile("truck", 4.0), 300),
    DemoDevice("default", "demouser", 0x8004, "Tracker SH-NJ", Profile("tracker", 5.0), 300),
    DemoDevice("junjia", "reseller", 0x8002, "Store Fridge 1", Profile("fridge_rh", 4.0), 300),
    DemoDevice("junjia", "reseller", 0x8003, "Central Room", Profile("cold_room", -20.0), 300),
)
BACKFILL = timedelta(days=30)
BATCH = 2000


def seed(backfill: timedelta = BACKFILL) -> list[tuple[str, str]]:
    """Tenants, accounts, catalogue, fleet and history; returns the demo logins."""
    platforms = {p.slug: p for p in sync_tenants()}
    accounts = {}
    for slug, user_name, account_type, staff_role, profile in DEMO_ACCOUNTS:
        accounts[(slug, user_name)] = ensure_account(
            platforms[slug], user_name, DEMO_PASSWORD, account_type=account_type, staff_role=staff_role, **profile
        )
    types = sync_catalogue()
    db.session.commit()
    seed_help(platforms)
    devices = []
    for device, demo in fleet_devices(platforms, accounts, types):
        seed_limits(device)
        backfill_history(device, demo, backfill)
        devices.append(device)

    seed_alarms(devices, {account.id: account.email for account in accounts.values()})
    seed_storages(accounts, devices)
    seed_product(devices)
    tracker = next(d for d in devices if d.name == "Tracker SH-NJ")
    seed_waybills(accounts[("default", "demouser")], tracker)
    seed_fda(accounts[("default", "demouser")], next(d for d in devices if d.name == "Vaccine Fridge"))
    seed_connector(accounts[("default", "demouser")])
    seed_projects_and_assets(accounts[("default", "demouser")], devices)
    seed_billing(platforms["default"], accounts[("default", "demouser")], types, devices)
    lab = seed_calibration(
        platforms["default"],
        accounts[("default", "demouser")],
        next(d for d in devices if d.name == "Vaccine Fridge"),
        DEMO_PASSWORD,
    )
    seed_social_sign_in(platforms["default"])
    logins = [(user_name, DEMO_PASSWORD) for _slug, user_name, *_ in DEMO_ACCOUNTS]
    return logins + seed_organizations(platforms["default"], accounts[("default", "demouser")], DEMO_PASSWORD) + lab


def fleet_devices(platforms, accounts, types):
    """The demo devices, issued and claimed once (found by owner and name afterwards)."""
    for demo in DEMO_FLEET:
        owner: Account = accounts[(demo.tenant, demo.owner)]
        device = db.session.scalar(
            select(Device).where(
                Device.owner_account_id == owner.id, Device.name == demo.name, Device.deleted.is_(False)
            )
        )
        if device is None:
            [(guid, _key)] = issue_guids(platforms[demo.tenant], types[demo.type_code], 1, "DEMO", "demo")
            device = db.session.scalar(select(Device).where(Device.guid == guid))
            # The demo's loggers were issued a year ago: their back-filled history is not refused.
            device.created_at = utcnow() - timedelta(days=365)
            claim(device, owner.id, demo.name, "Asia/Shanghai")
        device.quick_search = demo.name in DEMO_QUICK_SEARCH
        device.interval_s = demo.interval_s
        db.session.commit()
        yield device, demo


def backfill_history(device: Device, demo: DemoDevice, span: timedelta) -> int:
    """Readings from the last stored one (or `span` ago) up to now, through the ingestion service as
    the simulated logger sent them live: the alarms judge each as of its own time (`replaying`) and
    each is received at its own time, so the demo's history is not marked back-filled and its alarm
    list agrees with its reports."""
    now = utcnow()
    state = db.session.get(DeviceState, device.id)
    start = max(now - span, state.last_data_at + timedelta(seconds=1)) if state and state.last_data_at else now - span
    records = [readings(device.guid, demo.profile, ts) for ts in timeline(start, now, device.interval_s)]
    with replaying():
        for first in range(0, len(records), BATCH):
            ingest(device, records[first : first + BATCH])
    db.session.execute(
        update(Reading).where(Reading.device_id == device.id, Reading.ts >= start).values(received_at=Reading.ts)
    )
    db.session.commit()
    return len(records)


# The demo device whose simulated firmware upgrades fail (`flask simulate`; the others succeed).
FAILING_UPGRADE = "Store Fridge 1"


def failing_upgrade_guids() -> set[str]:
    demo_batches = select(GuidBatch.id).where(GuidBatch.order_code == "DEMO")
    return set(
        db.session.scalars(select(Device.guid).where(Device.batch_id.in_(demo_batches), Device.name == FAILING_UPGRADE))
    )


def simulated_fleet() -> list[SimulatedDevice]:
    """The demo devices as the simulator drives them, resuming after their last stored data."""
    by_name = {demo.name: demo for demo in DEMO_FLEET}
    demo_batches = select(GuidBatch.id).where(GuidBatch.order_code == "DEMO")
    rows = db.session.execute(
        select(Device, DeviceState.last_data_at)
        .outerjoin(DeviceState, DeviceState.device_id == Device.id)
        .where(Device.batch_id.in_(demo_batches), Device.deleted.is_(False))
    ).all()
    now = utcnow()
    return [
        SimulatedDevice(
            device.guid,
            device_secret(device.guid, device.credential_version),
            by_name[device.name].profile,
            device.interval_s,
            last or now - timedelta(minutes=10),
            # cold rooms run as live controllers (duty cycles, defrosts, doors, cloud-control commands)
            model=ColdRoomController(device.guid, setpoint=by_name[device.name].profile.setpoint)
            if by_name[device.name].profile.kind == "cold_room"
            else None,
        )
        for device, last in rows
        if device.name in by_name
    ]
