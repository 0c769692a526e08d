"""What the dictionary area brings (api/hooks.py)."""

from api.dictionary.routes import blp
from api.hooks import Manifest, Placed

MANIFEST = Manifest(
    area="dictionary",
    blueprints=(Placed(40, blp),),
)
