"""Device parameters of a type: the rules of business-domain section 5 beyond one field's shape
(unique key per type, a bound naming another parameter of the type, merging and separating)."""

from __future__ import annotations

from flask_babel import gettext
from sqlalchemy import func, or_, select

from api.device.models import DeviceParam, DeviceType, ParamUnit, ReadWrite
from api.extensions.db import db, escape_like, paginate
from api.product.services import field_error, not_found, operator

PARAM_FIELDS = {
    "paramClassify": "param_classify",
    "paramType": "param_type",
    "paramName": "param_name",
    "paramKey": "param_key",
    "paramCode": "param_code",
    "paramSortNo": "sort_no",
    "dataType": "data_type",
    "probeId": "probe_id",
    "precisionUnit": "precision",
    "viewPrecisionUnit": "view_precision",
    "stepLength": "step_length",
    "unitId": "unit_id",
    "enforceSend": "enforce_send",
    "defaultValue": "default_value",
    "refParamExpression": "ref_param_expression",
    "bitLength": "bit_length",
    "bitList": "bit_list",
    "regExp": "reg_exp",
    "regExpTip": "reg_exp_tip",
}


def page(args: dict) -> dict:
    operator()
    stmt = select(DeviceParam).where(DeviceParam.device_type_id == args["deviceTypeId"])
    if args.get("keyword"):
        stmt = stmt.where(
            or_(func.lower(DeviceParam.param_name).like(f"%{escape_like(args['keyword'].lower())}%", escape="\\"))
        )
    if args.get("paramType"):
        stmt = stmt.where(DeviceParam.param_type == args["paramType"])
    return paginate(stmt, args, DeviceParam.sort_no, DeviceParam.id)


def _check(args: dict, param_id: int | None) -> None:
    if db.session.get(DeviceType, args["deviceTypeId"]) is None:
        raise field_error("deviceTypeId", gettext("The requested resource does not exist."))
    if args.get("unitId") is not None and db.session.get(ParamUnit, args["unitId"]) is None:
        raise field_error("unitId", gettext("The requested resource does not exist."))
    siblings = select(DeviceParam).where(DeviceParam.device_type_id == args["deviceTypeId"])
    if param_id is not None:
        siblings = siblings.where(DeviceParam.id != param_id)
    others = list(db.session.scalars(siblings))
    if any(p.param_key == args["paramKey"] for p in others):
        raise field_error("paramKey", gettext("This key is already used by the type."))
    if args.get("probeId") is not None and any(p.probe_id == args["probeId"] for p in others):
        raise field_error("probeId", gettext("This probe is already used by the type."))
    keys = {p.param_key for p in others}
    for field in ("paramMin", "paramMax"):
        ref = (args.get(field) or {}).get("paramKey")
        if ref is not None and ref not in keys:
            raise field_error(field, gettext("Choose another parameter of this type."))


def _apply(param: DeviceParam, args: dict) -> None:
    for field, column in PARAM_FIELDS.items():
        setattr(param, column, args[field])
    param.read_write = ReadWrite(args["readWriteType"])
    for which in ("min", "max"):
        bound = args.get(f"param{which.capitalize()}") or {}
        setattr(param, f"param_{which}", bound.get("value"))
        setattr(param, f"{which}_param_key", bound.get("paramKey"))


def create(args: dict) -> DeviceParam:
    operator()
    _check(args, None)
    param = DeviceParam(device_type_id=args["deviceTypeId"])
    _apply(param, args)
    db.session.add(param)
    db.session.commit()
    return param


def update(args: dict) -> DeviceParam:
    operator()
    param = db.session.get(DeviceParam, args["id"])
    if param is None:
        raise not_found()
    if param.device_type_id != args["deviceTypeId"]:
        raise field_error("deviceTypeId", gettext("A parameter stays with its type."))
    _check(args, param.id)
    _apply(param, args)
    db.session.commit()
    return param


def delete(param_id: int) -> None:
    operator()
    param = db.session.get(DeviceParam, param_id)
    if param is None:
        raise not_found()
    db.session.delete(param)
    db.session.commit()


def _load(ids: list[int]) -> list[DeviceParam]:
    params = list(db.session.scalars(select(DeviceParam).where(DeviceParam.id.in_(ids))))
    if len(params) != len(set(ids)):
        raise field_error("paramIds", gettext("The requested resource does not exist."))
    if len({p.device_type_id for p in params}) != 1:
        raise field_error("paramIds", gettext("Choose parameters of one type."))
    return params


def merge(ids: list[int]) -> list[DeviceParam]:
    """At least two sensor parameters, not merged yet, become one displayed group."""
    operator()
    params = _load(ids)
    if len(params) < 2 or any(p.param_type != "sensor" or p.probe_id is None for p in params):
        raise field_error("paramIds", gettext("Merging needs at least two sensor parameters."))
    if any(p.merge_group is not None for p in params):
        raise field_error("paramIds", gettext("A parameter is merged already; separate it first."))
    group = (
        db.session.scalar(
            select(func.max(DeviceParam.merge_group)).where(DeviceParam.device_type_id == params[0].device_type_id)
        )
        or 0
    ) + 1
    for param in params:
        param.merge_group = group
    db.session.commit()
    return params


def separate(ids: list[int]) -> list[DeviceParam]:
    """Merged parameters of one group go back to single ones."""
    operator()
    params = _load(ids)
    groups = {p.merge_group for p in params}
    if None in groups or len(groups) != 1:
        raise field_error("paramIds", gettext("Separating needs merged parameters of one group."))
    for param in params:
        param.merge_group = None
    db.session.commit()
    return params
