from __future__ import annotations

from flask.views import MethodView

from api.asset import services
from api.asset.schemas import AssetInputSchema, AssetPageQuerySchema, AssetSchema, AssetUpdateSchema
from api.extensions.crud import Call, register_crud
from api.extensions.smorest import Blueprint, ErrorEnvelopeSchema

blp = Blueprint("asset", __name__, url_prefix="/api/base/BaseAsset", description="Assets")
KEY = "asset.list"
NOT_FOUND = "Not an asset of this account"


def missing():
    return blp.alt_response(404, schema=ErrorEnvelopeSchema, description=NOT_FOUND)


register_crud(
    blp,
    "Asset",
    key=KEY,
    item=AssetSchema,
    missing=NOT_FOUND,
    id_name="asset_id",
    page=Call(services.page, "Assets with their devices.", AssetPageQuerySchema),
    detail=Call(services.detail, "One asset with its devices."),
    insert=Call(services.save, "Add an asset with up to five devices.", AssetInputSchema),
    update=Call(services.save, "Change an asset, its custom information or its devices.", AssetUpdateSchema),
    delete=Call(services.delete, "Delete an asset (devices it disabled are enabled again)."),
)


@blp.route("/enable/<int:asset_id>")
class AssetEnable(MethodView):
    @blp.requires(f"{KEY}.enable")
    @blp.response(200, AssetSchema)
    @missing()
    def put(self, asset_id: int):
        """Enable an asset: the devices its disabling turned off (and their alarms) come back."""
        return services.set_enabled(asset_id, True)


@blp.route("/disable/<int:asset_id>")
class AssetDisable(MethodView):
    @blp.requires(f"{KEY}.disable")
    @blp.response(200, AssetSchema)
    @missing()
    def put(self, asset_id: int):
        """Disable an asset: its devices are disabled and their alarms turned off."""
        return services.set_enabled(asset_id, False)
