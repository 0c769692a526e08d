"""Device types with their model codes, and parameter units: the operator edits api/device's
catalogue here. Every call is the operator's (staff_scope(operator_only=True)); a refused write
changes nothing (the checks run before anything is flushed)."""

from __future__ import annotations

from flask_babel import gettext
from sqlalchemy import func, or_, select

from api.device.models import Category, Device, DeviceModelCode, DeviceParam, DeviceType, ParamUnit, TypeStatus
from api.extensions.db import db, escape_like, paginate
from api.extensions.smorest import ApiError, field_error
from api.identity.staff import staff_scope
from api.product.formula import FormulaError, compile_formula, evaluate, round_trips
from api.product.models import DeviceSeries
from api.tenancy import current_platform


def not_found() -> ApiError:
    return ApiError(gettext("The requested resource does not exist."), code=404, http_status=404)


def operator() -> None:
    staff_scope(operator_only=True)


# ---- device types ----------------------------------------------------------------------------------------

TYPE_FIELDS = {
    "typeName": "type_name",
    "typeSeries": "type_series",
    "mapMode": "map_mode",
    "connectType": "connect_type",
    "netType": "net_type",
    "wifiType": "wifi_type",
    "nodeType": "node_type",
    "supportsEnergy": "supports_energy",
    "supportsPhone": "supports_phone",
    "supportsGps": "supports_gps",
    "autoPush": "auto_push",
    "batchParam": "batch_param",
    "onlineUpgrade": "online_upgrade",
    "supportsWaybill": "supports_waybill",
    "cfMode": "cf_mode",
    "manualUrl": "manual_url",
    "addType": "add_type",
    "typeScenes": "type_scenes",
    "explanation": "explanation",
    "defaultIntervalS": "default_interval_s",
}
MODEL_FIELDS = {
    "modelName": "model_name",
    "modelCode": "model_code",
    "modelType": "model_type",
    "modelVolume": "model_volume",
    "temperatureRange": "temperature_range",
    "voltage": "voltage",
    "refrigerationPower": "refrigeration_power",
    "defrostPower": "defrost_power",
    "modelFlag": "model_flag",
}


def type_page(args: dict) -> dict:
    operator()
    stmt = select(DeviceType)
    if args.get("keyword"):
        pattern = f"%{escape_like(args['keyword'].lower())}%"
        stmt = stmt.where(
            or_(func.lower(DeviceType.type_name).like(pattern, escape="\\"), DeviceType.type_series.ilike(pattern))
        )
    if args.get("typeStatus"):
        stmt = stmt.where(DeviceType.type_status == TypeStatus(args["typeStatus"]))
    return paginate(stmt, args, DeviceType.type_code)


def type_options() -> list[DeviceType]:
    operator()
    return list(db.session.scalars(select(DeviceType).order_by(DeviceType.type_code)))


def get_type(type_id: int) -> DeviceType:
    device_type = db.session.get(DeviceType, type_id)
    if device_type is None:
        raise not_found()
    return device_type


def check_type_series(name: str, current: str | None) -> None:
    """A device type names one of the platform's series (/operation/device/series); a type keeps
    the series it has."""
    known = select(DeviceSeries.id).where(
        DeviceSeries.platform_id == current_platform().id, DeviceSeries.series_name == name
    )
    if name != current and db.session.scalar(known) is None:
        raise field_error("typeSeries", gettext("Choose a series from the series list."))


def _check_type(args: dict, type_id: int | None) -> None:
    taken = select(DeviceType.id).where(DeviceType.type_code == args["typeCode"])
    if type_id is not None:
        taken = taken.where(DeviceType.id != type_id)
    if db.session.scalar(taken) is not None:
        raise field_error("typeCode", gettext("This code is already used."))
    codes = [model["modelCode"] for model in args.get("models", [])]
    if len(codes) != len(set(codes)):
        raise field_error("models", gettext("Model codes must not repeat."))


def _apply_models(device_type: DeviceType, models: list[dict]) -> None:
    """The type's model codes become exactly `models` (matched by code, so ids stay stable)."""
    existing = {m.model_code: m for m in device_type.models}
    kept = []
    for values in models:
        model = existing.get(values["modelCode"]) or DeviceModelCode()
        for field, column in MODEL_FIELDS.items():
            setattr(model, column, values[field])
        kept.append(model)
    device_type.models = kept


def create_type(args: dict) -> DeviceType:
    operator()
    _check_type(args, None)
    check_type_series(args["typeSeries"], None)
    device_type = DeviceType(
        type_code=args["typeCode"], category=Category(args["category"]), type_status=TypeStatus.TO_TEST
    )
    for field, column in TYPE_FIELDS.items():
        setattr(device_type, column, args[field])
    _apply_models(device_type, args["models"])
    db.session.add(device_type)
    db.session.commit()
    return device_type


