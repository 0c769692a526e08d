"""What the health area brings (api/hooks.py)."""

from api.health.routes import blp
from api.hooks import Manifest, PeriodicJob, Placed

MANIFEST = Manifest(
    area="health",
    blueprints=(Placed(10, blp),),
    periodic_jobs=(PeriodicJob("api.health.jobs.record_heartbeat", interval=60, timeout=30),),
)
