from __future__ import annotations

from zoneinfo import available_timezones

import marshmallow as ma
from marshmallow import validate

from api.extensions.integers import Integer
from api.extensions.smorest import LocalDateTime, Schema
from api.identity.models import AccountType
from api.identity.validators import LowerEmail, Phone, confirm_matches, validate_password, validate_user_name
from api.verification.models import CodePurpose

CODE = validate.Regexp(r"^\d{6}$")


class PasswordLoginSchema(Schema):
    """userName may be the user name, the phone number or the email address."""

    userName = ma.fields.String(required=True, validate=validate.Length(min=1, max=254))
    password = ma.fields.String(required=True, load_only=True, validate=validate.Length(min=1, max=128))
    verifyCode = ma.fields.String(load_default=None, validate=validate.Length(max=10))
    verifyKey = ma.fields.String(load_default=None, validate=validate.Length(max=32))


class EmailLoginSchema(Schema):
    email = LowerEmail(required=True)
    code = ma.fields.String(required=True, validate=CODE)


class TokenSchema(Schema):
    token = ma.fields.String(required=True)


class CodeCaptchaSchema(Schema):
    """Once an address is hot (many codes lately, answer code 1014) a request needs the image captcha."""

    verifyKey = ma.fields.String(load_default=None, validate=validate.Length(max=32))
    verifyCode = ma.fields.String(load_default=None, validate=validate.Length(max=10))


class PhoneCodeQuerySchema(CodeCaptchaSchema):
    phone = Phone(required=True)
    type = ma.fields.Enum(CodePurpose, by_value=True, load_default=CodePurpose.LOGIN)


class EmailCodeQuerySchema(CodeCaptchaSchema):
    email = LowerEmail(required=True)
    type = ma.fields.Enum(CodePurpose, by_value=True, load_default=CodePurpose.LOGIN)


class CodeSentSchema(Schema):
    resendAfter = Integer(required=True, metadata={"description": "seconds before another code"})


class NewPasswordMixin(Schema):
    password = ma.fields.String(required=True, load_only=True, validate=validate_password)
    confirmPassword = ma.fields.String(required=True, load_only=True)

    @ma.validates_schema
    def passwords_match(self, data, **kwargs):
        confirm_matches(data)


class RegisterSchema(NewPasswordMixin):
    accountType = ma.fields.Enum(AccountType, by_value=True, required=True)
    userName = ma.fields.String(required=True, validate=validate_user_name)
    phone = Phone(load_default=None)
    email = LowerEmail(load_default=None)
    code = ma.fields.String(required=True, validate=CODE)
    companyName = ma.fields.String(load_default=None, validate=validate.Length(min=2, max=50))
    realName = ma.fields.String(load_default=None, validate=validate.Length(max=20))

    @ma.validates_schema
    def contact_and_company(self, data, **kwargs):
        from flask_babel import gettext

        if bool(data.get("phone")) == bool(data.get("email")):
            raise ma.ValidationError(gettext("Enter either a phone number or an email address."), "phone")
        if data["accountType"] == AccountType.ENTERPRISE and not data.get("companyName"):
            raise ma.ValidationError(gettext("This field is required."), "companyName")


class ForgotSchema(NewPasswordMixin):
    phone = Phone(load_default=None)
    email = LowerEmail(load_default=None)
    code = ma.fields.String(required=True, validate=CODE)

    @ma.validates_schema
    def one_contact(self, data, **kwargs):
        from flask_babel import gettext

        if bool(data.get("phone")) == bool(data.get("email")):
            raise ma.ValidationError(gettext("Enter either a phone number or an email address."), "phone")


class ChangePasswordSchema(NewPasswordMixin):
    oldPassword = ma.fields.String(required=True, load_only=True, validate=validate.Length(min=1, max=128))


class BindPhoneSchema(Schema):
    phone = Phone(required=True)
    code = ma.fields.String(required=True, validate=CODE)


class BindEmailSchema(Schema):
    email = LowerEmail(required=True)
    code = ma.fields.String(required=True, validate=CODE)


class AccountInfoQuerySchema(Schema):
    timeStamp = Integer(
        load_default=None, metadata={"description": "cache buster (epoch ms), ignored", "format": "int64"}
    )


