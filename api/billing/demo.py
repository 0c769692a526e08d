"""Demo billing facts of `flask seed-demo`: the default site's service package for every model
(Basic and Pro levels, one and two years, free service), SMS and voice packs, a public activity, and
one paid order of demouser. Idempotent: found by package code and order description afterwards."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from api.billing import orders
from api.billing.models import Activity, MessagePack, Order, OrderDevice, PackKind, PayType, ServicePackage
from api.device.models import Device, DeviceType
from api.extensions.db import db, utcnow
from api.identity.models import Account
from api.platform.models import Platform

DEMO_PACKAGE_CODE = "10000001"
DEMO_ORDER = "demo: first year renewal"


def _levels() -> list[dict]:
    return [
        {
            "levelId": 1,
            "levelName": "Basic",
            "serviceItems": ["Data upload", "Alarm SMS", "Reports"],
            "prices": [
                {"months": 12, "serviceFee": 19900, "dataFee": 2100, "discount": 0, "recommended": True},
                {"months": 24, "serviceFee": 39800, "dataFee": 4200, "discount": 10, "recommended": False},
            ],
            "free": {"timeLength": 30, "smsCount": 10, "voiceCount": 2},
        },
        {
            "levelId": 2,
            "levelName": "Pro",
            "serviceItems": ["Data upload", "Alarm SMS and voice", "Reports", "API access"],
            "prices": [
                {"months": 12, "serviceFee": 39900, "dataFee": 2100, "discount": 0, "recommended": False},
                {"months": 36, "serviceFee": 119700, "dataFee": 6300, "discount": 20, "recommended": True},
            ],
            "free": None,
        },
    ]


def seed_billing(platform: Platform, owner: Account, types: dict[int, DeviceType], devices: list[Device]) -> None:
    now = utcnow()
    package = db.session.scalar(
        select(ServicePackage).where(
            ServicePackage.platform_id == platform.id, ServicePackage.package_code == DEMO_PACKAGE_CODE
        )
    )
    if package is None:
        package = ServicePackage(
            platform_id=platform.id,
            package_name="Standard service",
            package_code=DEMO_PACKAGE_CODE,
            enabled=True,
            enable_time=now,
            currency="CNY",
            device_type_ids=sorted(t.id for t in types.values()),
            levels=_levels(),
        )
        db.session.add(package)
        packs = [
            (PackKind.SMS, "SMS 100", 100, 1000, 0),
            (PackKind.SMS, "SMS 500", 500, 4500, 10),
            (PackKind.VOICE, "Voice 50", 50, 2500, 0),
        ]
        for kind, name, count, fee, discount in packs:
            db.session.add(
                MessagePack(platform_id=platform.id, kind=kind, name=name, count=count, fee=fee, discount=discount)
            )
        db.session.flush()
        db.session.add(
            Activity(
                platform_id=platform.id,
                package_id=package.id,
                name="Spring renewal",
                starts_at=now - timedelta(days=1),
                ends_at=now + timedelta(days=60),
                discount=10,
            )
        )
    done = db.session.scalar(select(Order.id).where(Order.description == DEMO_ORDER))
    fridge = next((d for d in devices if d.name == "Pharmacy Fridge"), None)
    if done is None and fridge is not None:
        order = Order(
            platform_id=platform.id,
            owner_account_id=owner.id,
            order_code=orders.new_order_code(now),
            package_id=package.id,
            package_name=package.package_name,
            level_id=1,
            level_name="Basic",
            months=12,
            currency="CNY",
            order_fee=22000,
            pay_fee=22000,
            sms_count=0,
            voice_count=0,
            lines=[{"item": "service", "months": 12, "unit": 22000, "unitDue": 22000, "qty": 1}],
            description=DEMO_ORDER,
            devices=[OrderDevice(device_id=fridge.id, guid=fridge.guid, expires_before=fridge.service_expires_at)],
        )
        db.session.add(order)
        db.session.flush()
        orders.settle(order, PayType.OFFLINE, "DEMO-BANK-0001", now)
    db.session.commit()
