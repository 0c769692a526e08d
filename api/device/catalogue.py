"""The demo catalogue: units, four device types and their parameters. Loaded by `flask seed-demo`
(idempotent, keyed by unit code, type code and param key); the back-office edits it later."""

from __future__ import annotations

from flask import has_app_context
from flask_babel import gettext
from sqlalchemy import select

from api.device.models import Category, DeviceParam, DeviceType, ParamUnit, ReadWrite
from api.extensions.db import db
from api.extensions.i18n import N_


def catalogue_text(name: str | None) -> str | None:
    """A catalogue name (type, parameter, unit) in the reader's language: the catalogue is written
    in English (its localeCode en-US) and each name's zh-CN form is in the translation catalogues
    (`make update-translations` picks up the names marked N_ below). Names an operator adds later
    without a translation read the same in both languages."""
    if not name or not has_app_context():
        return name
    return gettext(name)


UNITS = [
    # code, name, class, basic, to basic, from basic
    ("celsius", "°C", "temperature", True, "X", "X"),
    ("fahrenheit", "°F", "temperature", False, "(X-32)*5/9", "X*9/5+32"),
    ("percent_rh", "%RH", "humidity", True, "X", "X"),
    ("kwh", "kWh", "energy", True, "X", "X"),
    ("minute", N_("min"), "time", True, "X", "X"),
    ("onoff", N_("on/off"), "state", True, "X", "X"),
]

TEMP = ("celsius", -40.0, 85.0)
COLD_TEMP = ("celsius", -60.0, 60.0)
HUMIDITY = ("percent_rh", 0.0, 100.0)
ON_OFF = ("onoff", 0.0, 1.0)

