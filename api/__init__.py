"""The cold-chain monitoring platform api: `create_app(config)` builds it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask
from sqlalchemy.orm import configure_mappers

from api.extensions import api, db, docs_assets, i18n, integers, jsonlimits, migrate, ratelimit, security
from api.extensions.db import ping_when_idle
from api.extensions.proxy import TrustedProxyMiddleware
from api.settings import DEV_SECRET_KEY, ROOT, BaseConfig, config_from_env


def create_app(config: type[BaseConfig] | None = None, overrides: Mapping[str, Any] | None = None) -> Flask:
    app = Flask(__name__)
    app.config.from_object(config or config_from_env())
    if overrides:
        app.config.update(overrides)
    # Path ids in their one form (api/extensions/integers.py): "+2" or "02" is a 422 naming the
    # parameter; a number beyond the database's integers matches no route (404), never a database error.
    integers.install(app)
    app.json.sort_keys = False  # keep the envelope readable: code, msg, data
    jsonlimits.init_app(app)  # request.get_json within the JSON depth and size limit
    if app.config.get("APP_ENV_PRODUCTION") and app.config["SECRET_KEY"] == DEV_SECRET_KEY:
        raise RuntimeError("SECRET_KEY must be set in production")

    from api.assembly import install_access_rules, install_hooks, register_blueprints
    from api.hooks import manifests

    # Every area's manifest (api/hooks.py), its models with it: metadata and Alembic see all tables.
    declared = manifests()
    # Relationships are resolved now, not by the process's first query: that took 170 ms, in an MQTT
    # subscriber's first batch or a worker's first request, and left the result out of the frozen heap.
    configure_mappers()
    db.init_app(app)
    with app.app_context():
        ping_when_idle(db.engine)
    migrate.init_app(app, db, directory=str(ROOT / "api" / "migrations"))
    i18n.init_app(app)
    ratelimit.init_app(app)
    security.init_app(app)
    docs_assets.init_app(app)
    api.init_app(app)
    from api.notify import services as notify_services

    notify_services.init_app(app)
    install_hooks(declared)
    register_blueprints(api, declared)
    install_access_rules(declared)
    from api.access.gate import install as install_access_gate

    install_access_gate(app, api.spec.to_dict())

    from api.tenancy import resolve_request_platform

    app.before_request(resolve_request_platform)
    app.wsgi_app = TrustedProxyMiddleware(app.wsgi_app, app.config["TRUSTED_PROXIES"])  # type: ignore[method-assign]

    from api.cli import register_commands

    register_commands(app)
    return app
