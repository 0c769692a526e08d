"""The cold-chain monitoring platform api: `create_app(config)` builds it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask
from sqlalchemy.orm import configure_mappers
from werkzeug.routing import IntegerConverter

from api.extensions import api, db, docs_assets, i18n, jsonlimits, migrate, ratelimit, security
from api.extensions.db import ping_when_idle
from api.extensions.proxy import TrustedProxyMiddleware
from api.settings import DEV_SECRET_KEY, ROOT, BaseConfig, config_from_env


def _blueprints():
    """Every area's blueprint, in the order they appear in the API documentation."""
    from api.account.routes import blp as account
    from api.alarm.routes import blp as alarm
    from api.asset.routes import blp as asset
    from api.audit.routes import blp as audit
    from api.billing.routes import blp as billing
    from api.billing.routes_extra import blp as billing_extra
    from api.billing.routes_pay import blp as payment
    from api.calibration.routes import blp as calibration
    from api.customization.routes import blp as customization
    from api.datainterface.routes import blp as datainterface
    from api.device.routes import blp as device
    from api.dictionary.routes import blp as dictionary
    from api.fda.routes import blp as fda
    from api.health.routes import blp as health
    from api.help.routes import blp as help_centre
    from api.notice.routes import blp as notice
    from api.operation.routes import blp as operation_users
    from api.operation.routes import roles as operation_roles
    from api.operation.settings import blp as operation_settings
    from api.organization.routes import blp as organization
    from api.organization.routes import members
    from api.platform.routes import blp as platform
    from api.product.data_api_routes import keys as data_api_keys
    from api.product.data_api_routes import open_api as data_api
    from api.product.firmware_routes import blp as product_firmware
    from api.product.fleet_routes import blp as fleet
    from api.product.overview_routes import blp as fleet_overview
    from api.product.param_routes import blp as product_params
    from api.product.routes import blp as product
    from api.project.routes import blp as project
    from api.report.routes import blp as report
    from api.role.routes import blp as role
    from api.sharing.routes import blp as sharing
    from api.storage.routes import blp as storage
    from api.telemetry.routes import blp as telemetry
    from api.waybill.routes import blp as waybill

    return [
        health,
        platform,
        customization,
        dictionary,
        account,
        members,
        operation_users,
        operation_roles,
        operation_settings,
        product,
        fleet_overview,
        product_params,
        fleet,
        data_api_keys,
        data_api,
        product_firmware,
        role,
        organization,
        notice,
        help_centre,
        device,
        telemetry,
        storage,
        alarm,
        report,
        sharing,
        project,
        asset,
        audit,
        waybill,
        fda,
        datainterface,
        billing,
        billing_extra,
        payment,
        calibration,
    ]


def _register_access_rules() -> None:
    """Each area plugs its reach rules, object kinds and member keys into the access layer (and its
    hooks into the lower layers: a platform's own message providers into notify)."""
    from api.alarm import access_rules as alarm
    from api.billing import access_rules as billing
    from api.calibration import access_rules as calibration
    from api.datainterface import access_rules as datainterface
    from api.device import access_rules as device
    from api.fda import access_rules as fda
    from api.operation import providers as operation_providers
    from api.organization import access_rules as organization
    from api.report import access_rules as report
    from api.role import access_rules as role
    from api.sharing import access_rules as sharing
    from api.storage import access_rules as storage
    from api.waybill import access_rules as waybill

    areas = (organization, sharing, role, device, alarm, report, storage, waybill, fda, datainterface, billing)
    for area in (*areas, calibration, operation_providers):
        area.register()


def _models() -> None:
    """Import every area's models so metadata (and Alembic autogenerate) sees all tables."""
    import api.account.models
    import api.alarm.models
    import api.asset.models
    import api.audit.models
    import api.billing.models
    import api.calibration.models
    import api.datainterface.models
    import api.device.models
    import api.fda.models
    import api.help.models
    import api.notice.models
    import api.notify.models
    import api.operation.settings_models
    import api.organization.models
    import api.platform.models
    import api.product.models
    import api.project.models
    import api.report.models
    import api.role.models
    import api.sharing.models
    import api.storage.models
    import api.telemetry.models
    import api.verification.models
    import api.waybill.models  # noqa: F401

    # Relationships are resolved now, not by the process's first query: that took 170 ms, in an MQTT
    # subscriber's first batch or a worker's first request, and left the result out of the frozen heap.
    configure_mappers()


class DatabaseIntConverter(IntegerConverter):
    def __init__(self, url_map, fixed_digits=0, min=None, max=2**31 - 1, signed=False):
        super().__init__(url_map, fixed_digits=fixed_digits, min=min, max=max, signed=signed)


def create_app(config: type[BaseConfig] | None = None, overrides: Mapping[str, Any] | None = None) -> Flask:
    app = Flask(__name__)
    app.config.from_object(config or config_from_env())
    if overrides:
        app.config.update(overrides)
    # Path ids are database integers: a larger number matches no route (404), never a database error.
    app.url_map.converters["int"] = DatabaseIntConverter
    app.json.sort_keys = False  # keep the envelope readable: code, msg, data
    jsonlimits.init_app(app)  # request.get_json within the JSON depth and size limit
    if app.config.get("APP_ENV_PRODUCTION") and app.config["SECRET_KEY"] == DEV_SECRET_KEY:
        raise RuntimeError("SECRET_KEY must be set in production")

    _models()
    db.init_app(app)
    with app.app_context():
        ping_when_idle(db.engine)
    migrate.init_app(app, db, directory=str(ROOT / "api" / "migrations"))
    i18n.init_app(app)
    ratelimit.init_app(app)
    security.init_app(app)
    docs_assets.init_app(app)
    api.init_app(app)
    from api.alarm import register_evaluation
    from api.notify import services as notify_services

    notify_services.init_app(app)
    register_evaluation()
    from api.waybill import register as register_waybills

    register_waybills()
    from api.storage import register as register_storages

    register_storages()
    for blueprint in _blueprints():
        api.register_blueprint(blueprint)
    _register_access_rules()
    from api.access.gate import install as install_access_gate

    install_access_gate(app)

    from api.audit.recorder import install as install_operation_log
    from api.tenancy import resolve_request_platform

    install_operation_log()

    app.before_request(resolve_request_platform)
    app.wsgi_app = TrustedProxyMiddleware(app.wsgi_app, app.config["TRUSTED_PROXIES"])  # type: ignore[method-assign]

    from api.cli import register_commands

    register_commands(app)
    return app
