"""The report area's object kinds (only their owner reaches them), registered with the gate."""

from __future__ import annotations

from sqlalchemy import select

from api.access.gate import register_kind
from api.extensions.db import db
from api.report.models import BackupSchedule, ExportFile, ScheduledReport
from api.tenancy import data_platform_id


def _loader(model):
    def load(object_id: int):
        return db.session.scalar(select(model).where(model.id == object_id, model.platform_id == data_platform_id()))

    return load


def register() -> None:
    register_kind("file", _loader(ExportFile))
    register_kind("scheduled_report", _loader(ScheduledReport))
    register_kind("backup_schedule", _loader(BackupSchedule))
