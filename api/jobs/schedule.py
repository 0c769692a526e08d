"""Periodic jobs, declared as data and run by RQ's CronScheduler:

    rq cron --url $REDIS_URL api/jobs/schedule.py

Each business area adds its rows here (offline detection, escalation, scheduled reports, expiry
notices, partition upkeep ...); the job functions themselves live in that area's jobs.py.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from rq import cron


@dataclass(frozen=True)
class PeriodicJob:
    func: str  # dotted path of a function decorated with @job
    cron: str | None = None  # crontab expression, UTC
    interval: int | None = None  # or every N seconds
    timeout: int = 600


PERIODIC_JOBS: tuple[PeriodicJob, ...] = (
    PeriodicJob("api.health.jobs.record_heartbeat", interval=60, timeout=30),
    PeriodicJob("api.alarm.jobs.sweep_devices", interval=30, timeout=120),
    PeriodicJob("api.alarm.jobs.escalate_alarms", interval=30, timeout=120),
    PeriodicJob("api.notify.jobs.redeliver_stale", interval=300, timeout=120),
    # Download centre (issue 8): scheduled reports, files whose worker died, expired files.
    PeriodicJob("api.report.jobs.run_due_reports", interval=60, timeout=300),
    PeriodicJob("api.report.jobs.sweep_stale_files", interval=60, timeout=300),
    PeriodicJob("api.report.jobs.purge_expired_files", cron="17 3 * * *", timeout=600),
    # Scheduled backups (issue 26): due runs become zip archives; each schedule keeps its newest N.
    PeriodicJob("api.report.jobs.run_due_backups", interval=60, timeout=300),
    # Sign-in counts and codes (issue 15).
    PeriodicJob("api.account.jobs.purge_sign_in_records", cron="43 3 * * *", timeout=300),
    # Storages (issue 20): the rolling-MKT alarm.
    PeriodicJob("api.storage.jobs.check_mkt", interval=300, timeout=240),
    # Partition upkeep: next months' reading partitions exist before data arrives (else every reading
    # lands in the default partition and PostgreSQL refuses to create the month's partition later).
    PeriodicJob("api.telemetry.jobs.ensure_upcoming_partitions", cron="7 2 * * *", timeout=120),
    # Storage (issue 27): readings older than READING_PACK_AFTER_DAYS packed per device, sensor and day.
    PeriodicJob("api.telemetry.jobs.compact_readings", cron="37 2 * * *", timeout=3 * 3600),
    # Service-expiry reminders 30, 7 and 1 days ahead (each sent once: dedupe keys).
    PeriodicJob("api.device.jobs.send_expiry_notices", cron="*/30 * * * *", timeout=300),
    # Waybills (issue 21): starts and stops at set times, arming after the ignore period.
    PeriodicJob("api.waybill.jobs.tick_waybills", interval=60, timeout=120),
    # Audit trail (issue 23): the operation log's hash chain, checked hourly; a break alarms staff.
    PeriodicJob("api.audit.jobs.verify_audit_chain", cron="23 * * * *", timeout=600),
    # Provincial data interface (issue 26): finished intervals into the log, due ones to the workers.
    PeriodicJob("api.datainterface.jobs.tick_connectors", interval=60, timeout=120),
    # Billing (issue 24): unpaid orders close after their payment window; offline purchases apply.
    PeriodicJob("api.billing.jobs.close_stale_orders", interval=600, timeout=120),
    PeriodicJob("api.billing.jobs.apply_offline_purchases", interval=300, timeout=300),
    # Over-the-air upgrades (issue 22): timeouts, the failure threshold, the next group, the rate.
    PeriodicJob("api.product.jobs.advance_rollouts", interval=30, timeout=120),
)


def resolve(dotted: str):
    module, _, name = dotted.rpartition(".")
    return getattr(importlib.import_module(module), name)


def register_all() -> None:
    for periodic in PERIODIC_JOBS:
        func = resolve(periodic.func)
        cron.register(
            func,
            queue_name=func.queue_name,
            cron=periodic.cron,
            interval=periodic.interval,
            job_timeout=periodic.timeout,
            name=periodic.func,
        )


register_all()
