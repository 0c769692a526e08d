"""The provider's callbacks: one public endpoint, its signature is the credential (api/notify/inbound.py)."""

from __future__ import annotations

from flask import request
from flask.views import MethodView
from marshmallow import Schema, fields

from api.extensions.smorest import Blueprint, ErrorEnvelopeSchema
from api.notify import inbound

blp = Blueprint("notify", __name__, url_prefix="/api/notify", description="Provider callbacks")


class InboundResultSchema(Schema):
    outcome = fields.String(
        metadata={"description": "delivered, failed, acknowledged, duplicate (seen before), ignored ..."}
    )


@blp.route("/provider/inbound")
class ProviderInbound(MethodView):
    @blp.public("the SMS / voice provider's callbacks: signed with the provider secret, 5-minute window")
    @blp.response(200, InboundResultSchema)
    @blp.alt_response(401, schema=ErrorEnvelopeSchema, description="Unsigned, forged or stale callback")
    def post(self):
        """Provider callback (public, signed): a delivery receipt, an SMS reply or a call's key press."""
        return inbound.receive(
            request.get_data(), request.headers.get("X-Timestamp", ""), request.headers.get("X-Signature", "")
        )
