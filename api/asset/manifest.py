"""What the asset area brings (api/hooks.py)."""

from api.asset import models
from api.asset.routes import blp
from api.hooks import Manifest, Placed

MANIFEST = Manifest(
    area="asset",
    blueprints=(Placed(280, blp),),
    models=(models,),
)
