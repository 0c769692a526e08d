"""What the help area brings (api/hooks.py)."""

from api.help import models
from api.help.routes import blp
from api.hooks import Manifest, Placed

MANIFEST = Manifest(
    area="help",
    blueprints=(Placed(200, blp),),
    models=(models,),
)
