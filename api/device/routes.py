from __future__ import annotations

import re

from flask.views import MethodView

from api.access.reach import PARAMETERS
from api.device import commands, listing, records, services
from api.device.schemas import (
    BatchActionSchema,
    BatchCommandSchema,
    BatchResultSchema,
    CommandSchema,
    CommandSendSchema,
    DeviceAddSchema,
    DeviceDetailSchema,
    DeviceEventSchema,
    DeviceIdQuerySchema,
    DeviceItemSchema,
    DevicePageQuerySchema,
    DeviceUpdateSchema,
    ExpiredDeviceQuerySchema,
    ExpiredDeviceSchema,
    ExpiryInfoQuerySchema,
    ExpiryInfoSchema,
    FocusSchema,
    MaintenanceQuerySchema,
    MaintenanceRecordInputSchema,
    MaintenanceRecordSchema,
    MaintenanceRecordUpdateSchema,
    QuickQuerySchema,
    QuickResultSchema,
    StatusCountSchema,
)
from api.extensions.i18n import caller_zone
from api.extensions.ratelimit import limiter
from api.extensions.smorest import GXP_REASON, OPERATE, Blueprint, ErrorEnvelopeSchema

blp = Blueprint("device", __name__, url_prefix="/api/device", description="Device registry")
LIST = "device.list"
# Action keys (console-shell section 6, route.action): members hold them through their roles.
ADD, EDIT, DELETE = f"{LIST}.add", f"{LIST}.edit", f"{LIST}.delete"
ENABLE, DISABLE = f"{LIST}.enable", f"{LIST}.disable"


def missing():
    return blp.alt_response(404, schema=ErrorEnvelopeSchema, description="No such device of this account")


@blp.route("/Device/page")
class DevicePage(MethodView):
    @blp.requires("device.list.query")
    @blp.arguments(DevicePageQuerySchema)
    @blp.response(200, DeviceItemSchema, page=True)
    def post(self, args):
        """The account's devices with latest state; filters name/GUID, status, category, expiry."""
        return listing.page(args, caller_zone())


@blp.route("/Device/statusCount")
class StatusCount(MethodView):
    @blp.requires("device.list.query")
    @blp.response(200, StatusCountSchema)
    def get(self):
        """Home status counts, from the latest-state table."""
        return listing.status_counts()


@blp.route("/Device/detail/<int:device_id>")
class DeviceDetail(MethodView):
    @blp.requires("device.list.query", device="device_id")
    @blp.response(200, DeviceDetailSchema)
    @missing()
    def get(self, device_id: int):
        """One device with its type's parameters and latest state."""
        return listing.detail(device_id)


@blp.route("/Device/add")
class DeviceAdd(MethodView):
    @blp.requires("device.list.add")
    @blp.arguments(DeviceAddSchema)
    @blp.response(200, DeviceItemSchema)
    def post(self, args):
        """Add a device by its complete GUID."""
        device = services.add_device(
            args["deviceGuid"], args["deviceName"], args["timeZone"], args["remark"], args["source"]
        )
        return listing.with_state(device, device.state, device.claimed_at)


@blp.route("/Device/update")
class DeviceUpdate(MethodView):
    @blp.requires(EDIT, device="deviceId", access=OPERATE, block="info")
    @blp.arguments(DeviceUpdateSchema)
    @blp.response(200, DeviceItemSchema)
    @missing()
    def put(self, args):
        """Rename a device, change its time zone or remark, turn its quick search on or off (owner)."""
        columns = {"deviceName": "name", "timeZone": "time_zone", "remark": "remark", "quickSearch": "quick_search"}
        changes = {columns[key]: value for key, value in args.items() if key in columns}
        device = services.update_device(args["deviceId"], changes)
        return listing.with_state(device, device.state, device.updated_at)


def _state_action(name: str, action, summary: str, key: str = LIST):
    class StateAction(MethodView):
        @blp.requires(key, device="device_id", access=OPERATE)
        @blp.response(200, DeviceItemSchema)
        @missing()
        def put(self, device_id: int):
            device = action(device_id)
            return listing.with_state(device, device.state, device.updated_at)

    StateAction.put.__doc__ = summary
    StateAction.__name__ = name
    return StateAction


blp.route("/Device/enable/<int:device_id>")(
    _state_action(
        "DeviceEnable", lambda i: services.set_enabled(i, True), "Enable: the device sends data again.", ENABLE
    )
)
blp.route("/Device/stopUsing/<int:device_id>")(
    _state_action(
        "DeviceStopUsing", lambda i: services.set_enabled(i, False), "Disable: no more data is accepted.", DISABLE
    )
)
blp.route("/Device/scrap/<int:device_id>")(
    _state_action("DeviceScrap", services.scrap, "Scrap: irreversible; the history is kept.", DELETE)
)


@blp.route("/Device/batch")
class DeviceBatch(MethodView):
    @blp.requires("device.list.query")
    @blp.arguments(BatchActionSchema)
    @blp.response(200, BatchResultSchema(many=True))
    def post(self, args):
        """Enable, disable, scrap, delete, pin or unpin several devices: a result per device."""
        return services.batch(args["action"], args["deviceIds"])


@blp.route("/Device/focus/<int:device_id>")
class DeviceFocus(MethodView):
    @blp.requires("device.list.edit", device="device_id", access=OPERATE, block="info")
    @blp.arguments(FocusSchema)
    @blp.response(200, DeviceItemSchema)
    @missing()
    def put(self, args, device_id: int):
        """Pin a device to the top of lists, or unpin it."""
        device = services.set_focus(device_id, args["focus"])
        return listing.with_state(device, device.state, device.updated_at)


