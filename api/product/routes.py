"""Product management (business-domain section 2): device types with model codes
(/operation/device/type) and parameter units (/operation/device/param/unit). Operator only."""

from __future__ import annotations

from flask.views import MethodView

from api.extensions.smorest import Blueprint, ErrorEnvelopeSchema
from api.product import services
from api.product.schemas import (
    ConvertResultSchema,
    ConvertSchema,
    DeviceTypeInputSchema,
    DeviceTypeOptionSchema,
    DeviceTypeQuerySchema,
    DeviceTypeSchema,
    DeviceTypeUpdateSchema,
    ParamUnitInputSchema,
    ParamUnitQuerySchema,
    ParamUnitSchema,
    ParamUnitUpdateSchema,
)

blp = Blueprint(
    "product", __name__, url_prefix="/api/product", description="Product management of the operator's back-office"
)
TYPE = "operation.product.type"
UNIT = "operation.product.unit"


def refused(status: int, description: str):
    return blp.alt_response(status, schema=ErrorEnvelopeSchema, description=description)


@blp.route("/DeviceType/page")
class DeviceTypePage(MethodView):
    @blp.requires(f"{TYPE}.query")
    @blp.arguments(DeviceTypeQuerySchema)
    @blp.response(200, DeviceTypeSchema, page=True)
    @refused(403, "Not the platform operator")
    def post(self, args):
        """Device types with their model codes, by type code."""
        return services.type_page(args)


@blp.route("/DeviceType/list")
class DeviceTypeList(MethodView):
    @blp.requires(f"{TYPE}.query")
    @blp.response(200, DeviceTypeOptionSchema(many=True))
    @refused(403, "Not the platform operator")
    def get(self):
        """Every type as an option (the parameter and GUID pages pick one)."""
        return services.type_options()


@blp.route("/DeviceType/insert")
class DeviceTypeInsert(MethodView):
    @blp.requires(f"{TYPE}.add")
    @blp.arguments(DeviceTypeInputSchema)
    @blp.response(200, DeviceTypeSchema)
    @refused(403, "Not the platform operator")
    @refused(422, "A field is invalid or its code already used")
    def post(self, args):
        """A new type, to be tested (users cannot add its devices until it is published)."""
        return services.create_type(args)


@blp.route("/DeviceType/update")
class DeviceTypeUpdate(MethodView):
    @blp.requires(f"{TYPE}.edit")
    @blp.arguments(DeviceTypeUpdateSchema)
    @blp.response(200, DeviceTypeSchema)
    @refused(403, "Not the platform operator")
    @refused(404, "No such type")
    @refused(422, "A field is invalid or its code already used")
    def put(self, args):
        """Change a type and replace its model codes with the list sent."""
        return services.update_type(args)


@blp.route("/DeviceType/delete/<int:type_id>")
class DeviceTypeDelete(MethodView):
    @blp.requires(f"{TYPE}.delete")
    @blp.response(200)
    @refused(403, "Not the platform operator")
    @refused(404, "No such type")
    @refused(409, "GUIDs of the type were issued")
    def delete(self, type_id: int):
        """Delete a type no GUID was issued for."""
        services.delete_type(type_id)


@blp.route("/DeviceType/test/<int:type_id>")
class DeviceTypeTest(MethodView):
    @blp.requires(f"{TYPE}.edit")
    @blp.response(200, DeviceTypeSchema)
    @refused(403, "Not the platform operator")
    @refused(409, "Not to be tested")
    def put(self, type_id: int):
        """Test: to be tested -> testing."""
        return services.move_type(type_id, "test")


@blp.route("/DeviceType/release/<int:type_id>")
class DeviceTypeRelease(MethodView):
    @blp.requires(f"{TYPE}.edit")
    @blp.response(200, DeviceTypeSchema)
    @refused(403, "Not the platform operator")
    @refused(409, "Not testing, or no parameter yet")
    def put(self, type_id: int):
        """Release: testing -> published; from now on users can add its devices."""
        return services.move_type(type_id, "release")


@blp.route("/ParamUnit/page")
class ParamUnitPage(MethodView):
    @blp.requires(f"{UNIT}.query")
    @blp.arguments(ParamUnitQuerySchema)
    @blp.response(200, ParamUnitSchema, page=True)
    @refused(403, "Not the platform operator")
    def post(self, args):
        """Units by class."""
        return services.unit_page(args)


@blp.route("/ParamUnit/list")
class ParamUnitList(MethodView):
    @blp.requires(f"{UNIT}.query")
    @blp.response(200, ParamUnitSchema(many=True))
    @refused(403, "Not the platform operator")
    def get(self):
        """Every unit as an option."""
        return services.unit_options()


@blp.route("/ParamUnit/insert")
class ParamUnitInsert(MethodView):
    @blp.requires(f"{UNIT}.add")
    @blp.arguments(ParamUnitInputSchema)
    @blp.response(200, ParamUnitSchema)
    @refused(403, "Not the platform operator")
    @refused(422, "A field is invalid, the formulas do not convert there and back, or the code is used")
    def post(self, args):
        """A new unit; its two formulas must convert there and back."""
        return services.save_unit(args)


@blp.route("/ParamUnit/update")
class ParamUnitUpdate(MethodView):
    @blp.requires(f"{UNIT}.edit")
    @blp.arguments(ParamUnitUpdateSchema)
    @blp.response(200, ParamUnitSchema)
    @refused(403, "Not the platform operator")
    @refused(404, "No such unit")
    @refused(422, "A field is invalid, the formulas do not convert there and back, or the code is used")
    def put(self, args):
        """Change a unit."""
        return services.save_unit(args)


@blp.route("/ParamUnit/delete/<int:unit_id>")
class ParamUnitDelete(MethodView):
    @blp.requires(f"{UNIT}.delete")
    @blp.response(200)
    @refused(403, "Not the platform operator")
    @refused(409, "Parameters use the unit")
    def delete(self, unit_id: int):
        """Delete a unit no parameter uses."""
        services.delete_unit(unit_id)


@blp.route("/ParamUnit/convert")
class ParamUnitConvert(MethodView):
    @blp.requires(f"{UNIT}.query")
    @blp.arguments(ConvertSchema)
    @blp.response(200, ConvertResultSchema)
    @refused(403, "Not the platform operator")
    @refused(422, "Not a formula in X")
    def post(self, args):
        """Try a formula on a value (the form's test button)."""
        return {"value": services.convert(args["formula"], args["value"])}
