"""What the role area brings (api/hooks.py)."""

from api.hooks import Manifest, Placed
from api.role import access_rules, models
from api.role.routes import blp

MANIFEST = Manifest(
    area="role",
    blueprints=(Placed(170, blp),),
    models=(models,),
    access_rules=(access_rules.register,),
)
