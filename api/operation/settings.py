"""/operation/system/manage: per-platform settings (the operator only).

Default time zone and language, registration switch, SMS / voice / email providers with a test
message, and the WeChat / QQ / Facebook sign-in apps (a site's login page shows exactly the social
buttons it has an app for). Secrets (provider secrets, SMTP password, app secrets) are write-only:
answers say only whether one is set; sending an empty value keeps the stored one, null clears it.
"""

from __future__ import annotations

from flask.views import MethodView
from flask_babel import gettext

from api.extensions.db import db
from api.extensions.smorest import ApiError, Blueprint, ErrorEnvelopeSchema
from api.identity.staff import staff_scope
from api.notify.adapters import DeliveryError, Outgoing, send_email, send_via_http_provider
from api.notify.models import Channel
from api.operation.providers import adapter_settings
from api.operation.schemas import (
    PROVIDERS,
    SECRETS,
    SettingsInputSchema,
    SettingsQuerySchema,
    SettingsSchema,
    TestMessageSchema,
    TestResultSchema,
)
from api.operation.settings_models import PlatformSetting
from api.platform.models import Platform

blp = Blueprint(
    "operation_settings", __name__, url_prefix="/api/operation/SystemSetting", description="Per-platform settings"
)
KEY = "operation.device.systemManage"
# Settings every visitor of the site sees (its branding answer): field -> platform column.
SITE_SETTINGS = {
    "plcUrl": "plc_url",
    "calibrationUrl": "calibration_url",
    "cloudControlYearlyPrice": "cloud_control_yearly_price",
}


def _platform(platform_id: int) -> tuple[Platform, PlatformSetting]:
    staff_scope(operator_only=True)
    platform = db.session.get(Platform, platform_id)
    if platform is None:
        raise ApiError(gettext("The requested resource does not exist."), code=404, http_status=404)
    setting = db.session.get(PlatformSetting, platform.id) or PlatformSetting(platform_id=platform.id, providers={})
    return platform, setting


def _public(platform: Platform, setting: PlatformSetting) -> dict:
    providers = setting.providers or {}
    shown = {}
    for channel, secrets in SECRETS.items():
        values = dict(providers.get(channel) or {})
        for secret in secrets:
            values[f"has{secret.capitalize()}"] = bool(values.pop(secret, None))
        shown[channel] = values
    social = {
        name: {"clientId": conf.get("clientId"), "hasClientSecret": bool(conf.get("clientSecret"))}
        for name, conf in (platform.oauth or {}).items()
        if name in PROVIDERS
    }
    return {
        "platformId": platform.id,
        "defaultTimeZone": setting.default_time_zone or "Asia/Shanghai",
        "defaultLocale": platform.default_locale,
        "enableRegister": platform.enable_register,
        "plcUrl": platform.plc_url,
        "calibrationUrl": platform.calibration_url,
        "cloudControlYearlyPrice": platform.cloud_control_yearly_price,
        **shown,
        "social": social,
    }


def _merge(stored: dict, sent: dict, secrets: tuple[str, ...]) -> dict:
    merged = dict(stored or {})
    for field, value in sent.items():
        if field in secrets and value == "":
            continue  # an empty secret field keeps the stored secret
        if value is None:
            merged.pop(field, None)
        else:
            merged[field] = value
    return merged


@blp.route("/get")
class SettingsGet(MethodView):
    @blp.requires(f"{KEY}.query")
    @blp.arguments(SettingsQuerySchema, location="query")
    @blp.response(200, SettingsSchema)
    @blp.alt_response(403, schema=ErrorEnvelopeSchema, description="Not the platform operator")
    def get(self, args):
        """A platform's settings (secrets only as has... flags)."""
        return _public(*_platform(args["platformId"]))


@blp.route("/save")
class SettingsSave(MethodView):
    @blp.requires(f"{KEY}.edit")
    @blp.arguments(SettingsInputSchema)
    @blp.response(200, SettingsSchema)
    @blp.alt_response(403, schema=ErrorEnvelopeSchema, description="Not the platform operator")
    def put(self, args):
        """Change the settings sent; secrets are write-only."""
        platform, setting = _platform(args["platformId"])
        if "defaultTimeZone" in args:
            setting.default_time_zone = args["defaultTimeZone"]
        if "defaultLocale" in args:
            platform.default_locale = args["defaultLocale"]
        if "enableRegister" in args:
            platform.enable_register = args["enableRegister"]
        for field, column in SITE_SETTINGS.items():
            if field in args:
                setattr(platform, column, args[field])
        providers = dict(setting.providers or {})
        for channel, secrets in SECRETS.items():
            if channel in args:
                sent = {("from" if k == "sender" else k): v for k, v in args[channel].items()}
                providers[channel] = _merge(providers.get(channel, {}), sent, secrets)
        setting.providers = providers
        if "social" in args:
            oauth = dict(platform.oauth or {})
            for name, sent in args["social"].items():
                oauth[name] = _merge(oauth.get(name, {}), sent, ("clientSecret",))
            platform.oauth = oauth
        if "enableRegister" in args or "defaultLocale" in args or "social" in args:
            platform.page_managed = True  # the page's from now on (docs/tenants.md: the page wins)
        db.session.add(setting)
        db.session.commit()
        return _public(platform, setting)


@blp.route("/sendTest")
class SettingsSendTest(MethodView):
    @blp.requires(f"{KEY}.edit")
    @blp.arguments(TestMessageSchema)
    @blp.response(200, TestResultSchema)
    @blp.alt_response(403, schema=ErrorEnvelopeSchema, description="Not the platform operator")
    @blp.alt_response(
        424, schema=ErrorEnvelopeSchema, description="The provider refused, cannot be reached or is not configured"
    )
    def post(self, args):
        """Send a test message through the platform's own provider, now (not through the outbox)."""
        platform, setting = _platform(args["platformId"])
        conf = (setting.providers or {}).get(args["channel"]) or {}
        site = platform.title_for(platform.default_locale)
        message = Outgoing(
            channel=Channel(args["channel"]),
            recipient=args["recipient"],
            subject=site,
            body=gettext("Test message from %(site)s: the provider settings work.", site=site),
            sender_name=site,
        )
        settings = adapter_settings(Channel(args["channel"]), conf)
        try:
            if settings is None:
                raise DeliveryError(
                    gettext("No email provider is configured for this platform.")
                    if args["channel"] == "email"
                    else gettext("No SMS or voice provider is configured for this platform.")
                )
            send = send_email if args["channel"] == "email" else send_via_http_provider
            provider_id = send(message, settings)
        except DeliveryError as exc:
            raise ApiError(
                gettext("The test message was not sent: %(reason)s", reason=str(exc)), code=424, http_status=424
            ) from exc
        return {"providerId": provider_id}
