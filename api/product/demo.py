"""Demo facts of the back-office (`flask seed-demo`): model codes of the catalogue's types, a new
type still in testing with its parameter, and SIM cards (two bound to demo loggers). Idempotent:
found by type code, model code and ICCID afterwards."""

from __future__ import annotations

import io
from datetime import timedelta

from flask import current_app
from sqlalchemy import select
from werkzeug.datastructures import FileStorage

from api.device.models import Category, Device, DeviceModelCode, DeviceParam, DeviceType, ParamUnit, TypeStatus
from api.extensions import uploads
from api.extensions.db import db, utcnow
from api.platform.models import Platform
from api.product.firmware import FIRMWARE_FOLDER
from api.product.models import DeviceSeries, FirmwareVersion, SimCard, SimRechargeState, SimUseState

MODEL_CODES = {
    0x8001: [("TL-1 Standard", 0x0001, "-40~85 °C", "3.6V")],
    0x8002: [("TH-2 Standard", 0x0001, "-40~85 °C", "3.6V"), ("TH-2 Pro (display)", 0x0002, "-40~85 °C", "3.6V")],
    0x8003: [("CS-4 Controller 380V", 0x0001, "-60~60 °C", "380V")],
    0x8004: [("GT-1 Tracker", 0x0001, "-40~85 °C", "3.7V")],
    0x8005: [("FZ-1 Monitor", 0x0001, "-100~40 °C", "5V")],
}
TESTING_TYPE = 0x8006
SIMS = [
    ("148600000000101", "89860400000000000101", "China Mobile", 1200),
    ("148600000000102", "89860400000000000102", "China Mobile", 800),
    ("148600000000103", "89860400000000000103", "China Unicom", 0),
]


def seed_product(devices: list[Device]) -> None:
    types = {t.type_code: t for t in db.session.scalars(select(DeviceType))}
    for code, models in MODEL_CODES.items():
        device_type = types.get(code)
        if device_type is None:
            continue
        known = {m.model_code for m in device_type.models}
        for name, model_code, temperatures, voltage in models:
            if model_code not in known:
                device_type.models.append(
                    DeviceModelCode(
                        model_name=name, model_code=model_code, temperature_range=temperatures, voltage=voltage
                    )
                )
    if TESTING_TYPE not in types:
        celsius = db.session.scalar(select(ParamUnit).where(ParamUnit.unit_code == "celsius"))
        db.session.add(
            DeviceType(
                type_code=TESTING_TYPE,
                type_name="XT-9 Vaccine Logger",
                type_series="XT",
                category=Category.COLD_CHAIN,
                net_type="NB-IoT",
                type_status=TypeStatus.TESTING,
                supports_waybill=True,
                explanation="Two-probe vaccine fridge logger, in field test",
                params=[
                    DeviceParam(
                        param_key=0x0001,
                        param_name="Vaccine temperature",
                        param_type="sensor",
                        probe_id=1,
                        unit=celsius,
                        precision=1,
                        param_min=-40.0,
                        param_max=85.0,
                        sort_no=1,
                    )
                ],
                models=[DeviceModelCode(model_name="XT-9 Field test", model_code=0x0001)],
            )
        )
    loggers = [d for d in devices if d.device_type.category == Category.COLD_CHAIN][:2]
    known_sims = set(db.session.scalars(select(SimCard.icc_id)))
    now = utcnow()
    for index, (card_num, icc_id, operator, balance) in enumerate(SIMS):
        if icc_id in known_sims:
            continue
        device = loggers[index] if index < len(loggers) else None
        db.session.add(
            SimCard(
                card_num=card_num,
                icc_id=icc_id,
                operator=operator,
                open_time=now - timedelta(days=200),
                active_time=now - timedelta(days=190),
                expired_time=now + timedelta(days=170),
                balance=balance,
                last_online=now - timedelta(minutes=5) if device else None,
                use_state=SimUseState.IN_USE if device else SimUseState.UNUSED,
                recharge_state=SimRechargeState.RECHARGED if balance else SimRechargeState.NOT_RECHARGED,
                device_id=device.id if device else None,
            )
        )
    _seed_upgrades()
    db.session.commit()


DEMO_FIRMWARE = (
    0x8002,
    "2.1.0",
    "TH-2 v2.1.0",
    "Faster humidity sampling; fixes the clock drift after a battery swap.",
)


def _seed_upgrades() -> None:
    """The series of every type on the operator's platform, and a firmware for the TH-2 loggers to
    try an upgrade on (`make run`: /operation/device/version)."""
    platform = db.session.scalar(select(Platform).where(Platform.slug == current_app.config["OPERATOR_TENANT"]))
    if platform is None:
        return
    known = set(db.session.scalars(select(DeviceSeries.series_name).where(DeviceSeries.platform_id == platform.id)))
    for name in sorted(set(db.session.scalars(select(DeviceType.type_series))) - known):
        db.session.add(DeviceSeries(platform_id=platform.id, series_name=name))
    type_code, value, label, description = DEMO_FIRMWARE
    device_type = db.session.scalar(select(DeviceType).where(DeviceType.type_code == type_code))
    taken = select(FirmwareVersion.id).where(FirmwareVersion.version_value == value)
    if device_type is None or db.session.scalar(taken) is not None:
        return
    image = b"TH2-FIRMWARE " + value.encode() + bytes(range(256)) * 64
    stored = uploads.store_upload(FileStorage(io.BytesIO(image), filename="th2-2.1.0.bin"), "firmware", FIRMWARE_FOLDER)
    db.session.add(
        FirmwareVersion(
            device_type_id=device_type.id,
            version_value=value,
            version_label=label,
            version_descrip=description,
            file_name=stored.name,
            original_name="th2-2.1.0.bin",
            file_size=stored.size,
            sha256=stored.sha256,
        )
    )
