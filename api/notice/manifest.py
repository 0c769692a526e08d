"""What the notice area brings (api/hooks.py)."""

from api.hooks import Manifest, Placed
from api.notice import models
from api.notice.routes import blp

MANIFEST = Manifest(
    area="notice",
    blueprints=(Placed(190, blp),),
    models=(models,),
)
