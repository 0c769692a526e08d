from __future__ import annotations

from flask.views import MethodView

from api.extensions.crud import Call, register_crud
from api.extensions.ratelimit import limiter
from api.extensions.smorest import GXP_SIGNATURE, OPERATE, Blueprint, ErrorEnvelopeSchema
from api.report.jobs import enqueue_generation
from api.report.schemas import ExportFileSchema
from api.waybill import fences, report, services, shares, track_templates, tracking
from api.waybill.schemas import (
    FenceInputSchema,
    FencePageQuerySchema,
    FenceSchema,
    FenceUpdateSchema,
    PublicWaybillSchema,
    QuickWaybillQuerySchema,
    SharedWaybillSchema,
    TrackTemplateInputSchema,
    TrackTemplateSchema,
    TrackTemplateUpdateSchema,
    WaybillDisposeSchema,
    WaybillIdQuerySchema,
    WaybillInputSchema,
    WaybillPageQuerySchema,
    WaybillReportSchema,
    WaybillSchema,
    WaybillShareAccessQuerySchema,
    WaybillShareAccessSchema,
    WaybillShareCreatedSchema,
    WaybillShareInputSchema,
    WaybillShareListQuerySchema,
    WaybillShareSchema,
    WaybillShareViewSchema,
    WaybillStartSchema,
    WaybillStatusSchema,
    WaybillUpdateSchema,
)

blp = Blueprint("waybill", __name__, url_prefix="/api/waybill", description="Waybills, fences and share links")
LIST, FENCE = "waybill.list", "waybill.geofence"
PUBLIC_LIMIT = "30 per minute;300 per hour"


def missing():
    return blp.alt_response(404, schema=ErrorEnvelopeSchema, description="Not a waybill this account may see")


# ---- waybills -------------------------------------------------------------------------------------------


@blp.route("/Waybill/page")
class WaybillPage(MethodView):
    @blp.requires(f"{LIST}.query")
    @blp.arguments(WaybillPageQuerySchema)
    @blp.response(200, WaybillSchema, page=True)
    def post(self, args):
        """Waybills of the devices the account may see."""
        return services.page(args)


@blp.route("/Waybill/detail/<int:waybill_id>")
class WaybillDetail(MethodView):
    @blp.requires(f"{LIST}.query", waybill="waybill_id")
    @blp.response(200, WaybillSchema)
    @missing()
    def get(self, waybill_id: int):
        """One waybill."""
        return services.detail(waybill_id)


@blp.route("/Waybill/status")
class WaybillStatus(MethodView):
    @blp.requires(f"{LIST}.query", waybill="id")
    @blp.arguments(WaybillIdQuerySchema, location="query")
    @blp.response(200, WaybillStatusSchema)
    @missing()
    def get(self, args):
        """Real-time status: position, track, distance, elapsed time, temperatures, fence events, alarms."""
        return tracking.detail_status(args["id"])


@blp.route("/Waybill/insert")
class WaybillInsert(MethodView):
    @blp.requires(f"{LIST}.add", access=OPERATE, device="deviceId")
    @blp.arguments(WaybillInputSchema)
    @blp.response(200, WaybillSchema)
    def post(self, args):
        """Create a waybill (not started)."""
        return services.save(args)


@blp.route("/Waybill/update")
class WaybillUpdate(MethodView):
    @blp.requires(f"{LIST}.edit", access=OPERATE, waybill="id")
    @blp.arguments(WaybillUpdateSchema)
    @blp.response(200, WaybillSchema)
    @missing()
    def put(self, args):
        """Change a waybill that is not completed (limits apply at once while it is in progress)."""
        return services.save(args)


@blp.route("/Waybill/delete/<int:waybill_id>")
class WaybillDelete(MethodView):
    @blp.requires(f"{LIST}.delete", access=OPERATE, waybill="waybill_id")
    @blp.response(200)
    @missing()
    def delete(self, waybill_id: int):
        """Delete a waybill that is not in progress."""
        services.delete(waybill_id)


@blp.route("/Waybill/start/<int:waybill_id>")
class WaybillStart(MethodView):
    @blp.requires(f"{LIST}.start", access=OPERATE, waybill="waybill_id")
    @blp.arguments(WaybillStartSchema)
    @blp.response(200, WaybillSchema)
    @missing()
    def put(self, args, waybill_id: int):
        """Start a waybill (code 7001: the device is offline, send confirm=true to start anyway)."""
        return services.start(waybill_id, args["confirm"])


@blp.route("/Waybill/stop/<int:waybill_id>")
class WaybillStop(MethodView):
    @blp.requires(f"{LIST}.stop", access=OPERATE, waybill="waybill_id")
    @blp.response(200, WaybillSchema)
    @missing()
    def put(self, waybill_id: int):
        """Stop a waybill in progress: the device's own limits come back."""
        return services.stop(waybill_id)


@blp.route("/Waybill/dispose")
class WaybillDispose(MethodView):
    @blp.requires(f"{LIST}.dispose", access=OPERATE, waybill="id", gxp=GXP_SIGNATURE)
    @blp.arguments(WaybillDisposeSchema)
    @blp.response(200, WaybillSchema)
    @missing()
    def put(self, args):
        """Record the disposition of a completed waybill's goods (released / rejected with a reason)."""
        return services.dispose(args)


