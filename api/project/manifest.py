"""What the project area brings (api/hooks.py)."""

from api.hooks import Manifest, Placed
from api.project import models
from api.project.routes import blp

MANIFEST = Manifest(
    area="project",
    blueprints=(Placed(270, blp),),
    models=(models,),
)
