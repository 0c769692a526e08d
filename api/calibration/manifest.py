"""What the calibration area brings (api/hooks.py)."""

from api.calibration import access_rules, models, payment
from api.calibration.routes import blp
from api.hooks import Manifest, Placed

MANIFEST = Manifest(
    area="calibration",
    blueprints=(Placed(360, blp),),
    models=(models,),
    access_rules=(access_rules.register,),
    settlements=(payment.register,),  # billing's orders may pay for applications
)
