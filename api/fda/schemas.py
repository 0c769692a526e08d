"""Schemas of the FDA area (business-domain section 3: Endorsement: endorsementName, description;
Electronic signature: fileName, collectBegin, collectEnd, creator, assignState, checkUserName,
checkPassword). Endorsement name and description at most 50 (section 5)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import validate

from api.extensions.smorest import LocalDateTime, PageQuerySchema, Schema
from api.fda.models import IDLE_MINUTES_MAX, IDLE_MINUTES_MIN, SignState, SubjectType
from api.fda.services import local_text


class CredentialsSchema(Schema):
    """The two components of the electronic signature, entered again for every signing (11.200)."""

    checkUserName = ma.fields.String(required=True, validate=validate.Length(min=1, max=50))
    checkPassword = ma.fields.String(required=True, load_only=True, validate=validate.Length(min=1, max=128))


class FdaConfigSchema(Schema):
    enabled = ma.fields.Boolean()
    changedAt = LocalDateTime(allow_none=True)
    changedBy = ma.fields.String(allow_none=True)
    userName = ma.fields.String()
    printedName = ma.fields.String()
    idleMinutes = ma.fields.Integer()
    passwordLifetimeDays = ma.fields.Integer()


class IdleMinutesSchema(Schema):
    idleMinutes = ma.fields.Integer(required=True, validate=validate.Range(min=IDLE_MINUTES_MIN, max=IDLE_MINUTES_MAX))


class FdaConfigUpdateSchema(CredentialsSchema):
    enabled = ma.fields.Boolean(required=True)
    reason = ma.fields.String(required=True, validate=validate.Length(min=1, max=200))


class EndorsementSchema(Schema):
    id = ma.fields.Integer()
    endorsementName = ma.fields.String(attribute="name")
    description = ma.fields.String()
    gmtCreate = LocalDateTime(attribute="created_at")


class EndorsementInputSchema(Schema):
    endorsementName = ma.fields.String(required=True, validate=validate.Length(min=1, max=50))
    description = ma.fields.String(load_default="", validate=validate.Length(max=50))


class EndorsementUpdateSchema(EndorsementInputSchema):
    id = ma.fields.Integer(required=True)


class EndorsementQuerySchema(PageQuerySchema):
    endorsementName = ma.fields.String(load_default=None, validate=validate.Length(max=50))


class EndorsementIdSchema(Schema):
    endorsementId = ma.fields.Integer(required=True)


class SignatureSchema(Schema):
    printedName = ma.fields.String(attribute="printed_name")
    userName = ma.fields.String(attribute="user_name")
    meaning = ma.fields.String()
    meaningDescription = ma.fields.String(attribute="meaning_description")
    signedAt = LocalDateTime(attribute="signed_at")
    # The manifestation's date and time: in the signer's zone, with the zone's name and offset.
    signedAtText = ma.fields.Function(lambda s: local_text(s.signed_at, s.time_zone))
    timeZone = ma.fields.String(attribute="time_zone")
    recordHash = ma.fields.String(attribute="record_hash")
    readings = ma.fields.Integer()
    signatureHash = ma.fields.String(attribute="signature_hash")


class IntegritySchema(Schema):
    intact = ma.fields.Boolean()
    signatureValid = ma.fields.Boolean()
    currentHash = ma.fields.String()
    currentReadings = ma.fields.Integer()
    lateReadings = ma.fields.Integer()


class DataFileSchema(Schema):
    id = ma.fields.Integer(attribute="file.id")
    fileName = ma.fields.String(attribute="file.file_name")
    subjectType = ma.fields.String(attribute="file.subject_type")
    subjectId = ma.fields.Integer(attribute="file.subject_id")
    collectBegin = LocalDateTime(attribute="file.collect_begin")
    collectEnd = LocalDateTime(attribute="file.collect_end")
    timeZone = ma.fields.String(attribute="file.time_zone")
    creator = ma.fields.String()
    checkerId = ma.fields.Integer(attribute="file.checker_account_id", allow_none=True)
    checker = ma.fields.String(allow_none=True)
    assignState = ma.fields.String(attribute="file.assign_state")
    signState = ma.fields.String(attribute="file.sign_state")
    exportFileId = ma.fields.Integer(attribute="file.export_file_id", allow_none=True)
    mine = ma.fields.Boolean()
    canSign = ma.fields.Boolean()
    signature = ma.fields.Nested(SignatureSchema, allow_none=True)
    integrity = ma.fields.Nested(IntegritySchema, allow_none=True)
    gmtCreate = LocalDateTime(attribute="file.created_at")


class DataFileInputSchema(Schema):
    fileName = ma.fields.String(required=True, validate=validate.Length(min=1, max=100))
    subjectType = ma.fields.String(
        load_default=SubjectType.DEVICE.value, validate=validate.OneOf([s.value for s in SubjectType])
    )
    subjectId = ma.fields.Integer(required=True)
    collectBegin = ma.fields.AwareDateTime(required=True)
    collectEnd = ma.fields.AwareDateTime(required=True)


class DataFileUpdateSchema(Schema):
    id = ma.fields.Integer(required=True)
    fileName = ma.fields.String(required=True, validate=validate.Length(min=1, max=100))
    collectBegin = ma.fields.AwareDateTime(required=True)
    collectEnd = ma.fields.AwareDateTime(required=True)


class DataFileQuerySchema(PageQuerySchema):
    fileName = ma.fields.String(load_default=None, validate=validate.Length(max=100))
    signState = ma.fields.String(load_default=None, validate=validate.OneOf([s.value for s in SignState]))


class DataFileIdSchema(Schema):
    fileId = ma.fields.Integer(required=True)


class AssignSchema(Schema):
    id = ma.fields.Integer(required=True)
    checkerId = ma.fields.Integer(required=True)


class SignSchema(CredentialsSchema):
    id = ma.fields.Integer(required=True)
    endorsementId = ma.fields.Integer(required=True)
    reason = ma.fields.String(load_default=None, validate=validate.Length(max=200))


class CheckerSchema(Schema):
    id = ma.fields.Integer()
    userName = ma.fields.String(attribute="user_name")
    realName = ma.fields.String(attribute="real_name", allow_none=True)


class VerifyQuerySchema(Schema):
    code = ma.fields.String(required=True, validate=validate.Length(min=8, max=32))


class PublicVerificationSchema(Schema):
    fileName = ma.fields.String(attribute="file.file_name")
    collectBegin = LocalDateTime(attribute="file.collect_begin")
    collectEnd = LocalDateTime(attribute="file.collect_end")
    signature = ma.fields.Nested(SignatureSchema)
    integrity = ma.fields.Nested(IntegritySchema)
    documentHash = ma.fields.String(allow_none=True)
