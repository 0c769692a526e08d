from __future__ import annotations

import marshmallow as ma
from flask_babel import gettext
from marshmallow import validate

from api.account.validators import LowerEmail, Phone
from api.extensions.smorest import LocalDateTime, PageQuerySchema, Schema
from api.report.models import FileStatus, FileType, Frequency

MAX_RANGE_DAYS = 366


class ExportRequestSchema(Schema):
    deviceIds = ma.fields.List(ma.fields.Integer(), required=True, validate=validate.Length(min=1, max=20))
    sensors = ma.fields.List(
        ma.fields.Integer(validate=validate.Range(min=1)),
        load_default=None,
        allow_none=True,
        metadata={"description": "probe numbers; empty = every sensor"},
    )
    startTime = ma.fields.AwareDateTime(required=True)
    endTime = ma.fields.AwareDateTime(required=True)
    fileType = ma.fields.String(required=True, validate=validate.OneOf([t.value for t in FileType]))
    unit = ma.fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.OneOf(["C", "F"]),
        metadata={"description": "temperature unit; default: the account's"},
    )

    @ma.validates_schema
    def ordered(self, data, **kwargs):
        if data["endTime"] <= data["startTime"]:
            raise ma.ValidationError(gettext("The end time must be after the start time."), "endTime")
        if (data["endTime"] - data["startTime"]).days > MAX_RANGE_DAYS:
            raise ma.ValidationError(gettext("The range may not exceed one year."), "endTime")


class ExportFileSchema(Schema):
    id = ma.fields.Integer()
    fileName = ma.fields.String(attribute="name")
    fileType = ma.fields.Function(lambda f: f.file_type.value)
    status = ma.fields.Function(lambda f: f.status.value, metadata={"description": "generating, generated, failed"})
    reason = ma.fields.String(allow_none=True, metadata={"description": "why it failed"})
    progress = ma.fields.Integer(metadata={"description": "percent"})
    fileSize = ma.fields.Integer(attribute="size", allow_none=True, metadata={"description": "bytes"})
    scheduledReportId = ma.fields.Integer(attribute="scheduled_report_id", allow_none=True)
    createTime = LocalDateTime(attribute="created_at")
    finishTime = LocalDateTime(attribute="finished_at", allow_none=True)
    expireTime = LocalDateTime(attribute="expires_at", allow_none=True)


class FilePageQuerySchema(PageQuerySchema):
    status = ma.fields.String(
        load_default=None, allow_none=True, validate=validate.OneOf([s.value for s in FileStatus])
    )


class ReceiverSchema(Schema):
    name = ma.fields.String(required=True, validate=validate.Length(min=1, max=50))
    phone = Phone(load_default=None, allow_none=True)
    email = LowerEmail(load_default=None, allow_none=True)

    @ma.pre_load
    def blanks(self, data, **kwargs):
        if isinstance(data, dict):
            return {k: (None if k in ("phone", "email") and v == "" else v) for k, v in data.items()}
        return data

    @ma.validates_schema
    def reachable(self, data, **kwargs):
        if not data.get("phone") and not data.get("email"):
            raise ma.ValidationError(gettext("Enter a phone number or an email address."), "phone")


class ScheduledReportInputSchema(Schema):
    reportName = ma.fields.String(required=True, validate=validate.Length(min=1, max=20))
    reportType = ma.fields.String(load_default="device", validate=validate.Length(min=1, max=20))
    fileType = ma.fields.String(load_default="pdf", validate=validate.OneOf([t.value for t in FileType]))
    frequency = ma.fields.String(required=True, validate=validate.OneOf([f.value for f in Frequency]))
    receivers = ma.fields.List(ma.fields.Nested(ReceiverSchema), required=True, validate=validate.Length(min=1, max=20))
    deviceIds = ma.fields.List(ma.fields.Integer(), required=True, validate=validate.Length(min=1, max=20))
    nextReportTime = ma.fields.AwareDateTime(required=True)

    @ma.pre_load
    def trim(self, data, **kwargs):
        if isinstance(data, dict) and isinstance(data.get("reportName"), str):
            data = {**data, "reportName": data["reportName"].strip()}
        return data

    @ma.validates_schema
    def unique_receivers(self, data, **kwargs):
        """Spec: a duplicate receiver phone or email is refused."""
        phones, emails = set(), set()
        for receiver in data.get("receivers") or []:
            phone, email = receiver.get("phone"), receiver.get("email")
            if (phone and phone in phones) or (email and email in emails):
                raise ma.ValidationError(gettext("Duplicate receiver phone or email."), "receivers")
            if phone:
                phones.add(phone)
            if email:
                emails.add(email)


class ScheduledReportUpdateSchema(ScheduledReportInputSchema):
    id = ma.fields.Integer(required=True)


class ReceiverOutSchema(Schema):
    name = ma.fields.String()
    phone = ma.fields.String(allow_none=True)
    email = ma.fields.String(allow_none=True)


class ScheduledReportSchema(Schema):
    id = ma.fields.Integer()
    reportName = ma.fields.String(attribute="report_name")
    reportType = ma.fields.String(attribute="report_type")
    fileType = ma.fields.Function(lambda r: r.file_type.value)
    frequency = ma.fields.Function(lambda r: r.frequency.value)
    receivers = ma.fields.List(ma.fields.Nested(ReceiverOutSchema))
    deviceIds = ma.fields.List(ma.fields.Integer(), attribute="device_ids")
    nextReportTime = LocalDateTime(attribute="next_report_time")
    timeZone = ma.fields.String(attribute="time_zone")
    lastFileId = ma.fields.Integer(attribute="last_file_id", allow_none=True)
    createTime = LocalDateTime(attribute="created_at")


class ReportPageQuerySchema(PageQuerySchema):
    reportName = ma.fields.String(load_default=None, allow_none=True)


class ReportKindSchema(Schema):
    key = ma.fields.String()
    label = ma.fields.String()