class BaseAccountSchema(Schema):
    id = Integer(required=True)
    userName = ma.fields.String(attribute="user_name", required=True)
    realName = ma.fields.String(attribute="real_name", allow_none=True)
    accountPhoto = ma.fields.String(attribute="account_photo", allow_none=True)
    accountType = ma.fields.Enum(AccountType, by_value=True, attribute="account_type")
    phone = ma.fields.String(allow_none=True)
    email = ma.fields.String(allow_none=True)
    companyName = ma.fields.String(attribute="company_name", allow_none=True)
    timeZone = ma.fields.String(attribute="time_zone")
    temperatureUnit = ma.fields.String(attribute="temperature_unit")
    prevResetAt = LocalDateTime(attribute="prev_reset_at")


class OrgWithRoleSchema(Schema):
    organizationId = Integer()
    organizationName = ma.fields.String()
    roleName = ma.fields.String()


class UserProfileSchema(Schema):
    homePage = ma.fields.String(required=True)


class AccountInfoSchema(Schema):
    baseAccount = ma.fields.Nested(BaseAccountSchema, required=True)
    permissionRoutes = ma.fields.List(ma.fields.String(), required=True)
    orgWithMyRole = ma.fields.List(ma.fields.Nested(OrgWithRoleSchema), required=True)
    userProfile = ma.fields.Nested(UserProfileSchema, required=True)


class UpdateInfoSchema(Schema):
    """The profile of /consumer/info (business-domain section 5: real name max 20, company 2-50)."""

    realName = ma.fields.String(allow_none=True, validate=validate.Length(max=20))
    companyName = ma.fields.String(allow_none=True, validate=validate.Length(min=2, max=50))
    timeZone = ma.fields.String(validate=validate.OneOf(sorted(available_timezones())))
    temperatureUnit = ma.fields.String(validate=validate.OneOf(["C", "F"]))


class OAuthAuthorizeSchema(Schema):
    url = ma.fields.String(required=True, metadata={"description": "send the browser here"})


class OAuthCallbackSchema(Schema):
    code = ma.fields.String(required=True, validate=validate.Length(min=1, max=512))
    state = ma.fields.String(required=True, validate=validate.Length(min=1, max=128))


class SocialLoginResultSchema(Schema):
    token = ma.fields.String(allow_none=True, metadata={"description": "set when the identity is bound"})
    bindingTicket = ma.fields.String(allow_none=True, metadata={"description": "first time: bind with this"})


class BindingSchema(Schema):
    """Bind a social identity to an existing account (userName + password) or a new one (register)."""

    bindingTicket = ma.fields.String(required=True, validate=validate.Length(min=1, max=128))
    userName = ma.fields.String(load_default=None, validate=validate.Length(min=1, max=254))
    password = ma.fields.String(load_default=None, load_only=True, validate=validate.Length(min=1, max=128))
    register = ma.fields.Nested(RegisterSchema, load_default=None)

    @ma.validates_schema
    def one_way(self, data, **kwargs):
        from flask_babel import gettext

        existing = bool(data.get("userName") and data.get("password"))
        if existing == bool(data.get("register")):
            raise ma.ValidationError(gettext("Sign in with an existing account or register a new one."), "userName")


class OldPlatformLoginSchema(Schema):
    userName = ma.fields.String(required=True, validate=validate.Length(min=1, max=50))
    password = ma.fields.String(required=True, load_only=True, validate=validate.Length(min=1, max=128))
    phone = Phone(load_default=None)
    email = LowerEmail(load_default=None)


class WechatFollowSchema(Schema):
    followed = ma.fields.Boolean(required=True)
    qrCodeUrl = ma.fields.String(allow_none=True, metadata={"description": "the official account's QR code"})


class PhotoUploadSchema(Schema):
    file = ma.fields.Raw(
        required=True, metadata={"type": "string", "format": "binary", "description": "JPG or PNG, at most 2 MB"}
    )


class PhotoSchema(Schema):
    accountPhoto = ma.fields.String(required=True, metadata={"description": "URL of the stored photo"})
