"""What the billing area brings (api/hooks.py)."""

from api.billing import access_rules, models, routes, routes_invoices_codes, routes_payments
from api.hooks import Manifest, PeriodicJob, Placed

MANIFEST = Manifest(
    area="billing",
    blueprints=(Placed(330, routes.blp), Placed(340, routes_invoices_codes.blp), Placed(350, routes_payments.blp)),
    models=(models,),
    access_rules=(access_rules.register,),
    periodic_jobs=(
        # Billing (issue 24): unpaid orders close after their payment window; offline purchases apply.
        PeriodicJob("api.billing.jobs.close_stale_orders", interval=600, timeout=120),
        PeriodicJob("api.billing.jobs.apply_offline_purchases", interval=300, timeout=300),
    ),
)
