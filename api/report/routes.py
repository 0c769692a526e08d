"""Download centre (/consumer/download), exports and scheduled reports."""

from __future__ import annotations

from flask.views import MethodView
from flask_babel import gettext

from api.extensions.smorest import Blueprint, ErrorEnvelopeSchema
from api.report import backup, restore, services
from api.report.jobs import enqueue_generation
from api.report.kinds import REPORT_KINDS
from api.report.schemas import (
    BackupArchiveQuerySchema,
    BackupPageQuerySchema,
    BackupScheduleInputSchema,
    BackupScheduleSchema,
    BackupScheduleUpdateSchema,
    ExportFileSchema,
    ExportRequestSchema,
    FilePageQuerySchema,
    ReportKindSchema,
    ReportPageQuerySchema,
    RestoreFileSchema,
    RestoreQuerySchema,
    RestoreResultSchema,
    ScheduledReportInputSchema,
    ScheduledReportSchema,
    ScheduledReportUpdateSchema,
)

blp = Blueprint("report", __name__, url_prefix="/api/report", description="Exports, reports and the download centre")
DOWNLOAD = "consumer.download"
DEVICES = "device.list"
BACKUP = "service.center.scheduledBackup"


def missing():
    return blp.alt_response(404, schema=ErrorEnvelopeSchema, description="No such file or report of this account")


@blp.route("/ExportFile/export")
class ExportRequest(MethodView):
    @blp.requires("device.list.export", device="deviceIds", block="chart")
    @blp.arguments(ExportRequestSchema)
    @blp.response(200, ExportFileSchema)
    def post(self, args):
        """Queue an export (csv, xlsx) or a PDF report of devices' data; it appears in the download
        centre as generating and moves to generated (or failed, with a reason)."""
        export = services.request_export(args)
        enqueue_generation(export)
        return export


@blp.route("/ExportFile/page")
class FilePage(MethodView):
    @blp.requires(f"{DOWNLOAD}.query")
    @blp.arguments(FilePageQuerySchema)
    @blp.response(200, ExportFileSchema, page=True)
    def post(self, args):
        """The download centre: the account's files, newest first, with status, progress and size."""
        return services.file_page(args)


@blp.route("/ExportFile/download/<int:file_id>")
class FileDownload(MethodView):
    @blp.requires(f"{DOWNLOAD}.query", file="file_id")
    @blp.file_response(*services.MIME_TYPES.values(), description="The file (Content-Disposition names it)")
    @missing()
    def get(self, file_id: int):
        """Download a generated file."""
        return services.download(file_id)


@blp.route("/ExportFile/delete/<int:file_id>")
class FileDelete(MethodView):
    @blp.requires(f"{DOWNLOAD}.delete", file="file_id")
    @blp.response(200)
    @missing()
    def delete(self, file_id: int):
        """Delete a file (a file still generating stops)."""
        services.delete_file(file_id)


@blp.route("/ScheduledReport/kinds")
class ReportKinds(MethodView):
    @blp.requires("device.list.query")
    @blp.response(200, ReportKindSchema(many=True))
    def get(self):
        """The report types a scheduled report can have."""
        return [{"key": kind.key, "label": gettext(kind.label)} for kind in REPORT_KINDS.values() if kind.listed]


@blp.route("/ScheduledReport/page")
class ReportPage(MethodView):
    @blp.requires("device.list.query")
    @blp.arguments(ReportPageQuerySchema)
    @blp.response(200, ScheduledReportSchema, page=True)
    def post(self, args):
        """The account's scheduled reports."""
        return services.report_page(args)


@blp.route("/ScheduledReport/insert")
class ReportInsert(MethodView):
    # A storage report's storage goes through the storage area's gate rule (who sees it).
    @blp.requires("device.list.export", storage="storageId")
    @blp.arguments(ScheduledReportInputSchema)
    @blp.response(200, ScheduledReportSchema)
    def post(self, args):
        """Create a scheduled report (name up to 20; receivers with no duplicate phone or email): a device
        report names its devices, a storage report its storage (storageId)."""
        return services.create_report(args)


@blp.route("/ScheduledReport/update")
class ReportUpdate(MethodView):
    @blp.requires("device.list.export", scheduled_report="id")
    @blp.arguments(ScheduledReportUpdateSchema)
    @blp.response(200, ScheduledReportSchema)
    @missing()
    def put(self, args):
        """Change a scheduled report."""
        return services.update_report(args)


