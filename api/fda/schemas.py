"""Schemas of the FDA area (business-domain section 3: Endorsement: endorsementName, description;
Electronic signature: fileName, collectBegin, collectEnd, creator, assignState, checkUserName,
checkPassword). Endorsement name and description at most 50 (section 5)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import validate

from api.extensions.crud import record_id
from api.extensions.integers import Integer
from api.extensions.smorest import LocalDateTime, PageQuerySchema, Schema
from api.fda.models import IDLE_MINUTES_MAX, IDLE_MINUTES_MIN, SignState, StepRole, SubjectType
from api.fda.sequence import MAX_STEPS
from api.fda.services import local_text
from api.fda.workflow import role_name


class CredentialsSchema(Schema):
    """The two components of the electronic signature, entered again for every signing (11.200)."""

    checkUserName = ma.fields.String(required=True, validate=validate.Length(min=1, max=50))
    checkPassword = ma.fields.String(required=True, load_only=True, validate=validate.Length(min=1, max=128))


class OffRequestSchema(Schema):
    """A pending request to turn an owner's FDA mode off (api/fda/mode_off.py)."""

    id = Integer()
    ownerUserName = ma.fields.String()
    ownerAccountId = Integer()
    requestedBy = ma.fields.String(allow_none=True)
    requestedAt = LocalDateTime()
    reason = ma.fields.String()


class FdaConfigSchema(Schema):
    enabled = ma.fields.Boolean()
    pendingOff = ma.fields.Nested(OffRequestSchema, allow_none=True)
    changedAt = LocalDateTime(allow_none=True)
    changedBy = ma.fields.String(allow_none=True)
    userName = ma.fields.String()
    printedName = ma.fields.String()
    idleMinutes = Integer()
    passwordLifetimeDays = Integer()


class IdleMinutesSchema(Schema):
    idleMinutes = Integer(required=True, validate=validate.Range(min=IDLE_MINUTES_MIN, max=IDLE_MINUTES_MAX))


class FdaConfigUpdateSchema(CredentialsSchema):
    enabled = ma.fields.Boolean(required=True)
    reason = ma.fields.String(required=True, validate=validate.Length(min=1, max=200))


class OffApprovalSchema(CredentialsSchema):
    """The second person's signature on a request to turn FDA mode off: the meaning of the signature."""

    requestId = record_id()
    meaning = ma.fields.String(required=True, validate=validate.Length(min=1, max=200))


class OffRequestIdSchema(Schema):
    requestId = record_id()


class EndorsementSchema(Schema):
    id = Integer()
    endorsementName = ma.fields.String(attribute="name")
    description = ma.fields.String()
    gmtCreate = LocalDateTime(attribute="created_at")


class EndorsementInputSchema(Schema):
    endorsementName = ma.fields.String(required=True, validate=validate.Length(min=1, max=50))
    description = ma.fields.String(load_default="", validate=validate.Length(max=50))


class EndorsementUpdateSchema(EndorsementInputSchema):
    id = record_id()


class EndorsementQuerySchema(PageQuerySchema):
    endorsementName = ma.fields.String(load_default=None, validate=validate.Length(max=50))


class EndorsementIdSchema(Schema):
    endorsementId = Integer(required=True)


class SignatureSchema(Schema):
    step = Integer()
    role = ma.fields.String()
    roleName = ma.fields.Function(lambda s: role_name(s.role))
    printedName = ma.fields.String(attribute="printed_name")
    userName = ma.fields.String(attribute="user_name")
    # The signer's account id, printed beside the name: it never passes to anyone else (11.100(a)).
    signerAccountId = Integer(attribute="signer_account_id", allow_none=True)
    meaning = ma.fields.String()
    meaningDescription = ma.fields.String(attribute="meaning_description")
    signedAt = LocalDateTime(attribute="signed_at")
    # The manifestation's date and time: in the signer's zone, with the zone's name and offset.
    signedAtText = ma.fields.Function(lambda s: local_text(s.signed_at, s.time_zone))
    timeZone = ma.fields.String(attribute="time_zone")
    recordHash = ma.fields.String(attribute="record_hash")
    readings = Integer()
    signatureHash = ma.fields.String(attribute="signature_hash")


