"""What the datainterface area brings (api/hooks.py)."""

from api.datainterface import access_rules, models
from api.datainterface.routes import blp
from api.hooks import Manifest, PeriodicJob, Placed

MANIFEST = Manifest(
    area="datainterface",
    blueprints=(Placed(320, blp),),
    models=(models,),
    access_rules=(access_rules.register,),
    periodic_jobs=(
        # Provincial data interface (issue 26): finished intervals into the log, due ones to the workers.
        PeriodicJob("api.datainterface.jobs.tick_connectors", interval=60, timeout=120),
    ),
)
