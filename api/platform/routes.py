from __future__ import annotations

from flask import send_file
from flask.views import MethodView
from flask_babel import gettext

from api.extensions.smorest import ApiError, Blueprint, ErrorEnvelopeSchema
from api.platform import services
from api.platform.schemas import BrandingQuerySchema, BrandingSchema

blp = Blueprint(
    "platform", __name__, url_prefix="/api/base/BaseCustomPage", description="Platform customization (branded sites)"
)


@blp.route("/queryByTopDomain")
class BrandingByTopDomain(MethodView):
    @blp.public("the branding of the sign-in page")
    @blp.arguments(BrandingQuerySchema, location="query")
    @blp.response(200, BrandingSchema)
    @blp.alt_response(404, schema=ErrorEnvelopeSchema, description="No site answers this domain")
    def get(self, args):
        """Branding of the site answering `topDomain` (public, used before sign-in)."""
        platform = services.branding_for(args["topDomain"])
        if platform is None:
            raise ApiError(
                gettext("This site (%(host)s) is not configured on the platform.", host=args["topDomain"]),
                code=404,
                http_status=404,
            )
        return platform


@blp.route("/file/<slug>/<name>")
class BrandingFile(MethodView):
    @blp.public("logos and backgrounds of the sign-in page")
    @blp.file_response("image/*", description="A logo or background image")
    @blp.alt_response(404, schema=ErrorEnvelopeSchema, description="No such image")
    def get(self, slug: str, name: str):
        """A branding image of a platform (logos, browser icon, login background)."""
        found = services.branding_file(slug, name)
        if found is None:
            raise ApiError(gettext("The requested resource does not exist."), code=404, http_status=404)
        path, media_type = found
        response = send_file(path, mimetype=media_type, max_age=3600)
        # SVGs are scriptable documents: never let one run as a page.
        response.headers["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'; sandbox"
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response
