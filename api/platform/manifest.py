"""What the platform area brings (api/hooks.py)."""

from api.hooks import Manifest, Placed
from api.platform import models
from api.platform.routes import blp

MANIFEST = Manifest(
    area="platform",
    blueprints=(Placed(20, blp),),
    models=(models,),
)
