"""What the sharing area brings (api/hooks.py)."""

from api.hooks import Manifest, Placed
from api.sharing import access_rules, models, services
from api.sharing.routes import blp

MANIFEST = Manifest(
    area="sharing",
    blueprints=(Placed(260, blp),),
    models=(models,),
    access_rules=(access_rules.register,),
    # Shares sent to a phone or email before its account existed (after organization's invitations).
    account_welcomes=(services.claim_pending_shares,),
)
