"""Fields of the platform customization form (business-domain sections 3 and 5)."""

from __future__ import annotations

import re

import marshmallow as ma
from flask import current_app
from flask_babel import gettext
from marshmallow import validate

from api.extensions.crud import record_id
from api.extensions.field_rules import validate_colour
from api.extensions.integers import Integer
from api.extensions.smorest import LocalDateTime, PageQuerySchema, Schema
from api.identity.validators import LowerEmail, Phone, validate_user_name
from api.platform.schemas import LOCALES, BrandingSchema
from api.platform.styles import style_model_names

HOST = re.compile(r"^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$")
LOGIN_PAGES = ("default", "simple")
# Upload fields and the kind of file each takes (api/extensions/uploads.py: icon 1 MB, image 2 MB).
UPLOAD_FIELDS = {"loginLogo": "image", "indexLogo": "image", "loginBackground": "image", "browserLogo": "icon"}
# What a reseller admin may change on their own platform (the reduced form); the rest is the operator's.
RESELLER_FIELDS = frozenset(
    {"id", "enterpriseName", "title", "loginPage", "themeColor", "styleModel", "defaultLocale", *UPLOAD_FIELDS}
    | {"recordCompany", "recordNumber", "recordLink", "companyAddress", "taxId"}
)


def validate_host(value: str) -> None:
    if not HOST.match(value or ""):
        raise ma.ValidationError(gettext("Please enter a valid domain name, e.g. acme.example.com."))


def validate_style(value: str) -> None:
    known = style_model_names(current_app.config["THEMES_DIR"])
    if value not in known:
        raise ma.ValidationError(gettext("Unknown style template; choose one of: %(names)s.", names=", ".join(known)))


def not_blank(value: str) -> None:
    if not (value or "").strip():
        raise ma.ValidationError(gettext("This field may not be empty."))


class Host(ma.fields.String):
    """A host name, compared and stored in lower case without a trailing dot."""

    def _deserialize(self, value, attr, data, **kwargs):
        return super()._deserialize(value, attr, data, **kwargs).strip().lower().rstrip(".")


class AdminSchema(Schema):
    """The reseller's admin: an existing account of the platform's data space (by user name) or a new one."""

    userName = ma.fields.String(required=True, validate=validate_user_name)
    realName = ma.fields.String(load_default=None, validate=validate.Length(max=20))
    email = LowerEmail(load_default=None, validate=validate.Length(max=254))
    phone = Phone(load_default=None)

    @ma.validates_schema
    def contact_needed(self, data, **kwargs):
        if not data.get("email") and not data.get("phone"):
            raise ma.ValidationError(gettext("Enter an email address or a phone number."), "email")


class CustomPageInputSchema(Schema):
    """Every field of the form; insert requires what a site cannot run without."""

    enterpriseName = ma.fields.String(required=True, validate=[validate.Length(min=1, max=100), not_blank])
    title = ma.fields.Dict(
        keys=ma.fields.String(validate=validate.OneOf(LOCALES)),
        values=ma.fields.String(validate=[validate.Length(min=1, max=100), not_blank]),
        required=True,
        validate=validate.Length(min=1),
        metadata={"description": 'Per language: {"zh-CN": "...", "en-US": "..."}'},
    )
    topDomain = Host(required=True, validate=validate_host)
    domains = ma.fields.List(Host(validate=validate_host), load_default=list, validate=validate.Length(max=10))
    https = ma.fields.Boolean(required=True)
    loginPage = ma.fields.String(required=True, validate=validate.OneOf(LOGIN_PAGES))
    themeColor = ma.fields.String(required=True, validate=validate_colour)
    styleModel = ma.fields.String(required=True, validate=validate_style)
    defaultLocale = ma.fields.String(load_default="zh-CN", validate=validate.OneOf(LOCALES))
    enableRegister = ma.fields.Boolean(required=True)
    independent = ma.fields.Boolean(required=True)
    loginLogo = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=255))
    indexLogo = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=255))
    loginBackground = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=255))
    browserLogo = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=255))
    recordCompany = ma.fields.String(load_default=None, allow_none=True, validate=[validate.Length(max=100), not_blank])
    recordNumber = ma.fields.String(load_default=None, allow_none=True, validate=[validate.Length(max=100), not_blank])
    recordLink = ma.fields.Url(load_default=None, allow_none=True, validate=validate.Length(max=255))
    remark = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(min=1, max=50))
    companyAddress = ma.fields.String(
        load_default=None,
        allow_none=True,
        validate=[validate.Length(max=200), not_blank],
        metadata={"description": "the seller's address on receipts"},
    )
    taxId = ma.fields.String(
        load_default=None,
        allow_none=True,
        validate=[validate.Length(max=30), not_blank],
        metadata={"description": "the seller's tax id on receipts"},
    )
    admin = ma.fields.Nested(AdminSchema, load_default=None, allow_none=True)


