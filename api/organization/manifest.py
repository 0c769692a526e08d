"""What the organization area brings (api/hooks.py)."""

from api.hooks import Manifest, Placed
from api.organization import access_rules, models, routes, services

MANIFEST = Manifest(
    area="organization",
    blueprints=(Placed(60, routes.members), Placed(180, routes.blp)),
    models=(models,),
    access_rules=(access_rules.register,),
    # A new account accepts the invitations and shares that waited for its phone or email.
    account_welcomes=(services.welcome_new_account,),
    account_info={"orgWithMyRole": services.organizations_with_my_role},
)
