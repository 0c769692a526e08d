from __future__ import annotations

from flask.views import MethodView

from api.datainterface import services
from api.datainterface.schemas import (
    ConnectorIdSchema,
    ConnectorInsertSchema,
    ConnectorSchema,
    ConnectorUpdateSchema,
    DeliveryQuerySchema,
    DeliverySchema,
    MappingItemSchema,
    MappingSetSchema,
    TargetSchema,
)
from api.extensions.smorest import OPERATE, Blueprint, ErrorEnvelopeSchema

blp = Blueprint("datainterface", __name__, url_prefix="/api/dataInterface", description="Provincial data interface")

KEY = "dataInterface.index"


def missing():
    return blp.alt_response(404, schema=ErrorEnvelopeSchema, description="Not a connector of this account")


@blp.route("/Connector/list")
class ConnectorList(MethodView):
    @blp.requires(f"{KEY}.query")
    @blp.response(200, ConnectorSchema(many=True))
    def get(self):
        """The account's connectors (the secret is never answered: secretSet says whether one is stored)."""
        return services.connectors()


@blp.route("/Connector/insert")
class ConnectorInsert(MethodView):
    @blp.requires(f"{KEY}.add")
    @blp.arguments(ConnectorInsertSchema)
    @blp.response(200, ConnectorSchema)
    def post(self, args):
        """Configure a connector: endpoint, app id and secret, interval; enabled starts at the current interval."""
        return services.insert(args)


@blp.route("/Connector/update")
class ConnectorUpdate(MethodView):
    @blp.requires(f"{KEY}.edit", access=OPERATE, connector="connectorId")
    @blp.arguments(ConnectorUpdateSchema)
    @blp.response(200, ConnectorSchema)
    @missing()
    def put(self, args):
        """Change the fields sent; an empty secret keeps the stored one; disabling stops all sending."""
        return services.update(args)


@blp.route("/Connector/delete")
class ConnectorDelete(MethodView):
    @blp.requires(f"{KEY}.delete", access=OPERATE, connector="connectorId")
    @blp.arguments(ConnectorIdSchema)
    @blp.response(200)
    @missing()
    def post(self, args):
        """Delete a connector with its mapping and delivery log."""
        services.delete(args["connectorId"])


@blp.route("/Connector/targets")
class ConnectorTargets(MethodView):
    @blp.requires(f"{KEY}.query")
    @blp.response(200, TargetSchema(many=True))
    def get(self):
        """The account's devices and storages a connector may map to equipment codes."""
        return services.targets()


@blp.route("/Connector/mapping")
class ConnectorMappingView(MethodView):
    @blp.requires(f"{KEY}.query", connector="connectorId")
    @blp.arguments(ConnectorIdSchema, location="query")
    @blp.response(200, MappingItemSchema(many=True))
    @missing()
    def get(self, args):
        """The connector's devices and storages with their equipment codes."""
        return services.mapping(args["connectorId"])

    @blp.requires(f"{KEY}.edit", access=OPERATE, connector="connectorId")
    @blp.arguments(MappingSetSchema)
    @blp.response(200, MappingItemSchema(many=True))
    @missing()
    def put(self, args):
        """Replace the mapping: each of the account's devices or storages once, each equipment code once."""
        return services.set_mapping(args)


@blp.route("/Delivery/queryPage")
class DeliveryPage(MethodView):
    @blp.requires(f"{KEY}.query", connector="connectorId")
    @blp.arguments(DeliveryQuerySchema)
    @blp.response(200, DeliverySchema, page=True)
    @missing()
    def post(self, args):
        """The delivery log, newest interval first: sent, accepted, refused (with the remote message), failed."""
        return services.deliveries(args)
