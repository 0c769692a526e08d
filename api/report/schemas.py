from __future__ import annotations

import marshmallow as ma
from flask_babel import gettext
from marshmallow import validate

from api.extensions.crud import record_id
from api.extensions.integers import Integer
from api.extensions.smorest import LocalDateTime, PageQuerySchema, Schema
from api.extensions.validation_messages import ItemCount
from api.identity.validators import LowerEmail, Phone
from api.report.kinds import schedule_target
from api.report.models import FileStatus, FileType, Frequency

MAX_RANGE_DAYS = 366
# What exports and scheduled reports are written as (zip is a scheduled backup's archive only).
REPORT_FILE_TYPES = [FileType.CSV.value, FileType.XLSX.value, FileType.PDF.value]


class ExportRequestSchema(Schema):
    deviceIds = ma.fields.List(Integer(), required=True, validate=ItemCount(min=1, max=20))
    sensors = ma.fields.List(
        Integer(validate=validate.Range(min=1)),
        load_default=None,
        allow_none=True,
        metadata={"description": "probe numbers; empty = every sensor"},
    )
    startTime = ma.fields.AwareDateTime(required=True)
    endTime = ma.fields.AwareDateTime(required=True)
    fileType = ma.fields.String(required=True, validate=validate.OneOf(REPORT_FILE_TYPES))
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
    id = Integer()
    fileName = ma.fields.String(attribute="name")
    fileType = ma.fields.Function(lambda f: f.file_type.value)
    status = ma.fields.Function(lambda f: f.status.value, metadata={"description": "generating, generated, failed"})
    reason = ma.fields.String(allow_none=True, metadata={"description": "why it failed"})
    progress = Integer(metadata={"description": "percent"})
    fileSize = Integer(attribute="size", allow_none=True, metadata={"description": "bytes"})
    scheduledReportId = Integer(attribute="scheduled_report_id", allow_none=True)
    backupScheduleId = Integer(attribute="backup_schedule_id", allow_none=True)
    contentHash = ma.fields.String(
        attribute="content_hash", allow_none=True, metadata={"description": "SHA-256 of the generated file"}
    )
    version = Integer(metadata={"description": "1 + earlier files of the same name (never regenerated in place)"})
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
    fileType = ma.fields.String(load_default="pdf", validate=validate.OneOf(REPORT_FILE_TYPES))
    frequency = ma.fields.String(required=True, validate=validate.OneOf([f.value for f in Frequency]))
    receivers = ma.fields.List(ma.fields.Nested(ReceiverSchema), required=True, validate=ItemCount(min=1, max=20))
    deviceIds = ma.fields.List(
        Integer(),
        load_default=list,
        validate=ItemCount(max=20),
        metadata={"description": "the devices of a device report (at least one)"},
    )
    storageId = Integer(
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=1),
        metadata={"description": "the cold storage, freezer or virtual storage of a storage report"},
    )
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
    id = record_id()


class ReceiverOutSchema(Schema):
    name = ma.fields.String()
    phone = ma.fields.String(allow_none=True)
    email = ma.fields.String(allow_none=True)


class ScheduledReportSchema(Schema):
    id = Integer()
    reportName = ma.fields.String(attribute="report_name")
    reportType = ma.fields.String(attribute="report_type")
    fileType = ma.fields.Function(lambda r: r.file_type.value)
    frequency = ma.fields.Function(lambda r: r.frequency.value)
    receivers = ma.fields.List(ma.fields.Nested(ReceiverOutSchema))
    deviceIds = ma.fields.Method("device_ids", metadata={"type": "array", "items": {"type": "integer"}})
    storageId = ma.fields.Method(
        "storage_id", allow_none=True, metadata={"type": "integer", "description": "a storage report's storage"}
    )
    nextReportTime = LocalDateTime(attribute="next_report_time")
    timeZone = ma.fields.String(attribute="time_zone")
    lastFileId = Integer(attribute="last_file_id", allow_none=True)
    createTime = LocalDateTime(attribute="created_at")

    def device_ids(self, report) -> list[int]:
        return report.subject_ids if schedule_target(report.report_type) is None else []

    def storage_id(self, report) -> int | None:
        target = schedule_target(report.report_type)
        return report.subject_ids[0] if target is not None and target.field == "storageId" else None


class ReportPageQuerySchema(PageQuerySchema):
    reportName = ma.fields.String(load_default=None, allow_none=True)


class ReportKindSchema(Schema):
    key = ma.fields.String()
    label = ma.fields.String()


# ---- scheduled backups ------------------------------------------------------------------------------

BACKUP_NAME_MAX = 20
BACKUP_KEEP_MAX = 30


class BackupScheduleInputSchema(Schema):
    name = ma.fields.String(required=True, validate=validate.Length(min=1, max=BACKUP_NAME_MAX))
    frequency = ma.fields.String(required=True, validate=validate.OneOf([f.value for f in Frequency]))
    rangeDays = Integer(
        required=True,
        validate=validate.Range(min=1, max=MAX_RANGE_DAYS),
        metadata={"description": "each archive holds the readings of this many days before its run"},
    )
    keepCount = Integer(
        required=True,
        validate=validate.Range(min=1, max=BACKUP_KEEP_MAX),
        metadata={"description": "how many of the newest archives are kept; older ones are removed"},
    )
    enabled = ma.fields.Boolean(load_default=True)
    nextRunTime = ma.fields.AwareDateTime(required=True)

    @ma.pre_load
    def trim(self, data, **kwargs):
        if isinstance(data, dict) and isinstance(data.get("name"), str):
            data = {**data, "name": data["name"].strip()}
        return data


class BackupScheduleUpdateSchema(BackupScheduleInputSchema):
    id = record_id()


class BackupScheduleSchema(Schema):
    id = Integer()
    name = ma.fields.String()
    frequency = ma.fields.Function(lambda s: s.frequency.value)
    rangeDays = Integer(attribute="range_days")
    keepCount = Integer(attribute="keep_count")
    enabled = ma.fields.Boolean()
    nextRunTime = LocalDateTime(attribute="next_run_at")
    timeZone = ma.fields.String(attribute="time_zone")
    lastFileId = Integer(attribute="last_file_id", allow_none=True)
    createTime = LocalDateTime(attribute="created_at")


class BackupPageQuerySchema(PageQuerySchema):
    name = ma.fields.String(load_default=None, allow_none=True)


class BackupArchiveQuerySchema(PageQuerySchema):
    id = Integer(required=True, metadata={"description": "the backup schedule"})


class RestoreFileSchema(Schema):
    file = ma.fields.Raw(metadata={"type": "string", "format": "binary"})


class RestoreQuerySchema(Schema):
    platformId = Integer(
        load_default=None, metadata={"description": "the site to restore onto (default: the operator's)"}
    )


class RestoreResultSchema(Schema):
    account = ma.fields.String()
    devices = Integer()
    readings = Integer()
