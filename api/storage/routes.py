"""Storage calls: /api/storage/{ColdStorage|Freezer|VirtualStorage}/{action} (the same operations for the
three kinds, each under its own permission key), /api/storage/CloudControl/* for remote operation."""

from __future__ import annotations

from flask.views import MethodView

from api.extensions.smorest import OPERATE, Blueprint, ErrorEnvelopeSchema
from api.report.jobs import enqueue_generation
from api.report.schemas import ExportFileSchema
from api.storage import control, report, services, tabs
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


def missing():
    return blp.alt_response(404, schema=ErrorEnvelopeSchema, description="Not a storage this account sees")


def _view(name: str, method: str, func, doc: str):
    func.__doc__ = doc
    func.__name__ = method
    return type(name, (MethodView,), {method: func})


def register(kind: StorageKind, entity: str, key: str) -> None:
    """The operations of one kind of storage under /api/storage/{entity}."""
    add, edit, delete = f"{key}.add", f"{key}.edit", f"{key}.delete"
    route = lambda action: blp.route(f"/{entity}/{action}")  # noqa: E731

    @blp.requires(f"{key}.query")
    @blp.arguments(StoragePageQuerySchema)
    @blp.response(200, StorageSchema, page=True)
    def page(self, args):
        return services.page(kind, args)

    route("page")(_view(f"{entity}Page", "post", page, "Storages with live state; search by name, filter by state."))

    @blp.requires(f"{key}.query")
    @blp.arguments(StoragePageQuerySchema, location="query")
    @blp.response(200, StorageStatusCountSchema)
    def counts(self, args):
        return services.status_counts(kind, args.get("storageName"))

    route("statusCount")(_view(f"{entity}StatusCount", "get", counts, "State counts."))

    @blp.requires(f"{key}.query", storage="storage_id")
    @blp.response(200, StorageSchema)
    @missing()
    def detail(self, storage_id: int):
        return services.detail(storage_id, kind)

    route("detail/<int:storage_id>")(_view(f"{entity}Detail", "get", detail, "One storage: basic info, probes, state."))

    @blp.requires(add)
    @blp.arguments(StorageInputSchema)
    @blp.response(200, StorageSchema)
    def insert(self, args):
        storage = services.save(kind, args)
        return services.detail(storage.id, kind)

    route("insert")(_view(f"{entity}Insert", "post", insert, "Add one, with its controller / device and probes."))

    @blp.requires(edit, access=OPERATE, storage="storageId")
    @blp.arguments(StorageUpdateSchema)
    @blp.response(200, StorageSchema)
    @missing()
    def update(self, args):
        storage = services.save(kind, args)
        return services.detail(storage.id, kind)

    route("update")(_view(f"{entity}Update", "put", update, "Change one (probes kept unless given)."))

    @blp.requires(delete, access=OPERATE, storage="storage_id")
    @blp.response(200)
    @missing()
    def remove(self, storage_id: int):
        services.delete(storage_id, kind)

    route("delete/<int:storage_id>")(_view(f"{entity}Delete", "delete", remove, "Delete one (devices stay)."))

    @blp.requires(f"{key}.query", storage="storageId")
    @blp.arguments(StorageIdQuerySchema, location="query")
    @blp.response(200, StorageOverviewSchema)
    @missing()
    def overview(self, args):
        return tabs.overview(args["storageId"], kind)

    route("overview")(_view(f"{entity}Overview", "get", overview, "Live values per probe, controller state."))

    @blp.requires(f"{key}.query", storage="storageId")
    @blp.arguments(StorageRangeQuerySchema, location="query")
    @blp.response(200, StorageChartSchema)
    @missing()
    def chart(self, args):
        return tabs.chart(args, kind)

    route("chart")(_view(f"{entity}Chart", "get", chart, "All probes over a range with their limit lines."))

    @blp.requires(f"{key}.query", storage="storageId")
    @blp.arguments(StorageAlarmQuerySchema)
    @blp.response(200, StorageAlarmSchema, page=True)
    @missing()
    def alarms(self, args):
        return tabs.alarms(args, kind)

    route("alarmPage")(_view(f"{entity}AlarmPage", "post", alarms, "Alarm record: probe, device and MKT alarms."))

    @blp.requires(f"{key}.query", storage="storageId")
    @blp.arguments(StorageIdQuerySchema, location="query")
    @blp.response(200, StoragePushSettingSchema)
    @missing()
    def push_get(self, args):
        return tabs.push_setting(args["storageId"], kind)

    route("pushSetting/get")(_view(f"{entity}PushGet", "get", push_get, "Alarm push setting of the storage."))

    @blp.requires(edit, access=OPERATE, storage="storageId")
    @blp.arguments(StoragePushSettingSchema)
    @blp.response(200, StoragePushSettingSchema)
    @missing()
    def push_save(self, args):
        return tabs.save_push_setting(args, kind)

    route("pushSetting/save")(_view(f"{entity}PushSave", "post", push_save, "Save the push setting for every device."))

    @blp.requires(f"{key}.query", storage="storageId")
    @blp.arguments(StorageIdQuerySchema, location="query")
    @blp.response(200, StorageParamsSchema)
    @missing()
    def params(self, args):
        return tabs.params(args["storageId"], kind)

    route("params")(_view(f"{entity}Params", "get", params, "Controller parameters with their command status."))

    @blp.requires(f"{key}.query", storage="storageId")
    @blp.arguments(StorageIdQuerySchema, location="query")
    @blp.response(200, StorageTopUpSchema)
    @missing()
    def top_up(self, args):
        return tabs.top_up(args["storageId"], kind)

    route("topUp")(_view(f"{entity}TopUp", "get", top_up, "Service expiry and SMS / voice balance per device."))

    @blp.requires(f"{key}.query", storage="storageId")
    @blp.arguments(StorageIdQuerySchema, location="query")
    @blp.response(200, StorageEnergyMonthSchema(many=True))
    @missing()
    def energy(self, args):
        return control.energy(args["storageId"], kind)

    route("energy")(_view(f"{entity}Energy", "get", energy, "Energy of the last 12 months (controller meter)."))

    @blp.requires(f"{key}.export", storage="storageId")
    @blp.arguments(StorageReportSchema)
    @blp.response(200, ExportFileSchema)
    @missing()
    def export(self, args):
        export = report.request_report(args, kind)
        enqueue_generation(export)
        return export

    doc = (
        "Queue the storage's report (PDF: every visible probe with its limits, statistics and MKT, the MKT "
        "of the storage, its probes and zones, its MKT alarms) or its probes' readings (CSV, XLSX) over a "
        "window; the file appears in the download centre."
    )
    route("report")(_view(f"{entity}Report", "post", export, doc))


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
