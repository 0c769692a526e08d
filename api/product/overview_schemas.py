"""Schemas of the operator's fleet views (api/product/overview.py)."""

from __future__ import annotations

import marshmallow as ma
from flask_babel import gettext
from marshmallow import validate

from api.alarm.models import AlarmKind, AlarmStatus
from api.device.catalogue import catalogue_text
from api.device.status import DeviceStatus
from api.extensions.integers import Integer
from api.extensions.smorest import LocalDateTime, PageQuerySchema, Schema


class FleetDeviceQuerySchema(PageQuerySchema):
    keyword = ma.fields.String(
        load_default=None, validate=validate.Length(max=50), metadata={"description": "name or GUID"}
    )
    userName = ma.fields.String(load_default=None, validate=validate.Length(max=50), metadata={"description": "owner"})
    deviceTypeId = Integer(load_default=None)
    platformId = Integer(load_default=None)
    status = ma.fields.String(load_default=None, validate=validate.OneOf([s.value for s in DeviceStatus]))
    claimed = ma.fields.Boolean(load_default=None, metadata={"description": "added by an account (true) or not yet"})
    deleted = ma.fields.Boolean(
        load_default=None, metadata={"description": "GUIDs whose device was deleted and not added again (true)"}
    )


class FleetDeviceSchema(Schema):
    id = Integer(attribute="device.id")
    deviceName = ma.fields.String(attribute="device.name", allow_none=True)
    deviceGuid = ma.fields.String(attribute="device.guid")
    typeName = ma.fields.Function(lambda row: catalogue_text(row["device"].device_type.type_name))
    ownerName = ma.fields.String(allow_none=True)
    platform = ma.fields.String()
    simCardNum = ma.fields.String(allow_none=True)
    status = ma.fields.String()
    lastDataTime = LocalDateTime(allow_none=True)
    serviceExpireTime = LocalDateTime(attribute="device.service_expires_at", allow_none=True)
    claimedTime = LocalDateTime(attribute="device.claimed_at", allow_none=True)
    firmwareVersion = ma.fields.String(attribute="device.firmware_version", allow_none=True)
    deleted = ma.fields.Boolean(
        attribute="device.deleted", metadata={"description": "deleted by its owner; the GUID can be added again"}
    )
    voided = ma.fields.Boolean(metadata={"description": "an unused GUID the operator voided"})


class FleetAlarmQuerySchema(PageQuerySchema):
    keyword = ma.fields.String(
        load_default=None, validate=validate.Length(max=50), metadata={"description": "device name or GUID"}
    )
    userName = ma.fields.String(load_default=None, validate=validate.Length(max=50), metadata={"description": "owner"})
    kind = ma.fields.String(load_default=None, validate=validate.OneOf([k.value for k in AlarmKind]))
    status = ma.fields.String(
        load_default=None, validate=validate.OneOf([AlarmStatus.OPEN.value, AlarmStatus.CLOSED.value])
    )
    startTime = ma.fields.AwareDateTime(load_default=None)
    endTime = ma.fields.AwareDateTime(load_default=None)

    @ma.validates_schema
    def end_after_start(self, data, **kwargs):
        if data.get("startTime") and data.get("endTime") and data["endTime"] <= data["startTime"]:
            raise ma.ValidationError(gettext("End time must be after start time."), "endTime")


class FleetAlarmSchema(Schema):
    id = Integer(attribute="alarm.id")
    kind = ma.fields.Function(lambda row: row["alarm"].kind.value)
    status = ma.fields.Function(lambda row: row["alarm"].status.value)
    sensor = Integer(attribute="alarm.sensor", allow_none=True)
    limitValue = ma.fields.Float(attribute="alarm.limit_value", allow_none=True)
    peakValue = ma.fields.Float(attribute="alarm.peak_value", allow_none=True)
    processState = ma.fields.Function(lambda row: row["alarm"].process_state.value)
    startedAt = LocalDateTime(attribute="alarm.breach_started_at")
    closedAt = LocalDateTime(attribute="alarm.closed_at", allow_none=True)
    deviceId = Integer(attribute="device.id")
    deviceName = ma.fields.String(attribute="device.name", allow_none=True)
    deviceGuid = ma.fields.String(attribute="device.guid")
    typeName = ma.fields.Function(lambda row: catalogue_text(row["typeName"]))
    ownerName = ma.fields.String(allow_none=True)
