"""What the budget area brings (api/hooks.py)."""

from api.budget import access_rules, models, report_parts
from api.budget.routes import blp
from api.hooks import Manifest, PeriodicJob, Placed

MANIFEST = Manifest(
    area="budget",
    blueprints=(Placed(305, blp),),
    models=(models,),
    access_rules=(access_rules.register,),
    # The budget and disposition on the trip report and the storage report.
    installers=(report_parts.install,),
    periodic_jobs=(
        # Stability budgets (issue 48): the threshold alarm of goods and lots, once each.
        PeriodicJob("api.budget.jobs.check_budgets", interval=300, timeout=300),
    ),
)
