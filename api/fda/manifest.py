"""What the FDA (Part 11) area brings (api/hooks.py)."""

from api.fda import access_rules, documents, frozen, models, services, sessions
from api.fda.routes import blp
from api.hooks import Manifest, Placed

MANIFEST = Manifest(
    area="fda",
    # Areas below FDA ask whether FDA mode governs an owner through api/extensions/trail.py.
    gxp_modes=(services.is_enabled,),
    blueprints=(Placed(310, blp),),
    models=(models,),
    access_rules=(access_rules.register,),
    delete_guards=(frozen.refuse_deleting_signed,),  # a device with signed records is scrapped, not deleted
    report_kinds=(documents.SIGNED_FILE_KIND,),
    session_policies=(sessions.register,),  # idle sign-out, expired passwords refused at sign-in
)