def update_type(args: dict) -> DeviceType:
    operator()
    device_type = get_type(args["id"])
    _check_type(args, device_type.id)
    check_type_series(args["typeSeries"], device_type.type_series)
    if args["typeCode"] != device_type.type_code and _has_devices(device_type.id):
        # Issued GUIDs start with the type code: it is fixed once the first one is out.
        raise field_error("typeCode", gettext("GUIDs of this type were issued; its code cannot change."))
    device_type.type_code, device_type.category = args["typeCode"], Category(args["category"])
    for field, column in TYPE_FIELDS.items():
        setattr(device_type, column, args[field])
    _apply_models(device_type, args["models"])
    db.session.commit()
    return device_type


def _has_devices(type_id: int) -> bool:
    return db.session.scalar(select(Device.id).where(Device.device_type_id == type_id).limit(1)) is not None


def delete_type(type_id: int) -> None:
    operator()
    device_type = get_type(type_id)
    if _has_devices(device_type.id):
        raise ApiError(gettext("GUIDs of this type were issued; it cannot be deleted."), code=409, http_status=409)
    db.session.delete(device_type)
    db.session.commit()


# Test: to be tested -> testing; Release: testing -> published (business-domain section 4).
TRANSITIONS = {"test": (TypeStatus.TO_TEST, TypeStatus.TESTING), "release": (TypeStatus.TESTING, TypeStatus.PUBLISHED)}


def move_type(type_id: int, action: str) -> DeviceType:
    operator()
    device_type = get_type(type_id)
    before, after = TRANSITIONS[action]
    if device_type.type_status != before:
        raise ApiError(
            gettext("The device type is not in the right status for this action."), code=409, http_status=409
        )
    if action == "release" and not device_type.params:
        raise ApiError(gettext("Add at least one parameter before releasing the type."), code=409, http_status=409)
    device_type.type_status = after
    db.session.commit()
    return device_type


# ---- units -----------------------------------------------------------------------------------------------

UNIT_FIELDS = {
    "unitName": "unit_name",
    "unitCode": "unit_code",
    "unitClassify": "unit_classify",
    "localeCode": "locale_code",
    "basicUnitStatus": "basic_unit",
    "unitPic": "unit_pic",
    "alarmPic": "alarm_pic",
    "toBasicFormula": "to_basic_formula",
    "fromBasicFormula": "from_basic_formula",
}


def unit_page(args: dict) -> dict:
    operator()
    stmt = select(ParamUnit)
    if args.get("keyword"):
        pattern = f"%{escape_like(args['keyword'].lower())}%"
        stmt = stmt.where(
            or_(func.lower(ParamUnit.unit_name).like(pattern, escape="\\"), ParamUnit.unit_code.ilike(pattern))
        )
    if args.get("unitClassify"):
        stmt = stmt.where(ParamUnit.unit_classify == args["unitClassify"])
    return paginate(stmt, args, ParamUnit.unit_classify, ParamUnit.id)


def unit_options() -> list[ParamUnit]:
    operator()
    return list(db.session.scalars(select(ParamUnit).order_by(ParamUnit.unit_classify, ParamUnit.id)))


def _check_unit(args: dict, unit_id: int | None) -> None:
    for field in ("toBasicFormula", "fromBasicFormula"):
        try:
            compile_formula(args[field])
        except FormulaError:
            raise field_error(field, gettext("Not a valid formula in X.")) from None
    if not round_trips(args["toBasicFormula"], args["fromBasicFormula"]):
        raise field_error("fromBasicFormula", gettext("The two formulas must convert there and back."))
    if args["basicUnitStatus"] and args["toBasicFormula"].replace(" ", "").upper() != "X":
        raise field_error("toBasicFormula", gettext("A basic unit converts to itself: X."))
    taken = select(ParamUnit.id).where(ParamUnit.unit_code == args["unitCode"])
    if unit_id is not None:
        taken = taken.where(ParamUnit.id != unit_id)
    if db.session.scalar(taken) is not None:
        raise field_error("unitCode", gettext("This code is already used."))


def save_unit(args: dict) -> ParamUnit:
    operator()
    unit = db.session.get(ParamUnit, args["id"]) if "id" in args else ParamUnit()
    if unit is None:
        raise not_found()
    _check_unit(args, unit.id)
    for field, column in UNIT_FIELDS.items():
        setattr(unit, column, args[field])
    db.session.add(unit)
    db.session.commit()
    return unit


def delete_unit(unit_id: int) -> None:
    operator()
    unit = db.session.get(ParamUnit, unit_id)
    if unit is None:
        raise not_found()
    if db.session.scalar(select(DeviceParam.id).where(DeviceParam.unit_id == unit.id).limit(1)) is not None:
        raise ApiError(gettext("Parameters use this unit; it cannot be deleted."), code=409, http_status=409)
    db.session.delete(unit)
    db.session.commit()


def convert(formula: str, value: float) -> float:
    operator()
    try:
        return evaluate(formula, value)
    except FormulaError:
        raise field_error("formula", gettext("Not a valid formula in X.")) from None
