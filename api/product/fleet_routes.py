"""Fleet operations (business-domain section 2): GUID batches and their export records
(/operation/device/guid/content, /operation/device/guid/record) and SIM cards (/operation/sim/list).
Operator only."""

from __future__ import annotations

import marshmallow as ma
from flask.views import MethodView

from api.extensions.smorest import Blueprint, ErrorEnvelopeSchema, Schema
from api.product import fleet, guid_void, sim_import
from api.product.fleet_schemas import (
    DomainSchema,
    GuidBatchGuidsQuerySchema,
    GuidBatchInputSchema,
    GuidBatchQuerySchema,
    GuidBatchSchema,
    GuidExportPageSchema,
    GuidExportQuerySchema,
    GuidExportRecordSchema,
    GuidSchema,
    GuidVoidSchema,
    SimBindSchema,
    SimCardInputSchema,
    SimCardQuerySchema,
    SimCardSchema,
    SimCardUpdateSchema,
    SimImportResultSchema,
)

blp = Blueprint("fleet", __name__, url_prefix="/api/product", description="GUID batches and SIM cards of the fleet")
GUID = "operation.device.guid"
RECORD = "operation.device.guidRecord"
SIM = "operation.device.sim"


class ImportFileSchema(Schema):
    file = ma.fields.Raw(metadata={"type": "string", "format": "binary"})


def refused(status: int, description: str):
    return blp.alt_response(status, schema=ErrorEnvelopeSchema, description=description)


@blp.route("/GuidBatch/domains")
class GuidDomains(MethodView):
    @blp.requires(f"{GUID}.query")
    @blp.response(200, DomainSchema(many=True))
    @refused(403, "Not the platform operator")
    def get(self):
        """Platforms GUIDs can be issued for (domainId)."""
        return fleet.domains()


@blp.route("/GuidBatch/insert")
class GuidBatchInsert(MethodView):
    @blp.requires(f"{GUID}.add")
    @blp.arguments(GuidBatchInputSchema)
    @blp.response(200, GuidBatchSchema)
    @refused(403, "Not the platform operator")
    @refused(422, "A field is invalid")
    def post(self, args):
        """Issue 1 to 999 GUIDs of a type for a platform (random, with a check digit)."""
        return fleet.issue(args)


@blp.route("/GuidBatch/page")
class GuidBatchPage(MethodView):
    @blp.requires(f"{GUID}.query")
    @blp.arguments(GuidBatchQuerySchema)
    @blp.response(200, GuidBatchSchema, page=True)
    @refused(403, "Not the platform operator")
    def post(self, args):
        """Batches, newest first, with how many GUIDs users added and how often each was downloaded."""
        return fleet.batch_page(args)


@blp.route("/GuidBatch/guids")
class GuidBatchGuids(MethodView):
    @blp.requires(f"{GUID}.query")
    @blp.arguments(GuidBatchGuidsQuerySchema)
    @blp.response(200, GuidSchema, page=True)
    @refused(403, "Not the platform operator")
    @refused(404, "No such batch")
    def post(self, args):
        """The GUIDs of a batch (credentials only in the download)."""
        return fleet.batch_guids(args)


@blp.route("/GuidBatch/void")
class GuidBatchVoid(MethodView):
    @blp.requires(f"{GUID}.edit")
    @blp.arguments(GuidVoidSchema)
    @blp.response(200, GuidSchema(many=True))
    @refused(403, "Not the platform operator")
    @refused(422, "A GUID was not issued, is in use or is voided already; nothing is voided")
    def post(self, args):
        """Void unused GUIDs, with a reason (recorded in the operation log): they can no longer be added
        and their uploads are refused. All or none."""
        return guid_void.void(args["guids"], args["reason"])


