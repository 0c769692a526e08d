"""Series (/operation/device/series), firmware versions and over-the-air upgrades
(/operation/device/version). Operator only; devices download the firmware they are being sent."""

from __future__ import annotations

from flask import request
from flask.views import MethodView
from flask_babel import gettext

from api.extensions.smorest import ApiError, Blueprint, ErrorEnvelopeSchema
from api.extensions.uploads import send_upload
from api.product import firmware, rollouts
from api.product.firmware_schemas import (
    FirmwareFileSchema,
    FirmwareInputSchema,
    FirmwareQuerySchema,
    FirmwareSchema,
    RetrySchema,
    RolloutDetailSchema,
    RolloutInputSchema,
    RolloutQuerySchema,
    RolloutSchema,
    SeriesInputSchema,
    SeriesOptionSchema,
    SeriesQuerySchema,
    SeriesSchema,
    SeriesUpdateSchema,
)
from api.telemetry import device_auth

blp = Blueprint(
    "product_firmware", __name__, url_prefix="/api/product", description="Series, firmware and over-the-air upgrades"
)
SERIES = "operation.product.series"
VERSION = "operation.product.version"
DEVICE_HEADERS = {
    "parameters": [
        {"in": "header", "name": "X-Device-Id", "required": True, "schema": {"type": "string"}},
        {"in": "header", "name": "X-Device-Key", "required": True, "schema": {"type": "string"}},
    ]
}


def refused(status: int, description: str):
    return blp.alt_response(status, schema=ErrorEnvelopeSchema, description=description)


# ---- series ------------------------------------------------------------------------------------------------


@blp.route("/DeviceSeries/page")
class SeriesPage(MethodView):
    @blp.requires(f"{SERIES}.query")
    @blp.arguments(SeriesQuerySchema)
    @blp.response(200, SeriesSchema, page=True)
    @refused(403, "Not the platform operator")
    def post(self, args):
        """The platform's series with the number of device types in each."""
        return firmware.series_page(args)


@blp.route("/DeviceSeries/list")
class SeriesList(MethodView):
    @blp.requires(f"{SERIES}.query")
    @blp.response(200, SeriesOptionSchema(many=True))
    @refused(403, "Not the platform operator")
    def get(self):
        """Every series as an option (a device type chooses one)."""
        return firmware.series_options()


@blp.route("/DeviceSeries/insert")
class SeriesInsert(MethodView):
    @blp.requires(f"{SERIES}.add")
    @blp.arguments(SeriesInputSchema)
    @blp.response(200, SeriesSchema)
    @refused(403, "Not the platform operator")
    @refused(422, "A field is invalid or the name already used")
    def post(self, args):
        """A new series (name 1-50, unique on the platform)."""
        return firmware.save_series(args)


@blp.route("/DeviceSeries/update")
class SeriesUpdate(MethodView):
    @blp.requires(f"{SERIES}.edit")
    @blp.arguments(SeriesUpdateSchema)
    @blp.response(200, SeriesSchema)
    @refused(403, "Not the platform operator")
    @refused(404, "No such series")
    @refused(422, "A field is invalid or the name already used")
    def put(self, args):
        """Rename a series; its device types follow."""
        return firmware.save_series(args)


@blp.route("/DeviceSeries/delete/<int:series_id>")
class SeriesDelete(MethodView):
    @blp.requires(f"{SERIES}.delete")
    @blp.response(200)
    @refused(403, "Not the platform operator")
    @refused(404, "No such series")
    @refused(409, "Device types belong to it")
    def delete(self, series_id: int):
        """Delete a series no device type belongs to."""
        firmware.delete_series(series_id)


# ---- firmware versions ---------------------------------------------------------------------------------------


@blp.route("/Firmware/page")
class FirmwarePage(MethodView):
    @blp.requires(f"{VERSION}.query")
    @blp.arguments(FirmwareQuerySchema)
    @blp.response(200, FirmwareSchema, page=True)
    @refused(403, "Not the platform operator")
    def post(self, args):
        """Firmware versions, newest first (by model, by version)."""
        return firmware.firmware_page(args)


