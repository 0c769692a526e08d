"""Download centre (/consumer/download), exports and scheduled reports."""

from __future__ import annotations

from flask.views import MethodView
from flask_babel import gettext

from api.extensions.smorest import Blueprint, ErrorEnvelopeSchema
from api.report import services
from api.report.kinds import REPORT_KINDS
from api.report.schemas import (
    ExportFileSchema,
    ExportRequestSchema,
    FilePageQuerySchema,
    ReportKindSchema,
    ReportPageQuerySchema,
    ScheduledReportInputSchema,
    ScheduledReportSchema,
    ScheduledReportUpdateSchema,
)

blp = Blueprint("report", __name__, url_prefix="/api/report", description="Exports, reports and the download centre")
DOWNLOAD = "consumer.download"
DEVICES = "device.list"


def missing():
    return blp.alt_response(404, schema=ErrorEnvelopeSchema, description="No such file or report of this account")


@blp.route("/ExportFile/export")
class ExportRequest(MethodView):
    @blp.login_required(DEVICES)
    @blp.arguments(ExportRequestSchema)
    @blp.response(200, ExportFileSchema)
    def post(self, args):
        """Queue an export (csv, xlsx) or a PDF report of devices' data; it appears in the download
        centre as generating and moves to generated (or failed, with a reason)."""
        return services.request_export(args)


@blp.route("/ExportFile/page")
class FilePage(MethodView):
    @blp.login_required(DOWNLOAD)
    @blp.arguments(FilePageQuerySchema)
    @blp.response(200, ExportFileSchema, page=True)
    def post(self, args):
        """The download centre: the account's files, newest first, with status, progress and size."""
        return services.file_page(args)


@blp.route("/ExportFile/download/<int:file_id>")
class FileDownload(MethodView):
    @blp.login_required(DOWNLOAD)
    @blp.file_response("application/octet-stream", description="The file (Content-Disposition names it)")
    @missing()
    def get(self, file_id: int):
        """Download a generated file."""
        return services.download(file_id)


@blp.route("/ExportFile/delete/<int:file_id>")
class FileDelete(MethodView):
    @blp.login_required(DOWNLOAD)
    @blp.response(200)
    @missing()
    def delete(self, file_id: int):
        """Delete a file (a file still generating stops)."""
        services.delete_file(file_id)


@blp.route("/ScheduledReport/kinds")
class ReportKinds(MethodView):
    @blp.login_required(DEVICES)
    @blp.response(200, ReportKindSchema(many=True))
    def get(self):
        """The report types a scheduled report can have."""
        return [{"key": kind.key, "label": gettext(kind.label)} for kind in REPORT_KINDS.values()]


@blp.route("/ScheduledReport/page")
class ReportPage(MethodView):
    @blp.login_required(DEVICES)
    @blp.arguments(ReportPageQuerySchema)
    @blp.response(200, ScheduledReportSchema, page=True)
    def post(self, args):
        """The account's scheduled reports."""
        return services.report_page(args)


@blp.route("/ScheduledReport/insert")
class ReportInsert(MethodView):
    @blp.login_required(DEVICES)
    @blp.arguments(ScheduledReportInputSchema)
    @blp.response(200, ScheduledReportSchema)
    def post(self, args):
        """Create a scheduled report (name up to 20; receivers with no duplicate phone or email)."""
        return services.create_report(args)


@blp.route("/ScheduledReport/update")
class ReportUpdate(MethodView):
    @blp.login_required(DEVICES)
    @blp.arguments(ScheduledReportUpdateSchema)
    @blp.response(200, ScheduledReportSchema)
    @missing()
    def put(self, args):
        """Change a scheduled report."""
        return services.update_report(args)


@blp.route("/ScheduledReport/delete/<int:report_id>")
class ReportDelete(MethodView):
    @blp.login_required(DEVICES)
    @blp.response(200)
    @missing()
    def delete(self, report_id: int):
        """Delete a scheduled report (its files stay in the download centre)."""
        services.delete_report(report_id)


@blp.route("/ScheduledReport/sendNow/<int:report_id>")
class ReportSendNow(MethodView):
    @blp.login_required(DEVICES)
    @blp.response(200, ExportFileSchema)
    @missing()
    def post(self, report_id: int):
        """Generate and send a scheduled report now (the schedule is unchanged)."""
        return services.send_now(report_id)