@blp.route("/ScheduledReport/delete/<int:report_id>")
class ReportDelete(MethodView):
    @blp.requires("device.list.export", scheduled_report="report_id")
    @blp.response(200)
    @missing()
    def delete(self, report_id: int):
        """Delete a scheduled report (its files stay in the download centre)."""
        services.delete_report(report_id)


@blp.route("/ScheduledReport/sendNow/<int:report_id>")
class ReportSendNow(MethodView):
    @blp.requires("device.list.export", scheduled_report="report_id")
    @blp.response(200, ExportFileSchema)
    @missing()
    def post(self, report_id: int):
        """Generate and send a scheduled report now (the schedule is unchanged)."""
        export = services.send_now(report_id)
        enqueue_generation(export)
        return export


# ---- scheduled backups (/service/scheduledBackup) -------------------------------------------------


@blp.route("/BackupSchedule/page")
class BackupPage(MethodView):
    @blp.requires(f"{BACKUP}.query")
    @blp.arguments(BackupPageQuerySchema)
    @blp.response(200, BackupScheduleSchema, page=True)
    def post(self, args):
        """The account's scheduled backups."""
        return backup.schedule_page(args)


@blp.route("/BackupSchedule/insert")
class BackupInsert(MethodView):
    @blp.requires(f"{BACKUP}.add")
    @blp.arguments(BackupScheduleInputSchema)
    @blp.response(200, BackupScheduleSchema)
    def post(self, args):
        """Create a scheduled backup: name (up to 20), frequency, the days of readings each archive
        holds (1-366), how many archives are kept (1-30) and the first run."""
        return backup.create_schedule(args)


@blp.route("/BackupSchedule/update")
class BackupUpdate(MethodView):
    @blp.requires(f"{BACKUP}.edit", backup_schedule="id")
    @blp.arguments(BackupScheduleUpdateSchema)
    @blp.response(200, BackupScheduleSchema)
    @missing()
    def put(self, args):
        """Change a scheduled backup (a smaller keepCount removes the oldest archives at once)."""
        return backup.update_schedule(args)


@blp.route("/BackupSchedule/delete/<int:schedule_id>")
class BackupDelete(MethodView):
    @blp.requires(f"{BACKUP}.delete", backup_schedule="schedule_id")
    @blp.response(200)
    @missing()
    def delete(self, schedule_id: int):
        """Delete a scheduled backup (its archives stay in the download centre until they expire)."""
        backup.delete_schedule(schedule_id)


@blp.route("/BackupSchedule/runNow/<int:schedule_id>")
class BackupRunNow(MethodView):
    @blp.requires(f"{BACKUP}.edit", backup_schedule="schedule_id")
    @blp.response(200, ExportFileSchema)
    @missing()
    def post(self, schedule_id: int):
        """Back up now (the schedule is unchanged); the archive appears in the download centre."""
        export = backup.run_now(schedule_id)
        enqueue_generation(export)
        return export


@blp.route("/BackupSchedule/archives")
class BackupArchives(MethodView):
    @blp.requires(f"{BACKUP}.query", backup_schedule="id")
    @blp.arguments(BackupArchiveQuerySchema)
    @blp.response(200, ExportFileSchema, page=True)
    @missing()
    def post(self, args):
        """The archives of a scheduled backup, newest first (download them from the download centre
        call ExportFile/download)."""
        return backup.archive_page(args)


@blp.route("/BackupRestore")
class BackupRestore(MethodView):
    @blp.requires("operation.device.systemManage.edit")
    @blp.arguments(RestoreQuerySchema, location="query")
    @blp.arguments(RestoreFileSchema, location="files")
    @blp.response(200, RestoreResultSchema)
    @blp.alt_response(403, schema=ErrorEnvelopeSchema, description="Not the platform operator")
    @blp.alt_response(413, schema=ErrorEnvelopeSchema, description="Over the zip import caps")
    @blp.alt_response(422, schema=ErrorEnvelopeSchema, description="Not a backup, or it does not match its manifest")
    def post(self, args, files):
        """Restore one account's backup archive (checked against its manifest; nothing written on error)."""
        return restore.restore_upload(files.get("file"), args["platformId"])
