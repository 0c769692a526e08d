"""What the on-call area brings (api/hooks.py)."""

from api.hooks import Manifest, Placed
from api.oncall import models
from api.oncall.routes import blp
from api.oncall.sources import SOURCE

MANIFEST = Manifest(
    area="oncall",
    blueprints=(Placed(242, blp),),
    models=(models,),
    # Push-setting levels may name "the person on call" (api/alarm/recipients.py).
    alarm_on_call=(SOURCE,),
)
