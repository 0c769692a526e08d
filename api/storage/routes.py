"""Storage calls: /api/storage/{ColdStorage|Freezer|VirtualStorage}/{action} (the same operations for the
three kinds, each under its own permission key), /api/storage/CloudControl/* for remote operation."""

from __future__ import annotations

from flask.views import MethodView

from api.extensions.crud import Action, Call, register_crud
from api.extensions.smorest import OPERATE, Blueprint, ErrorEnvelopeSchema
from api.report.jobs import enqueue_generation
from api.report.schemas import ExportFileSchema
from api.storage import control, listing, report, services, tabs
from api.storage.models import StorageKind
from api.storage.schemas import (
    CloudCommandInputSchema,
    StorageAlarmQuerySchema,
    StorageAlarmSchema,
    StorageChartSchema,
    StorageCommandSchema,
    StorageEnergyMonthSchema,
    StorageIdQuerySchema,
    StorageImageSchema,
    StorageImageUploadSchema,
    StorageInputSchema,
    StorageOverviewSchema,
    StoragePageQuerySchema,
    StorageParamsSchema,
    StoragePushSettingSchema,
    StorageRangeQuerySchema,
    StorageReportSchema,
    StorageSchema,
    StorageStatusCountSchema,
    StorageTopUpSchema,
    StorageUpdateSchema,
)

blp = Blueprint("storage", __name__, url_prefix="/api/storage", description="Cold storages, freezers, virtual storages")
STORAGE_KEY, FREEZER_KEY = "storage.list", "freezer.list"
KINDS = (
    (StorageKind.STORAGE, "ColdStorage", STORAGE_KEY),
    (StorageKind.FREEZER, "Freezer", FREEZER_KEY),
    (StorageKind.VIRTUAL, "VirtualStorage", STORAGE_KEY),
)


MISSING = "Not a storage this account sees"


def missing():
    return blp.alt_response(404, schema=ErrorEnvelopeSchema, description=MISSING)


REPORT_DOC = (
    "Queue the storage's report (PDF: every visible probe with its limits, statistics and MKT, the MKT "
    "of the storage, its probes and zones, its MKT alarms) or its probes' readings (CSV, XLSX) over a "
    "window; the file appears in the download centre."
)
# The storage a call names: by the path's id, or by the storageId of its arguments.
BY_PATH, BY_ARGS = {"storage": "storage_id"}, {"storage": "storageId"}
CHANGE_BY_PATH, CHANGE_BY_ARGS = {**BY_PATH, "access": OPERATE}, {**BY_ARGS, "access": OPERATE}


