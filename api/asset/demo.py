"""Demo projects and assets of `flask seed-demo`, so the demo account's project and asset pages (and
the console width test walking them) show data. Idempotent: found by owner and name afterwards."""

from __future__ import annotations

from sqlalchemy import select

from api.asset.models import Asset, AssetDevice
from api.device.models import Device
from api.extensions.db import db
from api.identity.models import Account
from api.project.models import Project, ProjectDevice

# (project name, names of its devices)
DEMO_PROJECTS = (
    ("Vaccine storage", ("Vaccine Fridge", "Pharmacy Fridge", "Cold Room 1")),
    ("Cold chain transport", ("Truck SH-HZ", "Tracker SH-NJ")),
)
# (asset name, type, number, brand, model, volume, remark, custom items, names of its devices)
DEMO_ASSETS = (
    (
        "Pharmacy fridge, ward 3",
        "Medical refrigerator",
        "MR-2023-014",
        "Haier",
        "HYC-610",
        "610 L",
        "Second floor, beside the dispensary",
        [{"key": "Service contract", "value": "SC-7781"}],
        ("Pharmacy Fridge", "Vaccine Fridge"),
    ),
    (
        "Ultra-low freezer, lab B",
        "Ultra-low freezer",
        "ULT-0007",
        "Thermo",
        "TSX600",
        "549 L",
        None,
        [],
        ("Lab Freezer -80",),
    ),
)


def seed_projects_and_assets(owner: Account, devices: list[Device]) -> None:
    by_name = {device.name: device for device in devices if device.owner_account_id == owner.id}
    for name, device_names in DEMO_PROJECTS:
        project = db.session.scalar(
            select(Project).where(Project.owner_account_id == owner.id, Project.project_name == name)
        )
        if project is None:
            project = Project(platform_id=owner.platform_id, owner_account_id=owner.id, project_name=name)
            db.session.add(project)
            db.session.flush()
            db.session.add_all(ProjectDevice(project_id=project.id, device_id=by_name[n].id) for n in device_names)
    for name, type_name, number, brand, model, volume, remark, custom, device_names in DEMO_ASSETS:
        asset = db.session.scalar(select(Asset).where(Asset.owner_account_id == owner.id, Asset.comb_name == name))
        if asset is None:
            asset = Asset(
                platform_id=owner.platform_id,
                owner_account_id=owner.id,
                comb_name=name,
                comb_type_name=type_name,
                comb_num=number,
                brand=brand,
                model=model,
                volume=volume,
                remark=remark,
                custom=custom,
            )
            db.session.add(asset)
            db.session.flush()
            db.session.add_all(AssetDevice(asset_id=asset.id, device_id=by_name[n].id) for n in device_names)
    db.session.commit()
