from __future__ import annotations

import marshmallow as ma
from flask_babel import gettext
from marshmallow import validate

from api.budget.models import LotDisposition
from api.extensions.crud import record_id
from api.extensions.integers import Integer
from api.extensions.smorest import LocalDateTime, PageQuerySchema, Schema

MAX_BANDS = 10
MAX_HOURS = 100_000  # about eleven years
TEMPERATURE = validate.Range(min=-273.15, max=1000)


class StabilityBandSchema(Schema):
    low = ma.fields.Float(load_default=None, allow_none=True, validate=TEMPERATURE)
    high = ma.fields.Float(load_default=None, allow_none=True, validate=TEMPERATURE)
    hours = ma.fields.Float(required=True, validate=validate.Range(min=0, max=MAX_HOURS))


def _overlap(a: dict, b: dict) -> bool:
    low_a, high_a = a["low"] if a["low"] is not None else -math_inf, a["high"] if a["high"] is not None else math_inf
    low_b, high_b = b["low"] if b["low"] is not None else -math_inf, b["high"] if b["high"] is not None else math_inf
    return low_a < high_b and low_b < high_a


math_inf = float("inf")


class StabilityProfileInputSchema(Schema):
    """A stability profile: the labelled range, the bands outside it (each with its allowed cumulative
    hours; 0: none allowed), an optional MKT limit and the alert threshold (% of a band used)."""

    name = ma.fields.String(required=True, validate=validate.Length(min=1, max=50))
    rangeLow = ma.fields.Float(required=True, validate=TEMPERATURE)
    rangeHigh = ma.fields.Float(required=True, validate=TEMPERATURE)
    bands = ma.fields.List(
        ma.fields.Nested(StabilityBandSchema), required=True, validate=validate.Length(min=1, max=MAX_BANDS)
    )
    mktLimit = ma.fields.Float(load_default=None, allow_none=True, validate=TEMPERATURE)
    alertPercent = Integer(load_default=80, validate=validate.Range(min=1, max=100))

    @ma.validates_schema
    def _bands(self, data, **kwargs):
        low, high = data.get("rangeLow"), data.get("rangeHigh")
        if low is None or high is None or "bands" not in data:
            return
        if low >= high:
            raise ma.ValidationError(gettext("The lower end must be below the upper end."), "rangeLow")
        for index, band in enumerate(data["bands"]):
            field = f"bands.{index}"
            if band["low"] is None and band["high"] is None:
                raise ma.ValidationError(gettext("Give at least one end of the band."), field)
            if band["low"] is not None and band["high"] is not None and band["low"] >= band["high"]:
                raise ma.ValidationError(gettext("The lower end must be below the upper end."), field)
            above = band["low"] is not None and band["low"] >= high
            below = band["high"] is not None and band["high"] <= low
            if not (above or below):
                raise ma.ValidationError(gettext("A band must lie wholly outside the labelled range."), field)
            for other in data["bands"][:index]:
                if _overlap(band, other):
                    raise ma.ValidationError(gettext("Bands may not overlap."), field)


class StabilityProfileUpdateSchema(StabilityProfileInputSchema):
    id = record_id()


class StabilityProfileSchema(Schema):
    id = Integer()
    name = ma.fields.String()
    rangeLow = ma.fields.Float(attribute="range_low")
    rangeHigh = ma.fields.Float(attribute="range_high")
    bands = ma.fields.List(ma.fields.Nested(StabilityBandSchema))
    mktLimit = ma.fields.Float(attribute="mkt_limit", allow_none=True)
    alertPercent = Integer(attribute="alert_percent")


class StabilityProfilePageQuerySchema(PageQuerySchema):
    name = ma.fields.String(load_default=None, validate=validate.Length(max=50))


# ---- the budget -----------------------------------------------------------------------------------------


class StabilityBandUseSchema(Schema):
    low = ma.fields.Float(allow_none=True)
    high = ma.fields.Float(allow_none=True)
    allowedSeconds = Integer()
    usedSeconds = Integer()
    remainingSeconds = Integer()
    usedPercent = ma.fields.Float()
    alert = ma.fields.Boolean(metadata={"description": "the profile's alert threshold is reached"})
    exhausted = ma.fields.Boolean()


