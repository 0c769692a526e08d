from __future__ import annotations

from datetime import datetime, timedelta

from flask import current_app, request
from flask.views import MethodView
from flask_babel import gettext
from sqlalchemy import select

from api.access.reach import require_block, visible_values
from api.device.listing import visible_sensors
from api.device.models import CommandStatus, DeviceCommand
from api.device.schemas import CommandAckSchema, CommandSchema, DeviceIdQuerySchema
from api.device.services import acknowledge_command, owned_device
from api.extensions.db import database_away, db, utcnow
from api.extensions.group_commit import GroupCommit
from api.extensions.i18n import caller_zone
from api.extensions.smorest import ApiError, Blueprint, ErrorEnvelopeSchema
from api.telemetry import device_auth, queries
from api.telemetry.conflicts import conflicts_in
from api.telemetry.fast_upload import UploadFastPath, take_outcome
from api.telemetry.ingest import (
    DeviceRefusedError,
    DeviceUpload,
    ForeignUploadError,
    IngestResult,
    UnknownDeviceError,
    ingest_uploads,
    travels_alone,
)
from api.telemetry.schemas import (
    ChartQuerySchema,
    ChartSchema,
    ConflictSchema,
    EnergyMonthSchema,
    LatestSchema,
    RangeQuerySchema,
    TrackPointSchema,
    UploadResultSchema,
    UploadSchema,
)
from api.units import to_unit

MAX_CONFLICTS = 1000

blp = Blueprint("telemetry", __name__, url_prefix="/api/device", description="Telemetry: ingestion and queries")
LIST = "device.list"
DEVICE_HEADERS = {
    "parameters": [
        {"in": "header", "name": "X-Device-Id", "required": True, "schema": {"type": "string"}},
        {"in": "header", "name": "X-Device-Key", "required": True, "schema": {"type": "string"}},
    ]
}


def calling_device():
    device = device_auth.authenticate(request.headers.get("X-Device-Id"), request.headers.get("X-Device-Key"))
    if device is None:
        raise _unknown_device()
    return device


def _unknown_device() -> ApiError:
    return ApiError(gettext("Unknown device or wrong device credential."), code=401, http_status=401)


def _ingest_group(uploads: list[DeviceUpload]) -> list[IngestResult | Exception]:
    try:
        return ingest_uploads(uploads)
    except Exception:
        db.session.rollback()  # the group is then done upload by upload, on this session
        raise


UPLOAD_ROUTE = "/DeviceData/upload"


@blp.record_once
def _start_upload_group(state) -> None:
    # Per app and process: uploads arriving together are authenticated and stored in one transaction,
    # and clean ones answered below Flask's request machinery (api/telemetry/fast_upload.py).
    state.app.extensions["telemetry.uploads"] = upload_group(_ingest_group)
    state.app.wsgi_app = UploadFastPath(state.app.wsgi_app, state.app, blp.url_prefix + UPLOAD_ROUTE)


def _give_back_connection() -> None:
    if db.session.registry.has():  # a follower that used no session has none to close
        db.session.close()


def upload_group(run_group) -> GroupCommit:
    """One device's uploads one per group; a waiting upload gives its pooled connection back; a group
    that lost the database is not retried upload by upload; a large batch is stored on its own."""
    return GroupCommit(
        run_group,
        key=lambda upload: upload.device_guid,
        before_wait=_give_back_connection,
        alone_after=lambda exc: not database_away(exc),
        alone=travels_alone,
    )


@blp.route(UPLOAD_ROUTE)
class Upload(MethodView):
    @blp.public("devices: authenticated by their GUID and device key")
    @blp.doc(**DEVICE_HEADERS)
    @blp.arguments(UploadSchema, unknown="include")
    @blp.response(200, UploadResultSchema)
    @blp.alt_response(401, schema=ErrorEnvelopeSchema, description="Bad device credential")
    @blp.alt_response(403, schema=ErrorEnvelopeSchema, description="Another device's GUID, or device refused")
    def post(self, payload):
        """Device upload (HTTP batch). Answers after the batch is committed; re-sent readings are
        counted as duplicates; bad records are listed with their reason, good ones kept. Uploads
        that arrive together are committed together (a group commit), each answered with its own result;
        a large batch is committed on its own. A clean upload is answered the same below Flask
        (api/telemetry/fast_upload.py), which hands here every other outcome of the work it did."""
        done = take_outcome()
        if done is not None:
            result = done.get()
        else:
            upload = DeviceUpload(
                request.headers.get("X-Device-Id"),
                request.headers.get("X-Device-Key"),
                payload["guid"],
                payload["records"],
            )
            result = current_app.extensions["telemetry.uploads"].submit(upload)
        if isinstance(result, UnknownDeviceError):
            raise _unknown_device()
        if isinstance(result, ForeignUploadError):
            raise ApiError(gettext("A device may only upload its own data."), code=403, http_status=403)
        if isinstance(result, DeviceRefusedError):
            raise ApiError(str(result.reason), code=3004, http_status=403) from result
        if result.rejected and not result.kept:
            # Nothing of the batch was kept: a non-zero code says so, the reasons are in data.
            msg = gettext("The batch was refused: no record could be stored.")
            raise ApiError(msg, code=422, http_status=422, data=UploadResultSchema().dump(result))
        return result


@blp.route("/DeviceCommand/pending")
class PendingCommands(MethodView):
    @blp.public("devices: authenticated by their GUID and device key")
    @blp.doc(**DEVICE_HEADERS)
    @blp.response(200, CommandSchema(many=True))
    def get(self):
        """Commands waiting for the calling device (for devices without MQTT)."""
        device = calling_device()
        return list(
            db.session.scalars(
                select(DeviceCommand)
                .where(DeviceCommand.device_id == device.id, DeviceCommand.status == CommandStatus.PENDING)
                .order_by(DeviceCommand.id)
            )
        )