@blp.route("/Waybill/report")
class WaybillReport(MethodView):
    @blp.requires(f"{LIST}.export", access=OPERATE, waybill="id")
    @blp.arguments(WaybillReportSchema)
    @blp.response(200, ExportFileSchema)
    @missing()
    def post(self, args):
        """Queue the trip report (PDF: window, MKT, time above / below limits, alarms, fence events,
        track, disposition) or the window's readings (CSV, XLSX); it appears in the download centre."""
        export = report.request_report(args)
        enqueue_generation(export)  # after the commit: the worker must find the row
        return export


# ---- fences ------------------------------------------------------------------------------------------------


register_crud(
    blp,
    "Fence",
    prefix="/Fence",
    key=FENCE,
    item=FenceSchema,
    missing="Not a fence of this account",
    id_name="fence_id",
    page=Call(fences.page, "Electric fences of the account.", FencePageQuerySchema),
    detail=Call(fences.find, "One fence."),
    insert=Call(
        fences.save, "Draw a fence: a circle (centre and radius) or a polygon of at most ten points.", FenceInputSchema
    ),
    update=Call(fences.save, "Change a fence.", FenceUpdateSchema),
    delete=Call(fences.delete, "Delete a fence (waybills using it keep their events)."),
)


# ---- map track templates ------------------------------------------------------------------------------------


@blp.route("/TrackTemplate/list")
class TrackTemplateList(MethodView):
    @blp.requires(f"{LIST}.query")
    @blp.response(200, TrackTemplateSchema(many=True))
    def get(self):
        """The account's map track templates, its default first."""
        return track_templates.listed()


register_crud(
    blp,
    "TrackTemplate",
    prefix="/TrackTemplate",
    key=LIST,
    item=TrackTemplateSchema,
    missing="Not a track template of this account",
    id_name="template_id",
    insert=Call(
        track_templates.save,
        "Save a way of drawing tracks (name max 10; at most 20 per account; one default).",
        TrackTemplateInputSchema,
    ),
    update=Call(track_templates.save, "Change a track template.", TrackTemplateUpdateSchema),
    delete=Call(track_templates.delete, "Delete a track template."),
)


# ---- share links -------------------------------------------------------------------------------------------


@blp.route("/WaybillShare/insert")
class ShareInsert(MethodView):
    @blp.requires(f"{LIST}.share", access=OPERATE, waybill="waybillId")
    @blp.arguments(WaybillShareInputSchema)
    @blp.response(200, WaybillShareCreatedSchema)
    @missing()
    def post(self, args):
        """Create a share link (8h, 1d, 3d, 7d or custom expiry, optional PIN); the link is shown once."""
        return shares.create(args)


@blp.route("/WaybillShare/list")
class ShareList(MethodView):
    @blp.requires(f"{LIST}.share", access=OPERATE, waybill="waybillId")
    @blp.arguments(WaybillShareListQuerySchema, location="query")
    @blp.response(200, WaybillShareSchema(many=True))
    @missing()
    def get(self, args):
        """A waybill's share links with their status and number of openings."""
        return shares.shares_of(args["waybillId"])


@blp.route("/WaybillShare/revoke/<int:share_id>")
class ShareRevoke(MethodView):
    @blp.requires(f"{LIST}.share", access=OPERATE, waybillShare="share_id")
    @blp.response(200, WaybillShareSchema)
    @missing()
    def put(self, share_id: int):
        """Revoke a share link: it answers 'revoked' from now on."""
        return shares.revoke(share_id)


@blp.route("/WaybillShare/accessLog")
class ShareAccessLog(MethodView):
    @blp.requires(f"{LIST}.share", access=OPERATE, waybillShare="shareId")
    @blp.arguments(WaybillShareAccessQuerySchema, location="query")
    @blp.response(200, WaybillShareAccessSchema(many=True))
    @missing()
    def get(self, args):
        """Who opened a share link: when, from where, and what they got."""
        return shares.access_log(args["shareId"])


@blp.route("/WaybillShare/view")
class ShareView(MethodView):
    # Public: no account needed; limited per address so tokens and PINs cannot be guessed.
    decorators = [limiter.limit(PUBLIC_LIMIT, methods=["POST"])]

    @blp.public("share links of a waybill: the token (and PIN) is the credential, rate limited")
    @blp.arguments(WaybillShareViewSchema)
    @blp.response(200, SharedWaybillSchema)
    @blp.alt_response(410, schema=ErrorEnvelopeSchema, description="The link has expired or was revoked")
    def post(self, args):
        """Open a share link (public): the waybill's status, route, temperatures and alarms."""
        return shares.view(args["token"], args.get("pin"))


@blp.route("/WaybillQuick/query")
class QuickWaybill(MethodView):
    decorators = [limiter.limit(PUBLIC_LIMIT, methods=["GET"])]

    @blp.public("the receiver's lookup by a complete waybill or tracking number, rate limited")
    @blp.arguments(QuickWaybillQuerySchema, location="query")
    @blp.response(200, PublicWaybillSchema)
    @blp.alt_response(404, schema=ErrorEnvelopeSchema, description="No waybill with this complete number")
    def get(self, args):
        """Quick query (public): a waybill by its complete waybill or tracking number."""
        return shares.quick(args["trackingNumber"])