@blp.route("/Firmware/upload")
class FirmwareUpload(MethodView):
    @blp.requires(f"{VERSION}.add")
    @blp.arguments(FirmwareInputSchema, location="query")
    @blp.arguments(FirmwareFileSchema, location="files")
    @blp.response(200, FirmwareSchema)
    @refused(403, "Not the platform operator")
    @refused(413, "The file is too large (the firmware cap)")
    @refused(422, "A field is invalid or the model has the version already")
    def post(self, args, files):
        """Upload a firmware file for a device model with its version (SHA-256 stored)."""
        return firmware.upload_firmware(args, files["upgradeMultipartFile"])


@blp.route("/Firmware/delete/<int:firmware_id>")
class FirmwareDelete(MethodView):
    @blp.requires(f"{VERSION}.delete")
    @blp.response(200)
    @refused(403, "Not the platform operator")
    @refused(404, "No such version")
    @refused(409, "A rollout uses it")
    def delete(self, firmware_id: int):
        """Delete a version no running or stopped rollout sends (its finished rollouts go with it)."""
        firmware.delete_firmware(firmware_id)


@blp.route("/Firmware/download/<int:firmware_id>")
class FirmwareDownload(MethodView):
    @blp.public("devices: authenticated by their GUID and device key")
    @blp.doc(**DEVICE_HEADERS)
    @blp.file_response("application/octet-stream", description="The firmware image")
    @refused(401, "Bad device credential")
    @refused(404, "Not a firmware this device is being sent")
    def get(self, firmware_id: int):
        """A device downloads the firmware of its upgrade (the command names this address)."""
        device = device_auth.authenticate(request.headers.get("X-Device-Id"), request.headers.get("X-Device-Key"))
        if device is None:
            raise ApiError(gettext("Unknown device or wrong device credential."), code=401, http_status=401)
        return send_upload(*rollouts.firmware_file(firmware_id, device))


# ---- upgrades ------------------------------------------------------------------------------------------------


@blp.route("/UpgradeRollout/insert")
class RolloutInsert(MethodView):
    @blp.requires(f"{VERSION}.add")
    @blp.arguments(RolloutInputSchema)
    @blp.response(200, RolloutSchema)
    @refused(403, "Not the platform operator")
    @refused(422, "A field is invalid, or a device is of another model or upgrading already")
    def post(self, args):
        """Issue an upgrade to one device, a selection of one model or the whole model in groups."""
        return rollouts.summary(rollouts.create_rollout(args))


@blp.route("/UpgradeRollout/page")
class RolloutPage(MethodView):
    @blp.requires(f"{VERSION}.query")
    @blp.arguments(RolloutQuerySchema)
    @blp.response(200, RolloutSchema, page=True)
    @refused(403, "Not the platform operator")
    def post(self, args):
        """Rollouts, newest first, with their groups and counts per state."""
        return rollouts.rollout_page(args)


@blp.route("/UpgradeRollout/detail/<int:rollout_id>")
class RolloutDetail(MethodView):
    @blp.requires(f"{VERSION}.query")
    @blp.response(200, RolloutDetailSchema)
    @refused(403, "Not the platform operator")
    @refused(404, "No such rollout")
    def get(self, rollout_id: int):
        """A rollout with every device's state."""
        return rollouts.rollout_detail(rollout_id)


@blp.route("/UpgradeRollout/retry")
class RolloutRetry(MethodView):
    @blp.requires(f"{VERSION}.edit")
    @blp.arguments(RetrySchema)
    @blp.response(200, RolloutSchema)
    @refused(403, "Not the platform operator")
    @refused(404, "No such rollout")
    @refused(422, "No failed device to retry")
    def put(self, args):
        """Send the failed devices again (all, or those named); a stopped rollout runs again."""
        return rollouts.summary(rollouts.retry(args))


@blp.route("/UpgradeRollout/cancel/<int:rollout_id>")
class RolloutCancel(MethodView):
    @blp.requires(f"{VERSION}.edit")
    @blp.response(200, RolloutSchema)
    @refused(403, "Not the platform operator")
    @refused(404, "No such rollout")
    @refused(409, "Finished already")
    def put(self, rollout_id: int):
        """Cancel a running or stopped rollout: devices not finished are failed."""
        return rollouts.summary(rollouts.cancel(rollout_id))
