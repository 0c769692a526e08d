"""Shared pieces of the product-management tests (api/product)."""

from __future__ import annotations

from sqlalchemy import func, select

from api.device.models import DeviceModelCode, DeviceParam, DeviceType, ParamUnit
from api.extensions.db import db
from api.product.models import DeviceSeries
from api.tenancy import find_platform

PRODUCT = "/api/product"


def new_type(**overrides) -> dict:
    body = {
        "typeName": "XT-9 Vaccine Logger",
        "typeCode": "8A01",
        "typeSeries": "XT",
        "category": "cold_chain",
        "mapMode": "gps",
        "connectType": "mqtt",
        "netType": "4G",
        "wifiType": None,
        "nodeType": "gateway",
        "supportsEnergy": False,
        "supportsPhone": True,
        "autoPush": True,
        "batchParam": True,
        "onlineUpgrade": True,
        "supportsWaybill": True,
        "cfMode": "platform",
        "manualUrl": "https://docs.example.com/xt9.pdf",
        "addType": 0,
        "typeScenes": ["vaccine", "pharmacy"],
        "explanation": "Two-probe vaccine fridge logger",
        "models": [
            {
                "modelName": "XT-9 Standard",
                "modelCode": "0001",
                "modelType": "logger",
                "modelVolume": "-",
                "temperatureRange": "-40~85",
                "voltage": "3.6V",
                "refrigerationPower": None,
                "defrostPower": None,
                "modelFlag": True,
            }
        ],
    }
    body.update(overrides)
    return body


def ensure_series(app, *names: str, host: str = "localhost") -> None:
    """Series a new type may name (a type's series is one of its platform's series)."""
    with app.app_context():
        platform = find_platform(host)
        known = set(db.session.scalars(select(DeviceSeries.series_name).where(DeviceSeries.platform_id == platform.id)))
        for name in set(names) - known:
            db.session.add(DeviceSeries(platform_id=platform.id, series_name=name))
        db.session.commit()


def new_param(type_id: int, unit_id: int, **overrides) -> dict:
    body = {
        "deviceTypeId": type_id,
        "paramClassify": "basic",
        "paramType": "sensor",
        "paramName": "Vaccine temperature",
        "paramKey": "0001",
        "paramCode": "000101",
        "paramSortNo": 1,
        "dataType": "number",
        "probeId": 1,
        "precisionUnit": 2,
        "viewPrecisionUnit": 1,
        "paramMin": {"value": -40},
        "paramMax": {"value": 85},
        "stepLength": 0.1,
        "unitId": unit_id,
        "readWriteType": "R",
        "enforceSend": False,
    }
    body.update(overrides)
    return body


def catalogue_counts(app) -> tuple[int, int, int, int]:
    """Rows of the catalogue tables: a refused write leaves these unchanged."""
    with app.app_context():
        return tuple(
            db.session.scalar(select(func.count()).select_from(model))
            for model in (DeviceType, DeviceModelCode, DeviceParam, ParamUnit)
        )


def unit_id(app, code: str = "celsius") -> int:
    with app.app_context():
        return db.session.scalar(select(ParamUnit.id).where(ParamUnit.unit_code == code))
