"""Demo storages of `flask seed-demo` (idempotent, found by owner, kind and name): for demouser a
cold storage on "Cold Room 1", a freezer on "Lab Freezer -80" and a virtual storage built from the
two fridges and the room's middle probe; for reseller a storage on the junjia site's "Central Room"."""

from __future__ import annotations

from sqlalchemy import select

from api.device.models import Device
from api.extensions.db import db
from api.storage.models import ColdStorage, StorageKind, StorageProbe, Zone
from api.storage.services import CONTROLLER_ZONES

# (tenant, owner, kind, name, controller device name, extra fields, probes [(device name, sensor, zone)])
DEMO_STORAGES = (
    (
        "default",
        "demouser",
        StorageKind.STORAGE,
        "Cold Storage A",
        "Cold Room 1",
        {
            "volume": "120 m³",
            "area": "40 m²",
            "compressor": "Bitzer 4FES-5Y",
            "air_cooler": "Güntner GACC RX",
            "electric_box": "Dixell XR60CX",
            "address": "Pudong, Shanghai",
            "lat": 31.2213,
            "lng": 121.5447,
            "mkt_enabled": True,
            "mkt_window_hours": 24,
            "mkt_limit": -15.0,
        },
        None,
    ),
    (
        "default",
        "demouser",
        StorageKind.FREEZER,
        "Lab Freezer",
        "Lab Freezer -80",
        {"brand": "Haier Biomedical", "model": "DW-86L628"},
        None,
    ),
    (
        "default",
        "demouser",
        StorageKind.VIRTUAL,
        "Pharmacy Warehouse",
        None,
        {},
        [("Pharmacy Fridge", 1, Zone.DOOR), ("Vaccine Fridge", 1, Zone.MIDDLE), ("Cold Room 1", 2, Zone.MIDDLE)],
    ),
    (
        "junjia",
        "reseller",
        StorageKind.STORAGE,
        "Junjia Central Storage",
        "Central Room",
        {"volume": "300 m³", "area": "90 m²", "address": "Hangzhou"},
        None,
    ),
)


def seed_storages(accounts: dict, devices: list[Device]) -> None:
    by_owner_name = {(d.owner_account_id, d.name): d for d in devices}
    for tenant, user_name, kind, name, controller_name, fields, probes in DEMO_STORAGES:
        owner = accounts[(tenant, user_name)]
        storage = db.session.scalar(
            select(ColdStorage).where(
                ColdStorage.owner_account_id == owner.id, ColdStorage.kind == kind, ColdStorage.name == name
            )
        )
        if storage is not None:
            continue
        storage = ColdStorage(platform_id=owner.platform_id, owner_account_id=owner.id, kind=kind, name=name, **fields)
        controller = by_owner_name.get((owner.id, controller_name)) if controller_name else None
        if controller is not None:
            storage.controller_device_id = controller.id
            sensors = [p.probe_id for p in controller.device_type.params if p.param_type == "sensor"]
            zoned = len(sensors) > 1
            probes_in = [
                (controller, s, CONTROLLER_ZONES.get(s, Zone.MIDDLE) if zoned else Zone.MIDDLE) for s in sensors
            ]
        else:
            probes_in = [
                (by_owner_name[(owner.id, d)], s, z) for d, s, z in probes or () if (owner.id, d) in by_owner_name
            ]
        storage.probes = [StorageProbe(device_id=d.id, sensor=s, zone=z) for d, s, z in probes_in]
        db.session.add(storage)
    db.session.commit()
