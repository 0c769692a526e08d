"""What the account area brings (api/hooks.py)."""

from api.account.routes import blp
from api.hooks import Manifest, PeriodicJob, Placed

MANIFEST = Manifest(
    area="account",
    blueprints=(Placed(50, blp),),
    periodic_jobs=(
        # Sign-in counts and codes (issue 15).
        PeriodicJob("api.account.jobs.purge_sign_in_records", cron="43 3 * * *", timeout=300),
    ),
)