class ManifestationSchema(Schema):
    """A step's signature as manifested (11.50): printed name, account id, time with zone, meaning."""

    printedName = ma.fields.String()
    userName = ma.fields.String()
    accountId = Integer(allow_none=True)
    signedAt = LocalDateTime()
    signedAtText = ma.fields.String()
    timeZone = ma.fields.String()
    meaning = ma.fields.String()
    meaningDescription = ma.fields.String()


class FileStepSchema(Schema):
    """A step of a file's signing sequence: signed, current (next to sign) or pending."""

    step = Integer()
    role = ma.fields.String()
    roleName = ma.fields.String()
    state = ma.fields.String()
    assigneeId = Integer(allow_none=True)
    assignee = ma.fields.String(allow_none=True)
    signature = ma.fields.Nested(ManifestationSchema, allow_none=True)


class SequenceStepSchema(Schema):
    step = Integer()
    role = ma.fields.String()
    roleName = ma.fields.String()
    endorsementIds = ma.fields.List(Integer())
    signerIds = ma.fields.List(Integer())


class SequenceSchema(Schema):
    configured = ma.fields.Boolean()
    steps = ma.fields.List(ma.fields.Nested(SequenceStepSchema))


class SequenceStepInputSchema(Schema):
    role = ma.fields.String(required=True, validate=validate.OneOf([r.value for r in StepRole]))
    endorsementIds = ma.fields.List(Integer(), load_default=list, validate=validate.Length(max=50))
    signerIds = ma.fields.List(Integer(), load_default=list, validate=validate.Length(max=200))


class SequenceInputSchema(Schema):
    steps = ma.fields.List(
        ma.fields.Nested(SequenceStepInputSchema), required=True, validate=validate.Length(min=1, max=MAX_STEPS)
    )


class IntegritySchema(Schema):
    intact = ma.fields.Boolean()
    signatureValid = ma.fields.Boolean()
    currentHash = ma.fields.String()
    currentReadings = Integer()
    lateReadings = Integer()


class DataFileSchema(Schema):
    id = Integer(attribute="file.id")
    fileName = ma.fields.String(attribute="file.file_name")
    subjectType = ma.fields.String(attribute="file.subject_type")
    subjectId = Integer(attribute="file.subject_id")
    collectBegin = LocalDateTime(attribute="file.collect_begin")
    collectEnd = LocalDateTime(attribute="file.collect_end")
    timeZone = ma.fields.String(attribute="file.time_zone")
    creator = ma.fields.String()
    checkerId = Integer(attribute="file.checker_account_id", allow_none=True)
    checker = ma.fields.String(allow_none=True)
    assignState = ma.fields.String(attribute="file.assign_state")
    signState = ma.fields.String(attribute="file.sign_state")
    exportFileId = Integer(attribute="file.export_file_id", allow_none=True)
    mine = ma.fields.Boolean()
    canSign = ma.fields.Boolean()
    signature = ma.fields.Nested(SignatureSchema, allow_none=True)
    integrity = ma.fields.Nested(IntegritySchema, allow_none=True)
    steps = ma.fields.List(ma.fields.Nested(FileStepSchema))
    nextStep = ma.fields.Nested(FileStepSchema, allow_none=True)
    gmtCreate = LocalDateTime(attribute="file.created_at")


class DataFileInputSchema(Schema):
    fileName = ma.fields.String(required=True, validate=validate.Length(min=1, max=100))
    subjectType = ma.fields.String(
        load_default=SubjectType.DEVICE.value, validate=validate.OneOf([s.value for s in SubjectType])
    )
    subjectId = Integer(required=True)
    collectBegin = ma.fields.AwareDateTime(required=True)
    collectEnd = ma.fields.AwareDateTime(required=True)


