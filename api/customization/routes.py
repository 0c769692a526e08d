"""The calls of /customized/list (business-domain section 7: /base/BaseCustomPage/...)."""

from __future__ import annotations

from flask.views import MethodView

from api.customization import seals, services
from api.customization.schemas import (
    CustomPageCloseSchema,
    CustomPageIdSchema,
    CustomPageInputSchema,
    CustomPagePageQuerySchema,
    CustomPageSchema,
    CustomPageUpdateSchema,
    SealSchema,
    SealUploadSchema,
    UploadedSchema,
    UploadFileSchema,
    UploadFormSchema,
)
from api.extensions.smorest import Blueprint, ErrorEnvelopeSchema
from api.identity.staff import staff_scope

blp = Blueprint(
    "customization",
    __name__,
    url_prefix="/api/base/BaseCustomPage",
    description="Platform customization (/customized/list): the operator's branded sites",
)
KEY = "customized.list"


def refused(status: int, description: str):
    return blp.alt_response(status, schema=ErrorEnvelopeSchema, description=description)


@blp.route("/get/page")
class CustomPagePage(MethodView):
    @blp.requires(f"{KEY}.query")
    @blp.arguments(CustomPagePageQuerySchema)
    @blp.response(200, CustomPageSchema, page=True)
    @refused(403, "Not platform staff")
    def post(self, args):
        """Platforms, newest first: every one for the operator, their own for a reseller admin."""
        return services.page(staff_scope(), args)


@blp.route("/get/<int:platform_id>")
class CustomPageOne(MethodView):
    @blp.requires(f"{KEY}.query")
    @blp.response(200, CustomPageSchema)
    @refused(403, "Not platform staff")
    @refused(404, "No such platform (or not yours)")
    def get(self, platform_id: int):
        """One platform as the form edits it."""
        return services.get(staff_scope(), platform_id)


@blp.route("/insert")
class CustomPageInsert(MethodView):
    @blp.requires(f"{KEY}.add")
    @blp.arguments(CustomPageInputSchema)
    @blp.response(200, CustomPageSchema)
    @refused(403, "Only the operator creates platforms")
    @refused(422, "A field is invalid (named in data.errors)")
    def post(self, args):
        """Create a branded site; live on every process within seconds. `admin` creates or links its
        reseller admin, who gets a sign-in link by email or SMS."""
        return services.insert(staff_scope(), args)


@blp.route("/update")
class CustomPageUpdate(MethodView):
    @blp.requires(f"{KEY}.edit")
    @blp.arguments(CustomPageUpdateSchema)
    @blp.response(200, CustomPageSchema)
    @refused(403, "Not platform staff, or a field only the operator changes")
    @refused(404, "No such platform (or not yours)")
    @refused(422, "A field is invalid (named in data.errors)")
    def put(self, args):
        """Change the fields sent (a reseller admin: only the branding of their own platform)."""
        return services.update(staff_scope(), args)


@blp.route("/close")
class CustomPageClose(MethodView):
    @blp.requires(f"{KEY}.edit")
    @blp.arguments(CustomPageCloseSchema)
    @blp.response(200, CustomPageSchema)
    @refused(403, "Only the operator switches sites off")
    @refused(404, "No such platform")
    @refused(409, "The operator's own platform")
    def put(self, args):
        """Switch a site off (its domains show "site closed" and nobody signs in there) or on again."""
        return services.set_closed(staff_scope(), args["id"], args["closed"])


@blp.route("/delete")
class CustomPageDelete(MethodView):
    @blp.requires(f"{KEY}.delete")
    @blp.arguments(CustomPageIdSchema, location="query")
    @blp.response(200)
    @refused(403, "Only the operator deletes platforms")
    @refused(404, "No such platform")
    @refused(409, "The site has paying customers (switch it off instead)")
    def delete(self, args):
        """Remove a site nobody paid on, with its registered accounts and devices."""
        services.delete(staff_scope(), args["id"])


@blp.route("/upload")
class CustomPageUpload(MethodView):
    @blp.requires(f"{KEY}.edit")
    @blp.arguments(UploadFormSchema, location="form")
    @blp.arguments(UploadFileSchema, location="files")
    @blp.response(200, UploadedSchema)
    @refused(403, "Not platform staff")
    @refused(413, "The file is too large (icons 1 MB, images 2 MB)")
    @refused(415, "Not a JPG or PNG image (icons: ICO or PNG), checked by content")
    def post(self, form, files):
        """Upload a logo, the login background or the browser icon; answers the url the form saves."""
        staff_scope()
        return services.upload(form["field"], files.get("file"))


@blp.route("/seal/<int:platform_id>")
class SiteSeal(MethodView):
    @blp.requires(f"{KEY}.query")
    @blp.response(200, SealSchema)
    @refused(403, "Not platform staff")
    @refused(404, "No such platform (or not yours)")
    def get(self, platform_id: int):
        """The certificate that seals the site's signed PDFs and trail heads (made on first use)."""
        return seals.current(staff_scope(), platform_id)


@blp.route("/seal/upload")
class SiteSealUpload(MethodView):
    @blp.requires(f"{KEY}.edit")
    @blp.arguments(SealUploadSchema)
    @blp.response(200, SealSchema)
    @refused(403, "Not platform staff")
    @refused(404, "No such platform (or not yours)")
    @refused(422, "The certificate or key is refused (the field is named in data.errors)")
    def post(self, args):
        """Seal the site's documents with its own certificate (PEM or PKCS#12): checked (the key belongs
        to it, valid now, allowed to sign); the previous seal is retired, never deleted. The key is
        kept encrypted and never returned."""
        return seals.upload(staff_scope(), args)
