from __future__ import annotations

from zoneinfo import available_timezones

import marshmallow as ma
from marshmallow import validate

from api.extensions import outbound
from api.extensions.db import utcnow
from api.extensions.integers import Integer
from api.extensions.smorest import LocalDateTime, PageQuerySchema, Schema
from api.identity.models import AccountType, StaffRole
from api.identity.validators import LowerEmail, Phone, validate_password, validate_user_name
from api.platform.schemas import LOCALES

ID = validate.Range(min=1, max=2**31 - 1)
ZONES = sorted(available_timezones())
# Write-only fields of each provider, and the social sign-in apps a site may offer.
SECRETS = {"sms": ("secret",), "voice": ("secret",), "email": ("password",)}
PROVIDERS = ("wechat", "qq", "facebook")


class SystemUserSchema(Schema):
    """An account as the operator's user list shows it (never its password or lock internals)."""

    id = Integer()
    userName = ma.fields.String(attribute="user_name")
    realName = ma.fields.String(attribute="real_name", allow_none=True)
    phone = ma.fields.String(allow_none=True)
    email = ma.fields.String(allow_none=True)
    companyName = ma.fields.String(attribute="company_name", allow_none=True)
    accountType = ma.fields.Enum(AccountType, by_value=True, attribute="account_type")
    staffRole = ma.fields.Enum(StaffRole, by_value=True, attribute="staff_role", allow_none=True)
    platformId = Integer(attribute="platform_id")
    deletedFlag = ma.fields.Boolean(attribute="cancelled")
    locked = ma.fields.Method("dump_locked", metadata={"type": "boolean"})
    lockedUntil = ma.fields.Method("dump_locked_until", metadata={"type": "string", "format": "date-time"})
    timeZone = ma.fields.String(attribute="time_zone")
    gmtCreate = LocalDateTime(attribute="created_at")

    def dump_locked(self, account) -> bool:
        return self.dump_locked_until(account) is not None

    def dump_locked_until(self, account) -> str | None:
        """The password lockout (api/account/throttle.locks_of, set by the list), else the account's own."""
        until = getattr(account, "sign_in_locked_until", None)
        if until is None and account.locked_until and account.locked_until > utcnow():
            until = account.locked_until
        return LocalDateTime().serialize("x", {"x": until}) if until else None


class SystemUserQuerySchema(PageQuerySchema):
    """Filters of `get/list` (and `queryUserByRole`)."""

    keyword = ma.fields.String(
        load_default=None,
        validate=validate.Length(max=50),
        metadata={"description": "user name, real name, phone or email"},
    )
    accountType = ma.fields.Enum(AccountType, by_value=True, load_default=None)
    staffRole = ma.fields.Enum(StaffRole, by_value=True, load_default=None)
    platformId = Integer(load_default=None, validate=ID, metadata={"description": "the operator only"})
    deletedFlag = ma.fields.Boolean(load_default=False)


class UserByRoleQuerySchema(PageQuerySchema):
    staffRole = ma.fields.Enum(StaffRole, by_value=True, required=True)


class SystemUserAddSchema(Schema):
    userName = ma.fields.String(required=True, validate=validate_user_name)
    password = ma.fields.String(required=True, load_only=True, validate=validate_password)
    realName = ma.fields.String(load_default=None, validate=validate.Length(max=20))
    phone = Phone(load_default=None)
    email = LowerEmail(load_default=None, validate=validate.Length(max=254))
    companyName = ma.fields.String(load_default=None, validate=validate.Length(min=2, max=50))
    accountType = ma.fields.Enum(AccountType, by_value=True, load_default=AccountType.ENTERPRISE)
    staffRole = ma.fields.Enum(StaffRole, by_value=True, load_default=None, allow_none=True)
    platformId = Integer(
        load_default=None,
        validate=ID,
        metadata={"description": "the operator only; default: the operator's data space"},
    )


class SystemUserModifySchema(Schema):
    id = Integer(required=True, validate=ID)
    realName = ma.fields.String(validate=validate.Length(max=20), allow_none=True)
    phone = Phone(allow_none=True)
    email = LowerEmail(validate=validate.Length(max=254), allow_none=True)
    companyName = ma.fields.String(validate=validate.Length(min=2, max=50), allow_none=True)
    staffRole = ma.fields.Enum(StaffRole, by_value=True, allow_none=True)


