"""What the customization area brings (api/hooks.py)."""

from api.customization.routes import blp
from api.hooks import Manifest, Placed

MANIFEST = Manifest(
    area="customization",
    blueprints=(Placed(30, blp),),
)
