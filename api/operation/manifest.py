"""What the operation area brings (api/hooks.py)."""

from api.hooks import Manifest, Placed
from api.operation import providers, routes, settings, settings_models

MANIFEST = Manifest(
    area="operation",
    blueprints=(Placed(70, routes.blp), Placed(80, routes.roles), Placed(90, settings.blp)),
    models=(settings_models,),
    message_providers=(providers.platform_provider,),  # a platform's own message providers
)
