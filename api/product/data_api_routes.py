"""The data API: the operator's keys (/operation/dataApi) and the open calls a customer's system
makes with one (tag "Data API", header X-Api-Key)."""

from __future__ import annotations

from flask.views import MethodView

from api.extensions.smorest import Blueprint, ErrorEnvelopeSchema, PageQuerySchema
from api.product import data_api
from api.product.data_api_schemas import (
    AlarmQuerySchema,
    DataApiKeyCreatedSchema,
    DataApiKeyInputSchema,
    DataApiKeyQuerySchema,
    DataApiKeySchema,
    OpenAlarmSchema,
    OpenDeviceSchema,
    OpenReadingsSchema,
    ReadingQuerySchema,
)

keys = Blueprint("data_api_keys", __name__, url_prefix="/api/product", description="Data-API keys (operator)")
open_api = Blueprint(
    "data_api",
    __name__,
    url_prefix="/api/open/v1",
    description="Data API: a customer's own system reads its account's devices with a key (header X-Api-Key)",
)
KEY = "operation.device.dataApi"
WHY = "authenticated by a data-API key (X-Api-Key) scoped to one account, not by a session"


@keys.route("/DataApiKey/page")
class DataApiKeyPage(MethodView):
    @keys.requires(f"{KEY}.query")
    @keys.arguments(DataApiKeyQuerySchema)
    @keys.response(200, DataApiKeySchema, page=True)
    @keys.alt_response(403, schema=ErrorEnvelopeSchema, description="Not the platform operator")
    def post(self, args):
        """Keys with their account, limit, last use and revocation (never the key itself)."""
        return data_api.key_page(args)


@keys.route("/DataApiKey/insert")
class DataApiKeyInsert(MethodView):
    @keys.requires(f"{KEY}.add")
    @keys.arguments(DataApiKeyInputSchema)
    @keys.response(200, DataApiKeyCreatedSchema)
    @keys.alt_response(403, schema=ErrorEnvelopeSchema, description="Not the platform operator")
    @keys.alt_response(422, schema=ErrorEnvelopeSchema, description="No such account, or a field is invalid")
    def post(self, args):
        """A new key for one account; the answer carries the key once."""
        return data_api.create_key(args)


@keys.route("/DataApiKey/revoke/<int:key_id>")
class DataApiKeyRevoke(MethodView):
    @keys.requires(f"{KEY}.edit")
    @keys.response(200, DataApiKeySchema)
    @keys.alt_response(403, schema=ErrorEnvelopeSchema, description="Not the platform operator")
    @keys.alt_response(404, schema=ErrorEnvelopeSchema, description="No such key")
    def put(self, key_id: int):
        """Revoke a key: its next call is refused."""
        return data_api.revoke_key(key_id)


def _refusals(view):
    view = open_api.alt_response(401, schema=ErrorEnvelopeSchema, description="Unknown or revoked key")(view)
    return open_api.alt_response(429, schema=ErrorEnvelopeSchema, description="Over the key's rate")(view)


@open_api.route("/devices/latest")
class OpenLatest(MethodView):
    @open_api.public(WHY)
    @open_api.arguments(PageQuerySchema, location="query")
    @open_api.response(200, OpenDeviceSchema, page=True)
    @_refusals
    def get(self, args):
        """The account's devices with their latest values."""
        return data_api.latest(args)


@open_api.route("/readings")
class OpenReadings(MethodView):
    @open_api.public(WHY)
    @open_api.arguments(ReadingQuerySchema, location="query")
    @open_api.response(200, OpenReadingsSchema)
    @_refusals
    @open_api.alt_response(404, schema=ErrorEnvelopeSchema, description="No such device of the account")
    def get(self, args):
        """One device's readings in a range (at most 31 days, 10,000 readings)."""
        return data_api.readings(args)


@open_api.route("/alarms")
class OpenAlarms(MethodView):
    @open_api.public(WHY)
    @open_api.arguments(AlarmQuerySchema, location="query")
    @open_api.response(200, OpenAlarmSchema, page=True)
    @_refusals
    def get(self, args):
        """The account's alarms that started in a range (at most 31 days), newest first."""
        return data_api.alarms(args)
