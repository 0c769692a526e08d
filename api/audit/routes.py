from __future__ import annotations

from flask.views import MethodView

from api.audit import export, services
from api.audit.schemas import OperationLogQuerySchema, OperationLogSchema
from api.extensions.smorest import Blueprint
from api.report.jobs import enqueue_generation
from api.report.schemas import ExportFileSchema

blp = Blueprint("audit", __name__, url_prefix="/api/base/BaseOperationLog", description="Operation log (read-only)")


@blp.route("/page")
class OperationLogPage(MethodView):
    @blp.requires("operation.log.query")
    @blp.arguments(OperationLogQuerySchema)
    @blp.response(200, OperationLogSchema, page=True)
    def post(self, args):
        """Every mutating call of the account and of its organisations' members, newest first:
        who, what, when, the target and the rows before and after. The log cannot be edited."""
        return services.page(args)


@blp.route("/export")
class OperationLogExport(MethodView):
    @blp.requires("operation.log.query")
    @blp.arguments(OperationLogQuerySchema, location="query")
    @blp.file_response("text/csv", description="The filtered trail, oldest first, with each entry's chain hashes")
    def get(self, args):
        """The audit trail as CSV for an inspector: the same filters as the page (user, keyword for the
        object or call, time), every entry with its old and new values, reason and chain hashes."""
        return services.export_csv(args)


@blp.route("/exportPdf")
class OperationLogExportPdf(MethodView):
    @blp.requires("operation.log.query")
    @blp.arguments(OperationLogQuerySchema)
    @blp.response(200, ExportFileSchema)
    def post(self, args):
        """Queue the audit trail as a numbered PDF for an inspector: the same filters and entries as the
        CSV, every entry in full (at most 10,000; a wider filter is refused with what to do). A job
        lays it out; the file appears in the download centre."""
        queued = export.request_pdf(args)
        enqueue_generation(queued)
        return queued
