from __future__ import annotations

import re
from datetime import date, datetime

import marshmallow as ma
from flask_babel import gettext
from marshmallow import validate

from api.extensions.crud import record_id
from api.extensions.integers import Integer
from api.extensions.smorest import LocalDateTime, PageQuerySchema, Schema
from api.extensions.validation_messages import ItemCount
from api.identity.validators import LowerEmail, Phone
from api.oncall.models import Scope

HHMM = validate.Regexp(r"^([01]\d|2[0-3]):[0-5]\d$")
LANGS = ("zh-CN", "en-US")
SCOPES = [s.value for s in Scope]
_BOUND = re.compile(r"^\d{4}-\d{2}-\d{2}(T([01]\d|2[0-3]):[0-5]\d)?$")


def _bound(text: str) -> None:
    """A local date (a whole day) or date and time to the minute, no offset: the schedule's zone applies."""
    try:
        if not _BOUND.match(text):
            raise ValueError(text)
        (datetime if "T" in text else date).fromisoformat(text)
    except ValueError:
        raise ma.ValidationError(gettext("Enter a date (YYYY-MM-DD) or a date and time (YYYY-MM-DDTHH:MM).")) from None


class PersonSchema(Schema):
    """A user of the account (`accountId`: reached at its phone and email) or a named contact."""

    accountId = Integer(load_default=None, allow_none=True)
    name = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(min=1, max=50))
    phone = Phone(load_default=None, allow_none=True)
    email = LowerEmail(load_default=None, allow_none=True)
    lang = ma.fields.String(load_default="zh-CN", allow_none=True, validate=validate.OneOf(LANGS))

    @ma.pre_load
    def _blank_to_none(self, data, **kwargs):
        if isinstance(data, dict):
            data = {k: (None if k in ("phone", "email", "name") and v == "" else v) for k, v in data.items()}
        return data

    @ma.validates_schema
    def _someone(self, data, **kwargs):
        if data.get("accountId") is not None:
            return
        if not data.get("name"):
            raise ma.ValidationError(gettext("Choose a user or enter a contact's name."), "name")
        if not data.get("phone") and not data.get("email"):
            raise ma.ValidationError(gettext("Enter at least one of phone or email."), "phone")
        data["lang"] = data.get("lang") or "zh-CN"


class RotaEntrySchema(Schema):
    weekday = Integer(required=True, validate=validate.Range(1, 7), metadata={"description": "1 Monday .. 7 Sunday"})
    time = ma.fields.String(required=True, validate=HHMM, metadata={"description": "hand-over, HH:MM local"})
    person = ma.fields.Nested(PersonSchema, required=True)


class OverrideSchema(Schema):
    start = ma.fields.String(required=True, validate=_bound)
    end = ma.fields.String(required=True, validate=_bound, metadata={"description": "an end date includes its day"})
    person = ma.fields.Nested(PersonSchema, required=True)


class OnCallNowSchema(Schema):
    scheduleId = Integer()
    at = LocalDateTime()
    person = ma.fields.Nested(PersonSchema, allow_none=True)
    source = ma.fields.String(allow_none=True, metadata={"description": "rota or override"})
    since = LocalDateTime(allow_none=True)


class OnCallScheduleSchema(Schema):
    id = Integer(attribute="schedule.id")
    name = ma.fields.String(attribute="schedule.name")
    timeZone = ma.fields.String(attribute="schedule.time_zone")
    scope = ma.fields.String(attribute="schedule.scope")
    organizationId = Integer(attribute="schedule.organization_id", allow_none=True)
    storageId = Integer(attribute="schedule.storage_id", allow_none=True)
    rota = ma.fields.List(ma.fields.Nested(RotaEntrySchema))
    overrides = ma.fields.List(ma.fields.Nested(OverrideSchema))
    onCallNow = ma.fields.Nested(OnCallNowSchema)
    gmtCreate = LocalDateTime(attribute="schedule.created_at")


class OnCallScheduleInputSchema(Schema):
    name = ma.fields.String(required=True, validate=validate.Length(min=1, max=50))
    timeZone = ma.fields.String(required=True, validate=validate.Length(min=1, max=64))
    scope = ma.fields.String(load_default=Scope.SITE.value, validate=validate.OneOf(SCOPES))
    organizationId = Integer(load_default=None, allow_none=True)
    storageId = Integer(load_default=None, allow_none=True)
    rota = ma.fields.List(ma.fields.Nested(RotaEntrySchema), load_default=list, validate=ItemCount(max=100))
    overrides = ma.fields.List(ma.fields.Nested(OverrideSchema), load_default=list, validate=ItemCount(max=200))


class OnCallScheduleUpdateSchema(OnCallScheduleInputSchema):
    id = record_id()


class OnCallSchedulePageQuerySchema(PageQuerySchema):
    name = ma.fields.String(load_default=None, validate=validate.Length(max=50))
    scope = ma.fields.String(load_default=None, validate=validate.OneOf(SCOPES))


class OnCallWhoQuerySchema(Schema):
    id = Integer(required=True, metadata={"description": "the schedule"})
    at = ma.fields.AwareDateTime(
        load_default=None, metadata={"description": "an instant with its offset; omitted: now"}
    )


class OnCallPeopleQuerySchema(Schema):
    pass
