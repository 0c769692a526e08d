from __future__ import annotations

import marshmallow as ma
from marshmallow import validate

from api.extensions import outbound
from api.extensions.field_rules import validate_colour
from api.extensions.i18n import locale_tag
from api.extensions.integers import Integer
from api.extensions.smorest import LocalDateTime, Schema

DOMAIN = validate.Regexp(
    r"^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$",
    error="Not a valid domain name.",
)
LOCALES = ("zh-CN", "en-US")
LOGO_KEYS = ("browserLogo", "loginLogo", "indexLogo", "loginBackground")


# The addresses of a social sign-in provider a site may set instead of the provider's own hosts.
OAUTH_URL_KEYS = ("authorizeUrl", "tokenUrl", "userinfoUrl")


class BrandingQuerySchema(Schema):
    topDomain = ma.fields.String(required=True, validate=validate.Length(min=1, max=253))


class BrandingSchema(Schema):
    """What any visitor of a site may know about it (before sign-in)."""

    id = Integer()
    slug = ma.fields.String()
    enterpriseName = ma.fields.String(attribute="enterprise_name")
    topDomain = ma.fields.String(attribute="top_domain")
    domains = ma.fields.Method("dump_domains")
    title = ma.fields.Method("dump_title")
    https = ma.fields.Boolean()
    loginPage = ma.fields.String(attribute="login_page")
    themeColor = ma.fields.String(attribute="theme_color")
    styleModel = ma.fields.String(attribute="style_model")
    defaultLocale = ma.fields.String(attribute="default_locale")
    enableRegister = ma.fields.Boolean(attribute="enable_register")
    defaultCamp = ma.fields.Boolean(attribute="default_camp")
    independent = ma.fields.Boolean()
    browserLogo = ma.fields.String(attribute="browser_logo", allow_none=True)
    loginLogo = ma.fields.String(attribute="login_logo", allow_none=True)
    indexLogo = ma.fields.String(attribute="index_logo", allow_none=True)
    loginBackground = ma.fields.String(attribute="login_background", allow_none=True)
    recordCompany = ma.fields.String(attribute="record_company", allow_none=True)
    recordNumber = ma.fields.String(attribute="record_number", allow_none=True)
    recordLink = ma.fields.String(attribute="record_link", allow_none=True)
    remark = ma.fields.String(allow_none=True)
    socialLogins = ma.fields.Method("dump_social_logins", metadata={"description": "wechat, qq, facebook"})
    plcUrl = ma.fields.String(attribute="plc_url", allow_none=True)
    calibrationUrl = ma.fields.String(attribute="calibration_url", allow_none=True)
    cloudControlYearlyPrice = Integer(
        attribute="cloud_control_yearly_price", allow_none=True, metadata={"description": "cents; null: not shown"}
    )
    gmtCreate = LocalDateTime(attribute="created_at")
    gmtModified = LocalDateTime(attribute="updated_at")

    def dump_social_logins(self, platform) -> list[str]:
        """Which social sign-ins this site offers (names only; the credentials stay server-side)."""
        return sorted(name for name, conf in (platform.oauth or {}).items() if conf.get("clientId"))

    def dump_domains(self, platform) -> list[str]:
        return [d.domain for d in platform.domains]

    def dump_title(self, platform) -> str:
        return platform.title_for(locale_tag())


class TenantRecordSchema(Schema):
    company = ma.fields.String(required=True, validate=validate.Length(min=1, max=100))
    number = ma.fields.String(required=True, validate=validate.Length(min=1, max=100))
    link = ma.fields.Url(required=True)


class TenantSellerSchema(Schema):
    """Who sells on the site's receipts (the enterprise name is the seller's name)."""

    address = ma.fields.String(load_default=None, validate=validate.Length(min=1, max=200))
    taxId = ma.fields.String(load_default=None, validate=validate.Length(min=1, max=30))


class TenantLogosSchema(Schema):
    browserLogo = ma.fields.String(required=True)
    loginLogo = ma.fields.String(required=True)
    indexLogo = ma.fields.String(required=True)
    loginBackground = ma.fields.String(required=True)


class TenantDefinitionSchema(Schema):
    """tenants/<slug>/tenant.json, checked before anything is written to the database."""

    slug = ma.fields.String(required=True, validate=validate.Regexp(r"^[a-z][a-z0-9-]{1,49}$"))
    enterpriseName = ma.fields.String(required=True, validate=validate.Length(min=1, max=100))
    topDomain = ma.fields.String(required=True, validate=DOMAIN)
    domains = ma.fields.List(ma.fields.String(validate=DOMAIN), load_default=list)
    title = ma.fields.Dict(
        keys=ma.fields.String(validate=validate.OneOf(LOCALES)),
        values=ma.fields.String(validate=validate.Length(min=1, max=100)),
        required=True,
        validate=validate.Length(min=1),
    )
    https = ma.fields.Boolean(required=True)
    loginPage = ma.fields.String(required=True, validate=validate.Length(min=1, max=30))
    themeColor = ma.fields.String(required=True, validate=validate_colour)
    styleModel = ma.fields.String(required=True)
    defaultLocale = ma.fields.String(load_default="zh-CN", validate=validate.OneOf(LOCALES))
    enableRegister = ma.fields.Boolean(required=True)
    defaultCamp = ma.fields.Boolean(required=True)
    independent = ma.fields.Boolean(required=True)
    logos = ma.fields.Nested(TenantLogosSchema, required=True)
    record = ma.fields.Nested(TenantRecordSchema, required=True)
    seller = ma.fields.Nested(TenantSellerSchema, load_default=dict)
    remark = ma.fields.String(load_default=None, validate=validate.Length(min=1, max=50))
    oauth = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.Dict(), load_default=dict)

    @ma.validates("oauth")
    def validate_oauth(self, value: dict, **kwargs) -> None:
        """A provider's addresses the api connects to (api/extensions/outbound.py), checked when synced."""
        for provider, conf in value.items():
            for key in OAUTH_URL_KEYS:
                try:
                    outbound.validate_url(conf.get(key))
                except ma.ValidationError as error:
                    raise ma.ValidationError({f"{provider}.{key}": error.messages}) from None

    @ma.validates("styleModel")
    def validate_style_model(self, value: str, **kwargs) -> None:
        known = self.context_style_models
        if value not in known:
            raise ma.ValidationError(f"Unknown style model {value!r}; known: {', '.join(known)}.")

    def __init__(self, *args, style_models: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.context_style_models = style_models
