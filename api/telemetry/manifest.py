"""What the telemetry area brings (api/hooks.py)."""

from api.hooks import Manifest, PeriodicJob, Placed
from api.telemetry import models
from api.telemetry.routes import blp

MANIFEST = Manifest(
    area="telemetry",
    blueprints=(Placed(220, blp),),
    models=(models,),
    periodic_jobs=(
        # Partition upkeep: next months' reading partitions exist before data arrives (else every reading
        # lands in the default partition and PostgreSQL refuses to create the month's partition later).
        PeriodicJob("api.telemetry.jobs.ensure_upcoming_partitions", cron="7 2 * * *", timeout=120),
        # Storage (issue 27): readings older than READING_PACK_AFTER_DAYS packed per device, sensor and day.
        PeriodicJob("api.telemetry.jobs.compact_readings", cron="37 2 * * *", timeout=3 * 3600),
    ),
)