@blp.route("/GuidBatch/export/<int:batch_id>")
class GuidBatchExport(MethodView):
    @blp.requires(f"{RECORD}.add")
    @blp.arguments(GuidExportQuerySchema, location="query")
    @blp.file_response(*fleet.MIME.values(), description="CSV or XLSX of GUIDs and device credentials")
    @refused(403, "Not the platform operator")
    @refused(404, "No such batch")
    def get(self, args, batch_id: int):
        """Download a batch's GUIDs and credentials (recorded in the export records)."""
        return fleet.export(batch_id, args["format"])


@blp.route("/GuidExport/page")
class GuidExportPage(MethodView):
    @blp.requires(f"{RECORD}.query")
    @blp.arguments(GuidExportPageSchema)
    @blp.response(200, GuidExportRecordSchema, page=True)
    @refused(403, "Not the platform operator")
    def post(self, args):
        """Who downloaded which batch, when, in which format."""
        return fleet.export_page(args)


@blp.route("/SimCard/page")
class SimCardPage(MethodView):
    @blp.requires(f"{SIM}.query")
    @blp.arguments(SimCardQuerySchema)
    @blp.response(200, SimCardSchema, page=True)
    @refused(403, "Not the platform operator")
    def post(self, args):
        """SIM cards, newest first."""
        return fleet.sim_page(args)


@blp.route("/SimCard/insert")
class SimCardInsert(MethodView):
    @blp.requires(f"{SIM}.add")
    @blp.arguments(SimCardInputSchema)
    @blp.response(200, SimCardSchema)
    @refused(403, "Not the platform operator")
    @refused(422, "A field is invalid or the ICCID is registered")
    def post(self, args):
        """Register a SIM card."""
        return fleet.save_sim(args)


@blp.route("/SimCard/update")
class SimCardUpdate(MethodView):
    @blp.requires(f"{SIM}.edit")
    @blp.arguments(SimCardUpdateSchema)
    @blp.response(200, SimCardSchema)
    @refused(403, "Not the platform operator")
    @refused(404, "No such card")
    @refused(422, "A field is invalid or the ICCID is registered")
    def put(self, args):
        """Change a SIM card."""
        return fleet.save_sim(args)


@blp.route("/SimCard/delete/<int:sim_id>")
class SimCardDelete(MethodView):
    @blp.requires(f"{SIM}.delete")
    @blp.response(200)
    @refused(403, "Not the platform operator")
    @refused(404, "No such card")
    def delete(self, sim_id: int):
        """Delete a SIM card."""
        fleet.delete_sim(sim_id)


@blp.route("/SimCard/bind")
class SimCardBind(MethodView):
    @blp.requires(f"{SIM}.edit")
    @blp.arguments(SimBindSchema)
    @blp.response(200, SimCardSchema)
    @refused(403, "Not the platform operator")
    @refused(422, "No such device, or it has a card already")
    def post(self, args):
        """Bind the card to a device by GUID (null unbinds)."""
        return fleet.bind(args["id"], args["deviceGuid"])


@blp.route("/SimCard/import")
class SimCardImport(MethodView):
    @blp.requires(f"{SIM}.add")
    @blp.arguments(ImportFileSchema, location="files")
    @blp.response(200, SimImportResultSchema)
    @refused(403, "Not the platform operator")
    @refused(413, "Over a cap of api/extensions/uploads.py IMPORTS: 2 MB, 20 MB unpacked, ratio 100, 5000 rows")
    @refused(415, "Not an XLSX workbook")
    def post(self, files):
        """Import cards from an XLSX sheet, columns found by their header in either language (see the
        template): card number, ICCID, carrier, dates, balance in yuan, remark; a result per row."""
        return sim_import.import_sims(files.get("file"))


@blp.route("/SimCard/template")
class SimCardTemplate(MethodView):
    @blp.requires(f"{SIM}.add")
    @blp.file_response(fleet.MIME["xlsx"], description="The import sheet: headers and an example row")
    @refused(403, "Not the platform operator")
    def get(self):
        """The SIM import template, its headers in the caller's language."""
        return sim_import.template()