class CustomPageUpdateSchema(CustomPageInputSchema):
    """Only the fields sent change (a reseller admin may send only those of the reduced form)."""

    id = record_id()

    def __init__(self, *args, **kwargs):
        optional = tuple(name for name in CustomPageInputSchema._declared_fields if name != "id")
        super().__init__(*args, partial=optional, **kwargs)


class CustomPagePageQuerySchema(PageQuerySchema):
    keyword = ma.fields.String(load_default=None, validate=validate.Length(max=100))


class CustomPageIdSchema(Schema):
    id = Integer(required=True, validate=validate.Range(min=1, max=2**31 - 1))


class UploadFormSchema(Schema):
    field = ma.fields.String(required=True, validate=validate.OneOf(list(UPLOAD_FIELDS)))


class UploadFileSchema(Schema):
    file = ma.fields.Raw(metadata={"type": "string", "format": "binary"})


class UploadedSchema(Schema):
    url = ma.fields.String()
    field = ma.fields.String()


class CustomPageSchema(BrandingSchema):
    """A platform as the customization page shows it (never its social sign-in secrets)."""

    titles = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.String())
    pageManaged = ma.fields.Boolean(attribute="page_managed")
    companyAddress = ma.fields.String(attribute="company_address", allow_none=True)
    taxId = ma.fields.String(attribute="tax_id", allow_none=True)
    adminAccountId = Integer(attribute="admin_account_id", allow_none=True)
    adminUserName = ma.fields.String(attribute="admin_user_name", allow_none=True)
    closedTime = LocalDateTime(
        attribute="closed_at", allow_none=True, metadata={"description": "switched off since (null: open)"}
    )


class CustomPageCloseSchema(Schema):
    id = Integer(required=True, validate=validate.Range(min=1, max=2**31 - 1))
    closed = ma.fields.Boolean(required=True, metadata={"description": "true switches the site off"})


class SealSchema(Schema):
    """A site's seal certificate (never its key)."""

    id = Integer()
    platformId = Integer(attribute="platform_id")
    subject = ma.fields.String()
    issuer = ma.fields.String()
    serialNumber = ma.fields.String(attribute="serial_number")
    notBefore = ma.fields.DateTime(attribute="not_before")
    notAfter = ma.fields.DateTime(attribute="not_after")
    origin = ma.fields.String()
    keyId = ma.fields.String(attribute="key_id")
    createdAt = ma.fields.DateTime(attribute="created_at")
    createdBy = Integer(attribute="created_by", allow_none=True)
    certificatePem = ma.fields.String(attribute="certificate_pem")
    chainPem = ma.fields.String(attribute="chain_pem")


class SealUploadSchema(Schema):
    """The site's own certificate: PEM (certificate then chain, and the private key) or PKCS#12."""

    platformId = record_id()
    certificate = ma.fields.String(validate=validate.Length(max=65_536))
    privateKey = ma.fields.String(load_only=True, validate=validate.Length(max=16_384))
    keyPassword = ma.fields.String(load_only=True, validate=validate.Length(max=256))
    # The PKCS#12 (.p12 / .pfx) file, base64.
    pkcs12 = ma.fields.String(load_only=True, validate=validate.Length(max=131_072))
