from __future__ import annotations

import marshmallow as ma
from flask_babel import gettext
from marshmallow import validate
from webargs.fields import DelimitedList

from api.device.guids import GUID_PATTERN
from api.extensions.integers import Integer
from api.extensions.smorest import LocalDateTime, Schema


class RecordList(ma.fields.List):
    """A list of records taken as they are: the hot path checks each record by hand (records.py);
    a List(Raw) deserialized every one of them first (0.5 ms of a 500-record batch)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, list):
            raise self.make_error("invalid")
        return value


class UploadSchema(Schema):
    """Documentation of the telemetry format; the hot path validates records by hand (records.py)."""

    guid = ma.fields.String(
        required=True, validate=validate.Regexp(GUID_PATTERN), metadata={"description": "the device GUID (digits)"}
    )
    records = RecordList(
        ma.fields.Raw(),
        required=True,
        metadata={
            "description": 'each {"ts": epoch ms | ISO 8601, "readings": {"1": 4.2}, "battery": 87, "signal": -71, '
            '"location": {"lat": 31.2, "lng": 121.5}}'
        },
    )


class RejectedSchema(Schema):
    index = Integer(allow_none=True)
    field = ma.fields.String()
    reason = ma.fields.String()


class UploadResultSchema(Schema):
    accepted = Integer(metadata={"description": "readings stored"})
    duplicates = Integer(metadata={"description": "readings already stored (re-sent)"})
    conflicts = Integer(
        metadata={"description": "of the duplicates, values differing from the stored reading: kept and reported"}
    )
    rejected = ma.fields.List(ma.fields.Nested(RejectedSchema))


class RangeQuerySchema(Schema):
    deviceId = Integer(required=True)
    start = ma.fields.AwareDateTime(required=True)
    end = ma.fields.AwareDateTime(required=True)

    @ma.validates_schema
    def ordered(self, data, **kwargs):
        if data["end"] <= data["start"]:
            raise ma.ValidationError(gettext("The end time must be after the start time."), "end")
        if (data["end"] - data["start"]).days > 400:
            raise ma.ValidationError(gettext("At most 400 days at a time."), "end")


class ChartQuerySchema(RangeQuerySchema):
    sensors = DelimitedList(Integer(validate=validate.Range(min=0, max=255)))
    unit = ma.fields.String(load_default="C", validate=validate.OneOf(["C", "F"]))


class ConflictSchema(Schema):
    """A value received for a time that already had a different reading: kept beside the record."""

    sensor = Integer()
    time = LocalDateTime(attribute="ts")
    value = ma.fields.Float(metadata={"description": "the conflicting value received (in the requested unit)"})
    storedValue = ma.fields.Float(attribute="stored_value", metadata={"description": "the reading kept as the record"})
    receivedAt = LocalDateTime(attribute="received_at")


class ChartSchema(Schema):
    bucketSeconds = Integer(metadata={"description": "0: raw readings; else bucket width (min/max/avg)"})
    unit = ma.fields.String()
    # Up to 2,000 points per sensor: dumped as built (no per-point schema work on the hot path).
    series = ma.fields.Raw(
        metadata={
            "description": 'sensor -> [{"t": epoch ms, "v": value or bucket average, "min": ..., "max": ..., '
            '"b": true when back-filled, "o": true when taken while the probe\'s calibration was overdue, '
            '"c": true when corrected by the probe\'s certificate with "r" the raw value}]; '
            'inside a gap one point with "v": null (no line across it)',
            "type": "object",
        }
    )
    gaps = ma.fields.Raw(
        metadata={
            "description": 'sensor -> [{"start": epoch ms, "end": epoch ms, "seconds": n}]: no data in between',
            "type": "object",
        }
    )
    gapSeconds = ma.fields.Float(metadata={"description": "no data for longer than this is a gap"})
    overdue = ma.fields.Raw(
        metadata={
            "description": 'sensor -> [{"start": epoch ms, "end": epoch ms}]: the probe\'s calibration was '
            "overdue (after its latest certificate's due date, before its next calibration), clipped to the range",
            "type": "object",
        }
    )
    corrected = ma.fields.Boolean(
        metadata={"description": "the device applies its probes' calibration correction to displayed values"}
    )
    corrections = ma.fields.Raw(
        metadata={
            "description": 'sensor -> [{"start": epoch ms, "end": epoch ms, "certificate": number}]: values '
            "corrected by that certificate (a passed one with points, from its calibration to its due date or "
            "the next calibration), clipped to the range",
            "type": "object",
        }
    )


class LatestSchema(Schema):
    deviceId = Integer()
    lastDataTime = LocalDateTime(allow_none=True)
    values = ma.fields.Dict()
    battery = ma.fields.Float(allow_none=True)
    signal = ma.fields.Float(allow_none=True)
    lat = ma.fields.Float(allow_none=True)
    lng = ma.fields.Float(allow_none=True)


class TrackPointSchema(Schema):
    t = LocalDateTime(attribute="ts")
    lat = ma.fields.Float()
    lng = ma.fields.Float()
    battery = ma.fields.Float(allow_none=True)


class EnergyMonthSchema(Schema):
    month = LocalDateTime()
    kwh = ma.fields.Float()
