"""Periodic jobs, declared as data and run by RQ's CronScheduler:

    rq cron --url $REDIS_URL api/jobs/schedule.py

Each area declares its rows in its manifest (`periodic_jobs`, api/hooks.py: offline detection,
escalation, scheduled reports, expiry notices, partition upkeep ...); the job functions themselves
live in that area's jobs.py.
"""

from __future__ import annotations

import importlib

from rq import cron

from api.hooks import periodic_jobs


def resolve(dotted: str):
    module, _, name = dotted.rpartition(".")
    return getattr(importlib.import_module(module), name)


def register_all() -> None:
    for periodic in periodic_jobs():
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