class DataFileUpdateSchema(Schema):
    id = record_id()
    fileName = ma.fields.String(required=True, validate=validate.Length(min=1, max=100))
    collectBegin = ma.fields.AwareDateTime(required=True)
    collectEnd = ma.fields.AwareDateTime(required=True)


class DataFileQuerySchema(PageQuerySchema):
    fileName = ma.fields.String(load_default=None, validate=validate.Length(max=100))
    signState = ma.fields.String(load_default=None, validate=validate.OneOf([s.value for s in SignState]))


class DataFileIdSchema(Schema):
    fileId = Integer(required=True)


class AssignSchema(Schema):
    id = Integer(required=True)
    checkerId = Integer(required=True)
    # The step assigned (the file's current one when not given); later steps may be assigned ahead.
    step = Integer(load_default=None, validate=validate.Range(min=1, max=MAX_STEPS))


class SignSchema(CredentialsSchema):
    id = Integer(required=True)
    endorsementId = Integer(required=True)
    # The step the signer means to sign: refused unless it is the file's current step.
    step = Integer(load_default=None, validate=validate.Range(min=1, max=MAX_STEPS))
    reason = ma.fields.String(load_default=None, validate=validate.Length(max=200))


class CheckerSchema(Schema):
    id = Integer()
    userName = ma.fields.String(attribute="user_name")
    realName = ma.fields.String(attribute="real_name", allow_none=True)


class VerifyQuerySchema(Schema):
    code = ma.fields.String(required=True, validate=validate.Length(min=8, max=32))


class VerifyVersionQuerySchema(VerifyQuerySchema):
    """One stored version of a signed file, named by the verification code and its number."""

    version = Integer(required=True, validate=validate.Range(min=1, max=100_000))


class VersionSealSchema(Schema):
    """One version's stored PDF checked as a PDF reader would (api/seals/pdf.py)."""

    version = Integer()
    pdfHash = ma.fields.String()
    hashMatches = ma.fields.Boolean()
    sealValid = ma.fields.Boolean()
    intact = ma.fields.Boolean()
    trusted = ma.fields.Boolean()
    timestampValid = ma.fields.Boolean()
    sealSubject = ma.fields.String(allow_none=True)
    timestampAt = ma.fields.DateTime(allow_none=True)


class FrozenSensorSchema(Schema):
    deviceName = ma.fields.String()
    name = ma.fields.String()
    unit = ma.fields.String()
    lower = ma.fields.Float(allow_none=True)
    upper = ma.fields.Float(allow_none=True)
    excursions = Integer()
    secondsAbove = ma.fields.Float()
    secondsBelow = ma.fields.Float()


class RecordVersionSchema(Schema):
    """A stored version of a signed file: what it printed, and the hashes written at signing."""

    version = Integer()
    createdAt = LocalDateTime()
    reason = ma.fields.String()
    pdfHash = ma.fields.String()
    snapshotHash = ma.fields.String()
    sealHash = ma.fields.String()
    intact = ma.fields.Boolean()
    # The site's seal certificate and the trusted (RFC 3161) time of the seal.
    sealSubject = ma.fields.String(allow_none=True)
    timestampAt = ma.fields.DateTime(allow_none=True)
    deviceNames = ma.fields.List(ma.fields.String())
    timeZone = ma.fields.String(allow_none=True)
    readings = Integer(allow_none=True)
    recordHash = ma.fields.String(allow_none=True)
    sensors = ma.fields.List(ma.fields.Nested(FrozenSensorSchema))


class PublicVerificationSchema(Schema):
    fileName = ma.fields.String(attribute="file.file_name")
    collectBegin = LocalDateTime(attribute="file.collect_begin")
    collectEnd = LocalDateTime(attribute="file.collect_end")
    signature = ma.fields.Nested(SignatureSchema)
    # Every step's signature, in order (the last one is `signature`).
    signatures = ma.fields.List(ma.fields.Nested(SignatureSchema))
    integrity = ma.fields.Nested(IntegritySchema)
    documentHash = ma.fields.String(allow_none=True)
    versions = ma.fields.List(ma.fields.Nested(RecordVersionSchema))