class BudgetGapSchema(Schema):
    start = Integer(metadata={"description": "epoch ms", "format": "int64"})
    end = Integer(metadata={"description": "epoch ms", "format": "int64"})


class StabilityBudgetSchema(Schema):
    """The budget used over a window (api/budget/compute.py: the rule)."""

    profile = ma.fields.Nested(StabilityProfileSchema, allow_none=True)
    windowStart = LocalDateTime(allow_none=True)
    windowEnd = LocalDateTime(allow_none=True)
    timeZone = ma.fields.String(
        allow_none=True,
        metadata={"description": "the zone the window is shown in: the device's (a lot: its storage's)"},
    )
    bands = ma.fields.List(ma.fields.Nested(StabilityBandUseSchema))
    inRangeSeconds = Integer()
    unbandedSeconds = Integer()
    unknownSeconds = Integer()
    gaps = ma.fields.List(ma.fields.Nested(BudgetGapSchema))
    readings = Integer()
    mkt = ma.fields.Float(allow_none=True)
    mktLimit = ma.fields.Float(allow_none=True)
    mktExceeded = ma.fields.Boolean()
    alert = ma.fields.Boolean()
    exhausted = ma.fields.Boolean()
    alerted = ma.fields.Boolean(metadata={"description": "the threshold alarm has been raised"})
    alarmId = Integer(allow_none=True)
    dispositionRequired = ma.fields.Boolean(
        metadata={"description": "a band is exhausted (or the MKT limit passed) and no disposition is recorded"}
    )
    disposition = ma.fields.String(allow_none=True)
    dispositionReason = ma.fields.String(allow_none=True)
    disposedAt = LocalDateTime(allow_none=True)


class WaybillBudgetQuerySchema(Schema):
    waybillId = Integer(required=True)


class WaybillBudgetAssignSchema(Schema):
    waybillId = Integer(required=True)
    profileId = Integer(load_default=None, allow_none=True, metadata={"description": "null: no profile"})


# ---- lots -----------------------------------------------------------------------------------------------


class StorageLotPageQuerySchema(PageQuerySchema):
    storageId = Integer(required=True)


class StorageLotInputSchema(Schema):
    storageId = Integer(required=True)
    product = ma.fields.String(required=True, validate=validate.Length(min=1, max=50))
    lotNumber = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=50))
    quantity = Integer(required=True, validate=validate.Range(min=1, max=1_000_000_000))
    placedAt = LocalDateTime(required=True)
    removedAt = LocalDateTime(load_default=None, allow_none=True)
    profileId = Integer(load_default=None, allow_none=True)

    @ma.validates_schema
    def _times(self, data, **kwargs):
        if data.get("removedAt") is not None and data.get("placedAt") and data["removedAt"] <= data["placedAt"]:
            raise ma.ValidationError(gettext("The lot must be removed after it was placed."), "removedAt")


class StorageLotUpdateSchema(StorageLotInputSchema):
    id = record_id()


class StorageLotIdSchema(Schema):
    id = Integer(required=True)


class StorageLotDisposeSchema(Schema):
    id = Integer(required=True)
    disposition = ma.fields.String(required=True, validate=validate.OneOf([d.value for d in LotDisposition]))
    reason = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=200))

    @ma.validates_schema
    def _reason(self, data, **kwargs):
        if data.get("disposition") != LotDisposition.RELEASED and not (data.get("reason") or "").strip():
            raise ma.ValidationError(gettext("Please give the reason."), "reason")


class StorageLotSchema(Schema):
    id = Integer()
    storageId = Integer(attribute="storage_id")
    product = ma.fields.String()
    lotNumber = ma.fields.String(attribute="lot_number", allow_none=True)
    quantity = Integer()
    placedAt = LocalDateTime(attribute="placed_at")
    removedAt = LocalDateTime(attribute="removed_at", allow_none=True)
    profileId = Integer(attribute="profile_id", allow_none=True)
    disposition = ma.fields.String(allow_none=True)
    dispositionReason = ma.fields.String(attribute="disposition_reason", allow_none=True)
    disposedAt = LocalDateTime(attribute="disposed_at", allow_none=True)