@blp.route("/Device/delete/<int:device_id>")
class DeviceDelete(MethodView):
    @blp.requires("device.list.delete", device="device_id", access=OPERATE)
    @blp.response(200)
    @missing()
    def delete(self, device_id: int):
        """Remove a device from the account (its history stays with the GUID)."""
        services.delete(device_id)


@blp.route("/DeviceEvent/list")
class DeviceEvents(MethodView):
    @blp.requires("device.list.query", device="deviceId", block="log")
    @blp.arguments(DeviceIdQuerySchema, location="query")
    @blp.response(200, DeviceEventSchema(many=True))
    @missing()
    def get(self, args):
        """The device's operation log, newest first."""
        return services.events(args["deviceId"])


@blp.route("/DeviceCommand/send")
class CommandSend(MethodView):
    @blp.requires("device.list.edit", device="deviceId", access=OPERATE, block=PARAMETERS, gxp=GXP_REASON)
    @blp.arguments(CommandSendSchema)
    @blp.response(200, CommandSchema)
    @missing()
    def post(self, args):
        """Change settings (parameter key in hex -> value); sent on devices/{guid}/commands."""
        return commands.send_command(args["deviceId"], args["params"])


@blp.route("/DeviceCommand/batchSend")
class CommandBatchSend(MethodView):
    @blp.requires("device.list.edit", device="deviceIds", access=OPERATE, block=PARAMETERS, gxp=GXP_REASON)
    @blp.arguments(BatchCommandSchema)
    @blp.response(200, BatchResultSchema(many=True))
    @missing()
    def post(self, args):
        """The same settings to several devices of one model (types with batch parameters): a result per
        device; devices of different models or values the model does not take refuse the whole batch."""
        return commands.send_batch(args["deviceIds"], args["params"])


@blp.route("/DeviceCommand/list")
class CommandList(MethodView):
    @blp.requires("device.list.query", device="deviceId", block="params")
    @blp.arguments(DeviceIdQuerySchema, location="query")
    @blp.response(200, CommandSchema(many=True))
    @missing()
    def get(self, args):
        """Recent commands of a device and whether the device applied them."""
        return commands.commands(args["deviceId"])


@blp.route("/MaintenanceRecord/page")
class RecordPage(MethodView):
    @blp.requires("device.list.query", device="deviceId", block="records")
    @blp.arguments(MaintenanceQuerySchema)
    @blp.response(200, MaintenanceRecordSchema, page=True)
    @missing()
    def post(self, args):
        """Maintenance and warranty records of a device, newest first."""
        return records.record_page(args)


@blp.route("/MaintenanceRecord/insert")
class RecordInsert(MethodView):
    @blp.requires("device.list.edit", device="deviceId", access=OPERATE, block="records")
    @blp.arguments(MaintenanceRecordInputSchema)
    @blp.response(200, MaintenanceRecordSchema)
    @missing()
    def post(self, args):
        """Add a maintenance or warranty record."""
        return records.save_record(args)


@blp.route("/MaintenanceRecord/update")
class RecordUpdate(MethodView):
    @blp.requires("device.list.edit", maintenance="id", access=OPERATE, block="records")
    @blp.arguments(MaintenanceRecordUpdateSchema)
    @blp.response(200, MaintenanceRecordSchema)
    @missing()
    def put(self, args):
        """Change a maintenance or warranty record."""
        return records.save_record(args)


@blp.route("/MaintenanceRecord/delete/<int:record_id>")
class RecordDelete(MethodView):
    @blp.requires("device.list.edit", maintenance="record_id", access=OPERATE, block="records")
    @blp.response(200)
    @missing()
    def delete(self, record_id: int):
        """Delete a maintenance or warranty record."""
        records.delete_record(record_id)


@blp.route("/DeviceExpireInfo/getExpiredInfoByType")
class ExpiryInfo(MethodView):
    @blp.requires("device.list.query")
    @blp.arguments(ExpiryInfoQuerySchema, location="query")
    @blp.response(200, ExpiryInfoSchema)
    def get(self, args):
        """Service-expiry reminder of the signed-in account (asked when a token appears)."""
        return listing.expiry_info()


@blp.route("/Device/getExpiredServiceDevice")
class ExpiredDevices(MethodView):
    @blp.requires("device.list.query")
    @blp.arguments(ExpiredDeviceQuerySchema, location="query")
    @blp.response(200, ExpiredDeviceSchema, page=True)
    def get(self, args):
        """Devices by expiry flag (1 expiring within 30 days, 2 expired, 3 past the 3-month grace)."""
        return listing.expired_devices(args)


QUICK_GUID = re.compile(r"\d{1,20}")


@blp.route("/Device/quickQuery")
class QuickQuery(MethodView):
    # Public: limited per address so GUIDs cannot be enumerated.
    decorators = [limiter.limit("30 per minute;300 per hour", methods=["GET"])]

    @blp.public("the quick query of visitors (quick-search devices only)")
    @blp.arguments(QuickQuerySchema, location="query")
    @blp.response(200, QuickResultSchema)
    def get(self, args):
        """Quick query (no sign-in): by its complete GUID, a device whose owner turned quick search on:
        type, status, latest values and the last 24 h."""
        return listing.quick_query(args["guid"])
