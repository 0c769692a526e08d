from __future__ import annotations

from flask.views import MethodView

from api.budget import lots, profiles, services
from api.budget.schemas import (
    StabilityBudgetSchema,
    StabilityProfileInputSchema,
    StabilityProfilePageQuerySchema,
    StabilityProfileSchema,
    StabilityProfileUpdateSchema,
    StorageLotDisposeSchema,
    StorageLotIdSchema,
    StorageLotInputSchema,
    StorageLotPageQuerySchema,
    StorageLotSchema,
    StorageLotUpdateSchema,
    WaybillBudgetAssignSchema,
    WaybillBudgetQuerySchema,
)
from api.extensions.crud import Action, Call, register_crud
from api.extensions.smorest import GXP_SIGNATURE, OPERATE, Blueprint, ErrorEnvelopeSchema

blp = Blueprint(
    "budget", __name__, url_prefix="/api/budget", description="Stability profiles and the budgets of goods and lots"
)
# Profiles are kept with the shipments' keys (a profile is chosen when a waybill is made), lots with
# the storages'.
WAYBILL_KEY, STORAGE_KEY = "waybill.list", "storage.list"


def missing():
    return blp.alt_response(404, schema=ErrorEnvelopeSchema, description="Not a waybill this account may see")


register_crud(
    blp,
    "StabilityProfile",
    prefix="/StabilityProfile",
    key=WAYBILL_KEY,
    item=StabilityProfileSchema,
    missing="Not a stability profile of this account",
    id_name="profile_id",
    page=Call(profiles.page, "The account's stability profiles.", StabilityProfilePageQuerySchema),
    detail=Call(profiles.find, "One stability profile."),
    insert=Call(
        profiles.save,
        "Add a stability profile: the labelled range, bands outside it with their allowed hours, an optional "
        "MKT limit and the alert threshold.",
        StabilityProfileInputSchema,
    ),
    update=Call(profiles.save, "Change a stability profile.", StabilityProfileUpdateSchema),
    delete=Call(profiles.delete, "Delete a stability profile (its goods and lots lose it)."),
)


@blp.route("/WaybillBudget/get")
class WaybillBudgetGet(MethodView):
    @blp.requires(f"{WAYBILL_KEY}.query", waybill="waybillId")
    @blp.arguments(WaybillBudgetQuerySchema, location="query")
    @blp.response(200, StabilityBudgetSchema)
    @missing()
    def get(self, args):
        """The budget of a waybill's goods: each band's used, allowed and remaining time, gaps, MKT."""
        return services.waybill_budget(args["waybillId"])


@blp.route("/WaybillBudget/assign")
class WaybillBudgetAssign(MethodView):
    @blp.requires(f"{WAYBILL_KEY}.edit", access=OPERATE, waybill="waybillId")
    @blp.arguments(WaybillBudgetAssignSchema)
    @blp.response(200, StabilityBudgetSchema)
    @missing()
    def put(self, args):
        """Put a waybill's goods under a stability profile (null: none)."""
        return services.assign_waybill(args)


register_crud(
    blp,
    "Lot",
    prefix="/Lot",
    key=STORAGE_KEY,
    item=StorageLotSchema,
    missing="Not a lot of a storage this account may see",
    id_name="lot_id",
    page=Call(
        lots.page,
        "A storage's lots, the latest placed first.",
        StorageLotPageQuerySchema,
        need={"storage": "storageId"},
    ),
    detail=Call(lots.detail, "One lot.", need={"storageLot": "lot_id"}),
    insert=Call(
        lots.save,
        "Place a lot in a storage (product, quantity, placed / removed, stability profile).",
        StorageLotInputSchema,
        need={"storage": "storageId", "access": OPERATE},
    ),
    update=Call(lots.save, "Change a lot.", StorageLotUpdateSchema, need={"storageLot": "id", "access": OPERATE}),
    delete=Call(lots.delete, "Delete a lot.", need={"storageLot": "lot_id", "access": OPERATE}),
    actions=(
        Action(
            "Budget",
            "/budget",
            "get",
            "query",
            Call(
                lots.budget,
                "The budget of a lot: its storage's temperature probes, the worst of them per band; MKT.",
                StorageLotIdSchema,
                location="query",
                need={"storageLot": "id"},
            ),
            response=StabilityBudgetSchema,
        ),
        Action(
            "Dispose",
            "/dispose",
            "put",
            "edit",
            Call(
                lots.dispose,
                "Record a lot's disposition (released, quarantined, rejected with a reason); signed in FDA mode.",
                StorageLotDisposeSchema,
                need={"storageLot": "id", "access": OPERATE, "gxp": GXP_SIGNATURE},
            ),
            response=StorageLotSchema,
        ),
    ),
)
