"""What the product area brings (api/hooks.py)."""

from api.hooks import Manifest, PeriodicJob, Placed
from api.product import data_api_routes, firmware_routes, fleet_routes, models, overview_routes, param_routes, rollouts
from api.product.routes import blp

MANIFEST = Manifest(
    area="product",
    blueprints=(
        Placed(100, blp),
        Placed(110, overview_routes.blp),
        Placed(120, param_routes.blp),
        Placed(130, fleet_routes.blp),
        Placed(140, data_api_routes.keys),
        Placed(150, data_api_routes.open_api),
        Placed(160, firmware_routes.blp),
    ),
    models=(models,),
    command_listeners=(rollouts.on_command,),  # upgrade acknowledgements move a rollout on
    periodic_jobs=(
        # Over-the-air upgrades (issue 22): timeouts, the failure threshold, the next group, the rate.
        PeriodicJob("api.product.jobs.advance_rollouts", interval=30, timeout=120),
    ),
)