TYPES = [
    {
        "type_code": 0x8001,
        "type_name": N_("TL-1 Temperature Logger"),
        "type_series": "TL",
        "net_type": "4G",
        "category": Category.COLD_CHAIN,
        "supports_waybill": True,
        "online_upgrade": True,  # takes firmware over the air (api/product/rollouts.py)
        "default_interval_s": 300,
        "params": [
            # key, name, type, probe, (unit, min, max), precision, rw
            (0x0001, N_("Temperature"), "sensor", 1, TEMP, 1, ReadWrite.READ),
            (0x0101, N_("Logging interval"), "setting", None, ("minute", 1.0, 1440.0), 0, ReadWrite.READ_WRITE),
        ],
    },
    {
        "type_code": 0x8002,
        "type_name": N_("TH-2 Temperature & Humidity Logger"),
        "type_series": "TH",
        "net_type": "4G",
        "category": Category.COLD_CHAIN,
        "supports_waybill": True,
        "online_upgrade": True,  # takes firmware over the air (api/product/rollouts.py)
        "default_interval_s": 300,
        "params": [
            (0x0001, N_("Temperature"), "sensor", 1, TEMP, 1, ReadWrite.READ),
            (0x0002, N_("Humidity"), "sensor", 2, HUMIDITY, 1, ReadWrite.READ),
            (0x0101, N_("Logging interval"), "setting", None, ("minute", 1.0, 1440.0), 0, ReadWrite.READ_WRITE),
        ],
    },
    {
        "type_code": 0x8003,
        "type_name": N_("CS-4 Cold Storage Controller"),
        "type_series": "CS",
        "net_type": "Ethernet",
        "category": Category.COLD_STORAGE,
        "supports_energy": True,
        "default_interval_s": 60,
        "params": [
            (0x0001, N_("Probe 1"), "sensor", 1, COLD_TEMP, 1, ReadWrite.READ),
            (0x0002, N_("Probe 2"), "sensor", 2, COLD_TEMP, 1, ReadWrite.READ),
            (0x0003, N_("Probe 3"), "sensor", 3, COLD_TEMP, 1, ReadWrite.READ),
            (0x0004, N_("Probe 4"), "sensor", 4, COLD_TEMP, 1, ReadWrite.READ),
            (0x0009, N_("Energy"), "energy", 9, ("kwh", 0.0, 1e9), 2, ReadWrite.READ),
            # The controller's own state, reported with every record (api/storage reads it).
            (0x0005, N_("Compressor"), "status", 5, ON_OFF, 0, ReadWrite.READ),
            (0x0006, N_("Fan"), "status", 6, ON_OFF, 0, ReadWrite.READ),
            (0x0007, N_("Defrosting"), "status", 7, ON_OFF, 0, ReadWrite.READ),
            (0x0008, N_("Door open"), "status", 8, ON_OFF, 0, ReadWrite.READ),
            (0x000A, N_("Setpoint"), "status", 10, COLD_TEMP, 1, ReadWrite.READ),
            (0x000B, N_("Light"), "status", 11, ON_OFF, 0, ReadWrite.READ),
            (0x0101, N_("Logging interval"), "setting", None, ("minute", 1.0, 1440.0), 0, ReadWrite.READ_WRITE),
            (0x0201, N_("Target temperature"), "setting", None, COLD_TEMP, 1, ReadWrite.READ_WRITE),
            (0x0202, N_("Defrost period"), "setting", None, ("minute", 60.0, 1440.0), 0, ReadWrite.READ_WRITE),
            # Cloud control (api/storage): 1 starts / 0 stops the compressor; 1 starts a defrost now;
            # 1 / 0 switches the light.
            (0x0203, N_("Compressor run"), "setting", None, ON_OFF, 0, ReadWrite.READ_WRITE),
            (0x0204, N_("Manual defrost"), "setting", None, ON_OFF, 0, ReadWrite.READ_WRITE),
            (0x0205, N_("Light switch"), "setting", None, ON_OFF, 0, ReadWrite.READ_WRITE),
        ],
    },
    {
        "type_code": 0x8005,
        "type_name": N_("FZ-1 Ultra-low Freezer Monitor"),
        "type_series": "FZ",
        "net_type": "4G",
        "category": Category.FREEZER,
        "default_interval_s": 120,
        "params": [
            (0x0001, N_("Cabinet temperature"), "sensor", 1, ("celsius", -100.0, 40.0), 1, ReadWrite.READ),
            (0x0101, N_("Logging interval"), "setting", None, ("minute", 1.0, 1440.0), 0, ReadWrite.READ_WRITE),
        ],
    },
    {
        "type_code": 0x8004,
        "type_name": N_("GT-1 GPS Shipment Tracker"),
        "type_series": "GT",
        "net_type": "4G",
        "category": Category.COLD_CHAIN,
        "supports_waybill": True,
        "supports_gps": True,
        "default_interval_s": 300,
        "params": [
            (0x0001, N_("Temperature"), "sensor", 1, TEMP, 1, ReadWrite.READ),
            (0x0101, N_("Logging interval"), "setting", None, ("minute", 1.0, 1440.0), 0, ReadWrite.READ_WRITE),
        ],
    },
]


def sync_catalogue() -> dict[int, DeviceType]:
    units = {u.unit_code: u for u in db.session.scalars(select(ParamUnit))}
    for code, name, classify, basic, to_basic, from_basic in UNITS:
        unit = units.get(code) or ParamUnit(unit_code=code)
        unit.unit_name, unit.unit_classify, unit.basic_unit = name, classify, basic
        unit.to_basic_formula, unit.from_basic_formula = to_basic, from_basic
        db.session.add(unit)
        units[code] = unit
    db.session.flush()
    types = {}
    for spec in TYPES:
        device_type = db.session.scalar(select(DeviceType).where(DeviceType.type_code == spec["type_code"]))
        device_type = device_type or DeviceType(type_code=spec["type_code"])
        for key, value in spec.items():
            if key not in ("params", "type_code"):
                setattr(device_type, key, value)
        existing = {p.param_key: p for p in device_type.params}
        for order, (key, name, kind, probe, (unit_code, low, high), precision, rw) in enumerate(spec["params"], 1):
            param = existing.get(key) or DeviceParam(param_key=key)
            param.param_name, param.param_type, param.probe_id = name, kind, probe
            param.unit, param.param_min, param.param_max = units[unit_code], low, high
            param.precision, param.read_write, param.sort_no = precision, rw, order
            if key not in existing:
                device_type.params.append(param)
        db.session.add(device_type)
        types[spec["type_code"]] = device_type
    db.session.flush()
    return types