def register(kind: StorageKind, entity: str, key: str) -> None:
    """The operations of one kind of storage under /api/storage/{entity}."""

    def saved(args: dict) -> dict:
        return listing.detail(services.save(kind, args).id, kind)

    def of_storage(read):
        """A tab's read that takes the storage's id (from the query's storageId) and the kind."""
        return lambda args: read(args["storageId"], kind)

    def of_args(read):
        """A tab's read that takes the whole arguments and the kind."""
        return lambda args: read(args, kind)

    def tab(name: str, path: str, read, doc: str, response, schema=StorageIdQuerySchema) -> Action:
        return Action(name, path, "get", "query", Call(read, doc, schema, location="query", need=BY_ARGS), response)

    register_crud(
        blp,
        entity,
        prefix=f"/{entity}",
        key=key,
        item=StorageSchema,
        missing=MISSING,
        id_name="storage_id",
        page=Call(
            lambda args: listing.page(kind, args),
            "Storages with live state; search by name, filter by state.",
            StoragePageQuerySchema,
        ),
        detail=Call(
            lambda storage_id: listing.detail(storage_id, kind), "One storage: basic info, probes, state.", need=BY_PATH
        ),
        insert=Call(saved, "Add one, with its controller / device and probes.", StorageInputSchema),
        update=Call(saved, "Change one (probes kept unless given).", StorageUpdateSchema, need=CHANGE_BY_ARGS),
        delete=Call(
            lambda storage_id: services.delete(storage_id, kind), "Delete one (devices stay).", need=CHANGE_BY_PATH
        ),
        actions=(
            Action(
                "StatusCount",
                "/statusCount",
                "get",
                "query",
                Call(
                    lambda args: listing.status_counts(kind, args.get("storageName")),
                    "State counts.",
                    StoragePageQuerySchema,
                    location="query",
                ),
                StorageStatusCountSchema,
                missing=False,
            ),
            tab(
                "Overview",
                "/overview",
                of_storage(tabs.overview),
                "Live values per probe, controller state.",
                StorageOverviewSchema,
            ),
            tab(
                "Chart",
                "/chart",
                of_args(tabs.chart),
                "All probes over a range with their limit lines.",
                StorageChartSchema,
                StorageRangeQuerySchema,
            ),
            Action(
                "AlarmPage",
                "/alarmPage",
                "post",
                "query",
                Call(
                    of_args(tabs.alarms),
                    "Alarm record: probe, device and MKT alarms.",
                    StorageAlarmQuerySchema,
                    need=BY_ARGS,
                ),
                StorageAlarmSchema,
                page=True,
            ),
            tab(
                "PushGet",
                "/pushSetting/get",
                of_storage(tabs.push_setting),
                "Alarm push setting of the storage.",
                StoragePushSettingSchema,
            ),
            Action(
                "PushSave",
                "/pushSetting/save",
                "post",
                "edit",
                Call(
                    of_args(tabs.save_push_setting),
                    "Save the push setting for every device.",
                    StoragePushSettingSchema,
                    need=CHANGE_BY_ARGS,
                ),
                StoragePushSettingSchema,
            ),
            tab(
                "Params",
                "/params",
                of_storage(tabs.params),
                "Controller parameters with their command status.",
                StorageParamsSchema,
            ),
            tab(
                "TopUp",
                "/topUp",
                of_storage(tabs.top_up),
                "Service expiry and SMS / voice balance per device.",
                StorageTopUpSchema,
            ),
            tab(
                "Energy",
                "/energy",
                of_storage(control.energy),
                "Energy of the last 12 months (controller meter).",
                StorageEnergyMonthSchema(many=True),
            ),
            Action(
                "Report",
                "/report",
                "post",
                "export",
                Call(lambda args: queue_report(args, kind), REPORT_DOC, StorageReportSchema, need=BY_ARGS),
                ExportFileSchema,
            ),
        ),
    )


def queue_report(args: dict, kind: StorageKind):
    export = report.request_report(args, kind)
    enqueue_generation(export)
    return export


for _kind, _entity, _key in KINDS:
    register(_kind, _entity, _key)


@blp.route("/ColdStorage/uploadImage")
class UploadImage(MethodView):
    @blp.requires(f"{STORAGE_KEY}.edit")
    @blp.arguments(StorageImageUploadSchema, location="files")
    @blp.response(200, StorageImageSchema)
    @blp.alt_response(413, schema=ErrorEnvelopeSchema, description="The file is too large (2 MB)")
    @blp.alt_response(415, schema=ErrorEnvelopeSchema, description="Not a JPG or PNG image (checked by content)")
    def post(self, args):
        """Upload an installation image (JPG or PNG, 2 MB, checked by content); put its name in `images`."""
        return services.store_image(args["file"])


@blp.route("/ColdStorage/image/<name>")
class Image(MethodView):
    @blp.public("installation images are addressed by unguessable generated names, like profile photos")
    @blp.file_response("image/*", description="An installation image")
    @missing()
    def get(self, name: str):
        """An installation image by its generated name (served with nosniff)."""
        return services.image_file(name)


@blp.route("/CloudControl/send")
class CloudControlSend(MethodView):
    @blp.requires(f"{STORAGE_KEY}.edit", access=OPERATE, storage="storageId")
    @blp.arguments(CloudCommandInputSchema)
    @blp.response(200, StorageCommandSchema)
    @missing()
    def post(self, args):
        """Send setpoint, compressor start / stop, defrost or light to the storage's controller: pending
        until the controller acknowledges it. An offline controller answers code 3010 unless confirmOffline."""
        return control.send(args)


@blp.route("/CloudControl/list")
class CloudControlList(MethodView):
    @blp.requires(f"{STORAGE_KEY}.query", storage="storageId")
    @blp.arguments(StorageIdQuerySchema, location="query")
    @blp.response(200, StorageCommandSchema(many=True))
    @missing()
    def get(self, args):
        """The storage's cloud-control commands, newest first, with their state."""
        return control.commands(args["storageId"])
