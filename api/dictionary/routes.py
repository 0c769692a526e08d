from __future__ import annotations

import marshmallow as ma
from flask.views import MethodView
from marshmallow import validate

from api.dictionary import services
from api.extensions.integers import Integer
from api.extensions.smorest import Blueprint, Schema

blp = Blueprint("dictionary", __name__, url_prefix="/api/base/BaseDict", description="Shared dictionaries")


class TimeZoneQuerySchema(Schema):
    type = ma.fields.String(load_default="all", validate=validate.OneOf(["all", "common"]))


class TimeZoneSchema(Schema):
    value = ma.fields.String(metadata={"description": "IANA name, e.g. Asia/Shanghai"})
    label = ma.fields.String(metadata={"description": "(UTC+08:00) and the place, in the caller's language"})
    offset = Integer(metadata={"description": "Minutes east of UTC now"})


@blp.route("/queryTimeZoneByType")
class TimeZones(MethodView):
    @blp.public("the time-zone dictionary of the forms, registration included: reference data")
    @blp.arguments(TimeZoneQuerySchema, location="query")
    @blp.response(200, TimeZoneSchema(many=True))
    def get(self, args):
        """The time zones every time-zone select offers (public: the register form uses it too)."""
        return services.time_zones(args["type"])
