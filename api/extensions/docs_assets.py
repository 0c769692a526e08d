"""The Swagger UI files of the docs page (`/api/docs`), served by the api itself from the installed
`swagger-ui-bundle` package, so the docs work on a machine without internet (no CDN).
`SWAGGER_UI_URL` may still point the page at another copy."""

from __future__ import annotations

from flask import Blueprint, Flask, send_from_directory
from swagger_ui_bundle import swagger_ui_path

ASSETS_PATH = "/api/docs/assets/"

blp = Blueprint("docs_assets", __name__)


@blp.route(f"{ASSETS_PATH}<path:filename>")
def asset(filename: str):
    return send_from_directory(str(swagger_ui_path), filename, max_age=86400)


def init_app(app: Flask) -> None:
    app.register_blueprint(blp)
