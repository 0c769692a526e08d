"""The cold-chain monitoring platform api: `create_app(config)` builds it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask
from werkzeug.routing import IntegerConverter

from api.extensions import api, db, i18n, migrate, ratelimit, security
from api.extensions.proxy import TrustedProxyMiddleware
from api.settings import DEV_SECRET_KEY, ROOT, BaseConfig, config_from_env


def _blueprints():
    """Every area's blueprint, in the order they appear in the API documentation."""
    from api.account.routes import blp as account
    from api.alarm.routes import blp as alarm
    from api.asset.routes import blp as asset
    from api.audit.routes import blp as audit
    from api.device.routes import blp as device
    from api.health.routes import blp as health
    from api.notice.routes import blp as notice
    from api.organization.routes import blp as organization
    from api.organization.routes import members
    from api.platform.routes import blp as platform
    from api.project.routes import blp as project
    from api.report.routes import blp as report
    from api.role.routes import blp as role
    from api.sharing.routes import blp as sharing
    from api.telemetry.routes import blp as telemetry

    return [
        health,
        platform,
        account,
        members,
        role,
        organization,
        notice,
        device,
        telemetry,
        alarm,
        report,
        sharing,
        project,
        asset,
        audit,
    ]


def _models() -> None:
    """Import every area's models so metadata (and Alembic autogenerate) sees all tables."""
    import api.account.models
    import api.alarm.models
    import api.asset.models
    import api.audit.models
    import api.device.models
    import api.notice.models
    import api.notify.models
    import api.organization.models
    import api.platform.models
    import api.project.models
    import api.report.models
    import api.role.models
    import api.sharing.models
    import api.telemetry.models
    import api.verification.models  # noqa: F401


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
    if app.config.get("APP_ENV_PRODUCTION") and app.config["SECRET_KEY"] == DEV_SECRET_KEY:
        raise RuntimeError("SECRET_KEY must be set in production")

    _models()
    db.init_app(app)
    migrate.init_app(app, db, directory=str(ROOT / "api" / "migrations"))
    i18n.init_app(app)
    ratelimit.init_app(app)
    security.init_app(app)
    api.init_app(app)
    from api.alarm import register_evaluation
    from api.notify import services as notify_services

    notify_services.init_app(app)
    register_evaluation()
    for blueprint in _blueprints():
        api.register_blueprint(blueprint)

    from api.audit.recorder import install as install_operation_log
    from api.tenancy import resolve_request_platform

    install_operation_log()

    app.before_request(resolve_request_platform)
    app.wsgi_app = TrustedProxyMiddleware(app.wsgi_app, app.config["TRUSTED_PROXIES"])  # type: ignore[method-assign]

    from api.cli import register_commands

    register_commands(app)
    return app
