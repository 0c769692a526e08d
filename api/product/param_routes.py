"""Device parameters of a type (/operation/device/param). Operator only."""

from __future__ import annotations

from flask.views import MethodView

from api.extensions.smorest import Blueprint, ErrorEnvelopeSchema
from api.product import params
from api.product.param_schemas import (
    ParamDefinitionInputSchema,
    ParamDefinitionQuerySchema,
    ParamDefinitionSchema,
    ParamDefinitionUpdateSchema,
    ParamGroupSchema,
)

blp = Blueprint("product_params", __name__, url_prefix="/api/product", description="Device parameters of a type")
PARAM = "operation.product.param"


def refused(status: int, description: str):
    return blp.alt_response(status, schema=ErrorEnvelopeSchema, description=description)


@blp.route("/DeviceParam/page")
class DeviceParamPage(MethodView):
    @blp.requires(f"{PARAM}.query")
    @blp.arguments(ParamDefinitionQuerySchema)
    @blp.response(200, ParamDefinitionSchema, page=True)
    @refused(403, "Not the platform operator")
    def post(self, args):
        """A type's parameters in sort order."""
        return params.page(args)


@blp.route("/DeviceParam/insert")
class DeviceParamInsert(MethodView):
    @blp.requires(f"{PARAM}.add")
    @blp.arguments(ParamDefinitionInputSchema)
    @blp.response(200, ParamDefinitionSchema)
    @refused(403, "Not the platform operator")
    @refused(422, "A field is invalid, or the key or probe is used by the type")
    def post(self, args):
        """A new parameter of a type; devices of the type show it at once."""
        return params.create(args)


@blp.route("/DeviceParam/update")
class DeviceParamUpdate(MethodView):
    @blp.requires(f"{PARAM}.edit")
    @blp.arguments(ParamDefinitionUpdateSchema)
    @blp.response(200, ParamDefinitionSchema)
    @refused(403, "Not the platform operator")
    @refused(404, "No such parameter")
    @refused(422, "A field is invalid, or the key or probe is used by the type")
    def put(self, args):
        """Change a parameter."""
        return params.update(args)


@blp.route("/DeviceParam/delete/<int:param_id>")
class DeviceParamDelete(MethodView):
    @blp.requires(f"{PARAM}.delete")
    @blp.response(200)
    @refused(403, "Not the platform operator")
    @refused(404, "No such parameter")
    def delete(self, param_id: int):
        """Delete a parameter."""
        params.delete(param_id)


@blp.route("/DeviceParam/merge")
class DeviceParamMerge(MethodView):
    @blp.requires(f"{PARAM}.edit")
    @blp.arguments(ParamGroupSchema)
    @blp.response(200, ParamDefinitionSchema(many=True))
    @refused(403, "Not the platform operator")
    @refused(422, "Fewer than two sensor parameters, or one is merged already")
    def post(self, args):
        """Merge at least two sensor parameters of a type into one displayed group."""
        return params.merge(args["paramIds"])


@blp.route("/DeviceParam/separate")
class DeviceParamSeparate(MethodView):
    @blp.requires(f"{PARAM}.edit")
    @blp.arguments(ParamGroupSchema)
    @blp.response(200, ParamDefinitionSchema(many=True))
    @refused(403, "Not the platform operator")
    @refused(422, "Not merged parameters of one group")
    def post(self, args):
        """Separate merged parameters of one group."""
        return params.separate(args["paramIds"])
