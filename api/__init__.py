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
    from api.device.routes import blp as device
    from api.health.routes import blp as health
    from api.notice.routes import blp as notice
    from api.platform.routes import blp as platform
    from api.telemetry.routes import blp as telemetry

    return [health, platform, account, notice, device, telemetry]


def _models() -> None:
    """Import every area's models so metadata (and Alembic autogenerate) sees all tables."""
    import api.account.models
    import api.device.models
    import api.notice.models
    import api.notify.models
    import api.platform.models
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
    for blueprint in _blueprints():
        api.register_blueprint(blueprint)

    from api.tenancy import resolve_request_platform

    app.before_request(resolve_request_platform)
    app.wsgi_app = TrustedProxyMiddleware(app.wsgi_app, app.config["TRUSTED_PROXIES"])  # type: ignore[method-assign]

    from api.cli import register_commands

    register_commands(app)
    return app
