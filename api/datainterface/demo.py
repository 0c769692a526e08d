"""Demo connector (`flask seed-demo`): the demo account's upload to a provincial platform, configured
and mapped but switched off (the demo has no province to talk to)."""

from __future__ import annotations

from sqlalchemy import select

from api.datainterface.models import Connector, ConnectorMapping
from api.device.models import Device
from api.extensions.db import db
from api.identity.models import Account
from api.storage.models import ColdStorage

DEMO_CODES = {"Vaccine Fridge": "ZJ330100-FRG-0001", "Pharmacy Fridge": "ZJ330100-FRG-0002"}


def seed_connector(account: Account) -> None:
    if db.session.scalar(select(Connector.id).where(Connector.owner_account_id == account.id)):
        return
    connector = Connector(
        platform_id=account.platform_id,
        owner_account_id=account.id,
        name="浙江省疫苗冷链监管平台",
        endpoint="https://coldchain.zj.example.gov.cn/api/v1/temperature/upload",
        app_id="ZJ-COLD-DEMO-0001",
        secret="demo-secret-change-me",
        interval_minutes=5,
        enabled=False,
    )
    devices = db.session.scalars(
        select(Device).where(Device.owner_account_id == account.id, Device.name.in_(DEMO_CODES))
    )
    for device in devices:
        connector.mappings.append(ConnectorMapping(device_id=device.id, equipment_code=DEMO_CODES[device.name]))
    storage = db.session.scalar(
        select(ColdStorage).where(ColdStorage.owner_account_id == account.id).order_by(ColdStorage.id).limit(1)
    )
    if storage is not None:
        connector.mappings.append(ConnectorMapping(storage_id=storage.id, equipment_code="ZJ330100-CR-0001"))
    db.session.add(connector)
    db.session.commit()
