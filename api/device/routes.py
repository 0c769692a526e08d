from __future__ import annotations

from flask.views import MethodView

from api.device import services
from api.device.schemas import (
    BatchActionSchema,
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
from api.extensions.smorest import Blueprint, ErrorEnvelopeSchema

blp = Blueprint("device", __name__, url_prefix="/api/device", description="Device registry")
LIST = "device.list"
# Action keys (console-shell section 6, route.action): members hold them through their roles.
ADD, EDIT, DELETE = f"{LIST}.add", f"{LIST}.edit", f"{LIST}.delete"
ENABLE, DISABLE = f"{LIST}.enable", f"{LIST}.disable"


def missing():
    return blp.alt_response(404, schema=ErrorEnvelopeSchema, description="No such device of this account")


@blp.route("/Device/page")
class DevicePage(MethodView):
    @blp.login_required(LIST)
    @blp.arguments(DevicePageQuerySchema)
    @blp.response(200, DeviceItemSchema, page=True)
    def post(self, args):
        """The account's devices with latest state; filters name/GUID, status, category, expiry."""
        return services.page(args, caller_zone())


@blp.route("/Device/statusCount")
class StatusCount(MethodView):
    @blp.login_required(LIST)
    @blp.response(200, StatusCountSchema)
    def get(self):
        """Home status counts, from the latest-state table."""
        return services.status_counts()


@blp.route("/Device/detail/<int:device_id>")
class DeviceDetail(MethodView):
    @blp.login_required(LIST)
    @blp.response(200, DeviceDetailSchema)
    @missing()
    def get(self, device_id: int):
        """One device with its type's parameters and latest state."""
        return services.detail(device_id)


@blp.route("/Device/add")
class DeviceAdd(MethodView):
    @blp.login_required(ADD)
    @blp.arguments(DeviceAddSchema)
    @blp.response(200, DeviceItemSchema)
    def post(self, args):
        """Add a device by its complete GUID."""
        device = services.add_device(args["deviceGuid"], args["deviceName"], args["timeZone"], args["remark"])
        return services.with_state(device, device.state, device.claimed_at)


@blp.route("/Device/update")
class DeviceUpdate(MethodView):
    @blp.login_required(EDIT)
    @blp.arguments(DeviceUpdateSchema)
    @blp.response(200, DeviceItemSchema)
    @missing()
    def put(self, args):
        """Rename a device, change its time zone or remark."""
        columns = {"deviceName": "name", "timeZone": "time_zone", "remark": "remark"}
        changes = {columns[key]: value for key, value in args.items() if key in columns}
        device = services.update_device(args["deviceId"], changes)
        return services.with_state(device, device.state, device.updated_at)


def _state_action(name: str, action, summary: str, key: str = LIST):
    class StateAction(MethodView):
        @blp.login_required(key)
        @blp.response(200, DeviceItemSchema)
        @missing()
        def put(self, device_id: int):
            device = action(device_id)
            return services.with_state(device, device.state, device.updated_at)

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
    @blp.login_required(LIST)
    @blp.arguments(BatchActionSchema)
    @blp.response(200, BatchResultSchema(many=True))
    def post(self, args):
        """Enable, disable, scrap, delete, pin or unpin several devices: a result per device."""
        return services.batch(args["action"], args["deviceIds"])


@blp.route("/Device/focus/<int:device_id>")
class DeviceFocus(MethodView):
    @blp.login_required(LIST)
    @blp.arguments(FocusSchema)
    @blp.response(200, DeviceItemSchema)
    @missing()
    def put(self, args, device_id: int):
        """Pin a device to the top of lists, or unpin it."""
        device = services.set_focus(device_id, args["focus"])
        return services.with_state(device, device.state, device.updated_at)


@blp.route("/Device/delete/<int:device_id>")
class DeviceDelete(MethodView):
    @blp.login_required(DELETE)
    @blp.response(200)
    @missing()
    def delete(self, device_id: int):
        """Remove a device from the account (its history stays with the GUID)."""
        services.delete(device_id)


@blp.route("/DeviceEvent/list")
class DeviceEvents(MethodView):
    @blp.login_required(LIST)
    @blp.arguments(DeviceIdQuerySchema, location="query")
    @blp.response(200, DeviceEventSchema(many=True))
    @missing()
    def get(self, args):
        """The device's operation log, newest first."""
        return services.events(args["deviceId"])


@blp.route("/DeviceCommand/send")
class CommandSend(MethodView):
    @blp.login_required(EDIT)
    @blp.arguments(CommandSendSchema)
    @blp.response(200, CommandSchema)
    @missing()
    def post(self, args):
        """Change settings (parameter key in hex -> value); sent on devices/{guid}/commands."""
        return services.send_command(args["deviceId"], args["params"])


@blp.route("/DeviceCommand/list")
class CommandList(MethodView):
    @blp.login_required(LIST)
    @blp.arguments(DeviceIdQuerySchema, location="query")
    @blp.response(200, CommandSchema(many=True))
    @missing()
    def get(self, args):
        """Recent commands of a device and whether the device applied them."""
        return services.commands(args["deviceId"])


@blp.route("/MaintenanceRecord/page")
class RecordPage(MethodView):
    @blp.login_required(LIST)
    @blp.arguments(MaintenanceQuerySchema)
    @blp.response(200, MaintenanceRecordSchema, page=True)
    @missing()
    def post(self, args):
        """Maintenance and warranty records of a device, newest first."""
        return services.record_page(args)


@blp.route("/MaintenanceRecord/insert")
class RecordInsert(MethodView):
    @blp.login_required(EDIT)
    @blp.arguments(MaintenanceRecordInputSchema)
    @blp.response(200, MaintenanceRecordSchema)
    @missing()
    def post(self, args):
        """Add a maintenance or warranty record."""
        return services.save_record(args)


@blp.route("/MaintenanceRecord/update")
class RecordUpdate(MethodView):
    @blp.login_required(EDIT)
    @blp.arguments(MaintenanceRecordUpdateSchema)
    @blp.response(200, MaintenanceRecordSchema)
    @missing()
    def put(self, args):
        """Change a maintenance or warranty record."""
        return services.save_record(args)


@blp.route("/MaintenanceRecord/delete/<int:record_id>")
class RecordDelete(MethodView):
    @blp.login_required(EDIT)
    @blp.response(200)
    @missing()
    def delete(self, record_id: int):
        """Delete a maintenance or warranty record."""
        services.delete_record(record_id)


@blp.route("/DeviceExpireInfo/getExpiredInfoByType")
class ExpiryInfo(MethodView):
    @blp.login_required()
    @blp.arguments(ExpiryInfoQuerySchema, location="query")
    @blp.response(200, ExpiryInfoSchema)
    def get(self, args):
        """Service-expiry reminder of the signed-in account (asked when a token appears)."""
        return services.expiry_info()


@blp.route("/Device/getExpiredServiceDevice")
class ExpiredDevices(MethodView):
    @blp.login_required()
    @blp.arguments(ExpiredDeviceQuerySchema, location="query")
    @blp.response(200, ExpiredDeviceSchema, page=True)
    def get(self, args):
        """Devices by expiry flag (1 expiring within 30 days, 2 expired, 3 past the 3-month grace)."""
        return services.expired_devices(args)


@blp.route("/Device/quickQuery")
class QuickQuery(MethodView):
    # Public: limited per address so GUIDs cannot be enumerated.
    decorators = [limiter.limit("30 per minute;300 per hour", methods=["GET"])]

    @blp.arguments(QuickQuerySchema, location="query")
    @blp.response(200, QuickResultSchema)
    def get(self, args):
        """Quick query (no sign-in): a device's latest values by its complete GUID."""
        return services.quick_query(args["guid"])
