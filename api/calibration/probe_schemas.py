"""Schemas of a device's probe certificates (issue 48; api/calibration/probes.py)."""

from __future__ import annotations

import marshmallow as ma
from flask_babel import gettext
from marshmallow import validate

from api.extensions.integers import Integer
from api.extensions.smorest import LocalDateTime, Schema

PROBE_STATUSES = ["none", "valid", "due_soon", "overdue", "failed"]


class CalibrationPointInputSchema(Schema):
    reference = ma.fields.Float(required=True, allow_nan=False, validate=validate.Range(min=-273.15, max=1000))
    measured = ma.fields.Float(required=True, allow_nan=False, validate=validate.Range(min=-273.15, max=1000))


class ProbeCertificateInputSchema(Schema):
    """An outside lab's certificate: the dates are days in the caller's zone (overdue from the start of
    the due date); the deviation of each point is computed (measured - reference)."""

    deviceId = Integer(required=True)
    sensors = ma.fields.List(
        Integer(validate=validate.Range(min=0, max=255)), required=True, validate=validate.Length(min=1, max=16)
    )
    number = ma.fields.String(required=True, validate=validate.Length(min=1, max=40))
    issuer = ma.fields.String(required=True, validate=validate.Length(min=1, max=100))
    calibratedAt = ma.fields.Date(required=True)
    dueAt = ma.fields.Date(required=True)
    points = ma.fields.List(
        ma.fields.Nested(CalibrationPointInputSchema), load_default=list, validate=validate.Length(max=20)
    )
    passed = ma.fields.Boolean(load_default=True)

    @ma.validates_schema
    def due_after_calibration(self, data, **kwargs):
        if data.get("calibratedAt") and data.get("dueAt") and data["dueAt"] <= data["calibratedAt"]:
            raise ma.ValidationError(gettext("The due date must be after the calibration date."), "dueAt")


class CalibrationPointSchema(Schema):
    reference = ma.fields.Float()
    measured = ma.fields.Float()
    deviation = ma.fields.Float()


class ProbeCertificateSchema(Schema):
    id = Integer(allow_none=True, metadata={"description": "an outside lab's record; null for the lab's own"})
    number = ma.fields.String()
    issuer = ma.fields.String()
    ownLab = ma.fields.Boolean()
    calibratedAt = LocalDateTime()
    dueAt = LocalDateTime()
    passed = ma.fields.Boolean()
    points = ma.fields.List(ma.fields.Nested(CalibrationPointSchema))
    hasFile = ma.fields.Boolean()
    deviceId = Integer()
    sensors = ma.fields.List(Integer())


class ProbeCalibrationSchema(Schema):
    sensor = Integer()
    unit = ma.fields.String()
    status = ma.fields.String(metadata={"enum": PROBE_STATUSES})
    overdueSince = LocalDateTime(allow_none=True)
    certificates = ma.fields.List(ma.fields.Nested(ProbeCertificateSchema))


class DeviceCalibrationSchema(Schema):
    deviceId = Integer()
    correction = ma.fields.Boolean(
        metadata={"description": "charts and exports show values corrected by each probe's valid certificate"}
    )
    probes = ma.fields.List(ma.fields.Nested(ProbeCalibrationSchema))


class ProbeCertificateIdSchema(Schema):
    id = Integer(required=True)


class ProbeFileAnswerSchema(Schema):
    id = Integer()
    fileName = ma.fields.String()
    size = Integer()
    sha256 = ma.fields.String()


class CorrectionSettingSchema(Schema):
    """Apply the probes' calibration correction to the device's displayed and exported values (raw
    values are always stored and exported beside)."""

    deviceId = Integer(required=True)
    enabled = ma.fields.Boolean(required=True)