@blp.route("/DeviceCommand/ack")
class AckCommand(MethodView):
    @blp.public("devices: authenticated by their GUID and device key")
    @blp.doc(**DEVICE_HEADERS)
    @blp.arguments(CommandAckSchema)
    @blp.response(200)
    def post(self, args):
        """The calling device reports a command applied or failed."""
        acknowledge_command(
            calling_device().id, args["commandId"], args["ok"], args["error"], args["progress"], args["version"]
        )


@blp.route("/DeviceData/latest")
class Latest(MethodView):
    @blp.requires("device.list.query", device="deviceId", block="realtime")
    @blp.arguments(DeviceIdQuerySchema, location="query")
    @blp.response(200, LatestSchema)
    def get(self, args):
        """Latest values of a device (from the state table)."""
        device = owned_device(args["deviceId"])
        require_block(device, "realtime")
        state = device.state
        return {
            "deviceId": device.id,
            "lastDataTime": state.last_data_at if state else None,
            "values": visible_values(device, state.values if state else None),
            "battery": state.battery if state else None,
            "signal": state.signal if state else None,
            "lat": state.lat if state else None,
            "lng": state.lng if state else None,
        }


@blp.route("/DeviceData/chart")
class Chart(MethodView):
    @blp.requires("device.list.query", device="deviceId", block="chart")
    @blp.arguments(ChartQuerySchema, location="query")
    @blp.response(200, ChartSchema)
    def get(self, args):
        """Series per sensor: raw readings for short ranges, min/max/avg buckets for long ones
        (at most ~2,000 points per sensor). Temperatures in the requested unit."""
        device = owned_device(args["deviceId"])
        require_block(device, "chart")
        probes = {sensor["probeId"]: sensor for sensor in visible_sensors(device)}
        sensors = [s for s in (args.get("sensors") or sorted(probes)) if s in probes]
        correct = device.calibration_correction
        data = queries.chart(device.id, sensors, args["start"], args["end"], device.interval_s, correct=correct)
        for sensor, points in data["series"].items():
            unit = probes[sensor]["unitCode"]
            for point in points:
                for key in ("v", "min", "max", "r"):
                    if point.get(key) is not None:
                        point[key] = to_unit(point[key], unit, args["unit"])
        return {
            "bucketSeconds": data["bucketSeconds"],
            "unit": args["unit"],
            "series": {str(s): points for s, points in data["series"].items()},
            "gaps": {str(s): gaps for s, gaps in data["gaps"].items()},
            "gapSeconds": data["gapSeconds"],
            "overdue": {str(s): spans for s, spans in data["overdue"].items()},
            "corrected": correct,
            "corrections": {str(s): spans for s, spans in data.get("corrections", {}).items()},
        }


@blp.route("/DeviceData/conflicts")
class Conflicts(MethodView):
    @blp.requires("device.list.query", device="deviceId", block="chart")
    @blp.arguments(ChartQuerySchema, location="query")
    @blp.response(200, ConflictSchema(many=True))
    def get(self, args):
        """Values received for a time that already had a different reading (the first value stays
        the record; these are kept beside it), oldest first, at most MAX_CONFLICTS. Temperatures in
        the requested unit."""
        device = owned_device(args["deviceId"])
        require_block(device, "chart")
        probes = {sensor["probeId"]: sensor for sensor in visible_sensors(device)}
        sensors = [s for s in (args.get("sensors") or sorted(probes)) if s in probes]
        rows = conflicts_in(device.id, args["start"], args["end"], sensors)[:MAX_CONFLICTS]
        return [
            {
                "sensor": row.sensor,
                "ts": row.ts,
                "value": to_unit(row.value, probes[row.sensor]["unitCode"], args["unit"]),
                "stored_value": to_unit(row.stored_value, probes[row.sensor]["unitCode"], args["unit"]),
                "received_at": row.received_at,
            }
            for row in rows
        ]


@blp.route("/DeviceData/track")
class Track(MethodView):
    @blp.requires("device.list.query", device="deviceId", block="map")
    @blp.arguments(RangeQuerySchema, location="query")
    @blp.response(200, TrackPointSchema(many=True))
    def get(self, args):
        """Positions of a device over a range (map track)."""
        device = owned_device(args["deviceId"])
        require_block(device, "map")
        return queries.track(device.id, args["start"], args["end"])


@blp.route("/DeviceData/energy")
class Energy(MethodView):
    @blp.requires("device.list.query", device="deviceId", block="energy")
    @blp.arguments(DeviceIdQuerySchema, location="query")
    @blp.response(200, EnergyMonthSchema(many=True))
    def get(self, args):
        """Energy consumption of the last 12 months (devices with an energy meter)."""
        device = owned_device(args["deviceId"])
        require_block(device, "energy")
        meter = next((p.probe_id for p in device.device_type.params if p.param_type == "energy"), None)
        if meter is None:
            return []
        return queries.energy_by_month(device.id, meter, last_months(12, utcnow()))


def last_months(count: int, now: datetime) -> list[tuple[datetime, datetime]]:
    zone = caller_zone()
    month = now.astimezone(zone).replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    months = []
    for _ in range(count):
        following = (month + timedelta(days=32)).replace(day=1)
        months.append((month, following))
        month = (month - timedelta(days=1)).replace(day=1)
    return list(reversed(months))
