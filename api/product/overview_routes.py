"""The operator's fleet views: /operation/device/list and /operation/device/alarmlist (read only)."""

from __future__ import annotations

from flask.views import MethodView

from api.extensions.smorest import Blueprint, ErrorEnvelopeSchema
from api.product import overview
from api.product.overview_schemas import (
    FleetAlarmQuerySchema,
    FleetAlarmSchema,
    FleetDeviceQuerySchema,
    FleetDeviceSchema,
)

blp = Blueprint("fleet_overview", __name__, url_prefix="/api/product", description="The fleet's devices and alarms")


@blp.route("/FleetDevice/page")
class FleetDevicePage(MethodView):
    @blp.requires("operation.device.list.query")
    @blp.arguments(FleetDeviceQuerySchema)
    @blp.response(200, FleetDeviceSchema, page=True)
    @blp.alt_response(403, schema=ErrorEnvelopeSchema, description="Not platform staff")
    def post(self, args):
        """Every device of the platforms this staff member runs: owner, model, SIM, expiry, state."""
        return overview.device_page(args)


@blp.route("/FleetAlarm/page")
class FleetAlarmPage(MethodView):
    @blp.requires("operation.device.alarmlist.query")
    @blp.arguments(FleetAlarmQuerySchema)
    @blp.response(200, FleetAlarmSchema, page=True)
    @blp.alt_response(403, schema=ErrorEnvelopeSchema, description="Not platform staff")
    def post(self, args):
        """Every alarm of those platforms, newest first, with its device and owner."""
        return overview.alarm_page(args)
