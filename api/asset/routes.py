from __future__ import annotations

from flask.views import MethodView

from api.asset import services
from api.asset.schemas import AssetInputSchema, AssetPageQuerySchema, AssetSchema, AssetUpdateSchema
from api.extensions.smorest import Blueprint, ErrorEnvelopeSchema

blp = Blueprint("asset", __name__, url_prefix="/api/base/BaseAsset", description="Assets")
KEY = "asset.list"


def missing():
    return blp.alt_response(404, schema=ErrorEnvelopeSchema, description="Not an asset of this account")


@blp.route("/page")
class AssetPage(MethodView):
    @blp.requires(f"{KEY}.query")
    @blp.arguments(AssetPageQuerySchema)
    @blp.response(200, AssetSchema, page=True)
    def post(self, args):
        """Assets with their devices."""
        return services.page(args)


@blp.route("/detail/<int:asset_id>")
class AssetDetail(MethodView):
    @blp.requires(f"{KEY}.query")
    @blp.response(200, AssetSchema)
    @missing()
    def get(self, asset_id: int):
        """One asset with its devices."""
        return services.detail(asset_id)


@blp.route("/insert")
class AssetInsert(MethodView):
    @blp.requires(f"{KEY}.add")
    @blp.arguments(AssetInputSchema)
    @blp.response(200, AssetSchema)
    def post(self, args):
        """Add an asset with up to five devices."""
        return services.save(args)


@blp.route("/update")
class AssetUpdate(MethodView):
    @blp.requires(f"{KEY}.edit")
    @blp.arguments(AssetUpdateSchema)
    @blp.response(200, AssetSchema)
    @missing()
    def put(self, args):
        """Change an asset, its custom information or its devices."""
        return services.save(args)


@blp.route("/delete/<int:asset_id>")
class AssetDelete(MethodView):
    @blp.requires(f"{KEY}.delete")
    @blp.response(200)
    @missing()
    def delete(self, asset_id: int):
        """Delete an asset (devices it disabled are enabled again)."""
        services.delete(asset_id)


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