class SystemUserIdSchema(Schema):
    id = Integer(required=True, validate=ID)


class ResetPasswordSchema(Schema):
    """Staff name the account only: nobody chooses or learns its new password (the user sets their own)."""

    id = Integer(required=True, validate=ID)


class ResetPasswordResultSchema(Schema):
    channel = ma.fields.String(metadata={"description": "email or sms: where the user was told"})
    sentTo = ma.fields.String(metadata={"description": "the address or number, masked"})


class UpgradeSchema(Schema):
    id = Integer(required=True, validate=ID)
    companyName = ma.fields.String(required=True, validate=validate.Length(min=2, max=50))


class StaffRoleSchema(Schema):
    staffRole = ma.fields.String()
    permissions = ma.fields.List(ma.fields.String())
    users = Integer()


# ---- /operation/system/manage ----------------------------------------------------------------------


class HttpProviderSchema(Schema):
    url = ma.fields.Url(allow_none=True, validate=[validate.Length(max=255), outbound.validate_url])
    key = ma.fields.String(allow_none=True, validate=validate.Length(max=255))
    secret = ma.fields.String(allow_none=True, load_only=True, validate=validate.Length(max=255))


class EmailProviderSchema(Schema):
    host = ma.fields.String(allow_none=True, validate=[validate.Length(max=255), outbound.validate_mail_host])
    port = Integer(allow_none=True, validate=validate.Range(min=1, max=65535))
    user = ma.fields.String(allow_none=True, validate=validate.Length(max=255))
    password = ma.fields.String(allow_none=True, load_only=True, validate=validate.Length(max=255))
    sender = ma.fields.Email(allow_none=True, data_key="from")
    starttls = ma.fields.Boolean(allow_none=True)


class SocialAppSchema(Schema):
    clientId = ma.fields.String(allow_none=True, validate=validate.Length(max=255))
    clientSecret = ma.fields.String(allow_none=True, load_only=True, validate=validate.Length(max=255))


YEARLY_PRICE = validate.Range(min=1, max=100_000_000)  # cents


class SettingsInputSchema(Schema):
    platformId = Integer(required=True, validate=ID)
    # The external sites of the plc and calibration serve routes and the cloud-control large screen's
    # yearly price in cents (issue 26); null clears one.
    plcUrl = ma.fields.Url(schemes={"http", "https"}, allow_none=True, validate=validate.Length(max=255))
    calibrationUrl = ma.fields.Url(schemes={"http", "https"}, allow_none=True, validate=validate.Length(max=255))
    cloudControlYearlyPrice = Integer(allow_none=True, strict=True, validate=YEARLY_PRICE)
    defaultTimeZone = ma.fields.String(validate=validate.OneOf(ZONES))
    defaultLocale = ma.fields.String(validate=validate.OneOf(LOCALES))
    enableRegister = ma.fields.Boolean()
    sms = ma.fields.Nested(HttpProviderSchema)
    voice = ma.fields.Nested(HttpProviderSchema)
    email = ma.fields.Nested(EmailProviderSchema)
    social = ma.fields.Dict(
        keys=ma.fields.String(validate=validate.OneOf(PROVIDERS)), values=ma.fields.Nested(SocialAppSchema)
    )


class SettingsQuerySchema(Schema):
    platformId = Integer(required=True, validate=ID)


class SettingsSchema(Schema):
    """What the page shows: every value except secrets, for which only `has...` flags."""

    platformId = Integer()
    defaultTimeZone = ma.fields.String()
    defaultLocale = ma.fields.String()
    enableRegister = ma.fields.Boolean()
    plcUrl = ma.fields.String(allow_none=True)
    calibrationUrl = ma.fields.String(allow_none=True)
    cloudControlYearlyPrice = Integer(allow_none=True)
    sms = ma.fields.Dict()
    voice = ma.fields.Dict()
    email = ma.fields.Dict()
    social = ma.fields.Dict()


class TestMessageSchema(Schema):
    platformId = Integer(required=True, validate=ID)
    channel = ma.fields.String(required=True, validate=validate.OneOf(["sms", "voice", "email"]))
    recipient = ma.fields.String(required=True, validate=validate.Length(min=3, max=254))


class TestResultSchema(Schema):
    providerId = ma.fields.String()
