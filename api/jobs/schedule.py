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
