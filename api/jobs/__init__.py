"""Background jobs on RQ: named queues, the `@job` decorator and the in-process fallback.

Jobs take ids, never ORM objects, and must be idempotent: RQ may run a job again after a crash.
With no Redis reachable (the embedded default of `make run`), `enqueue` runs the job at once in the
calling process and logs that it did so; production turns that fallback off.
"""

from __future__ import annotations

import functools
import importlib
import logging
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from flask import Flask, current_app, has_app_context
from rq import Queue, Retry

from api.extensions.redis import redis_connection

log = logging.getLogger(__name__)

NOTIFICATIONS, EXPORTS, REPORTS, DEFAULT = "notifications", "exports", "reports", "default"
QUEUES = (NOTIFICATIONS, EXPORTS, REPORTS, DEFAULT)

P = ParamSpec("P")
R = TypeVar("R")

_worker_app: Flask | None = None


class JobsUnavailableError(RuntimeError):
    pass


def _app_for_worker() -> Flask:
    global _worker_app
    if _worker_app is None:
        # The app factory sits on top of every area, and every area's jobs sit on this module: it is
        # found by name when a worker first needs it, so no floor's imports reach every area through it.
        _worker_app = importlib.import_module("api").create_app()
    return _worker_app


def job(queue: str = DEFAULT, *, retry: Retry | None = None, timeout: int = 600):
    """Declare a job bound to a named queue; the function gains `.enqueue(*ids)`."""
    if queue not in QUEUES:
        raise ValueError(f"unknown queue {queue!r}")

    def decorator(func: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(func)
        def run(*args: P.args, **kwargs: P.kwargs) -> R:
            if has_app_context():
                return func(*args, **kwargs)
            with _app_for_worker().app_context():
                return func(*args, **kwargs)

        def enqueue(*args: Any, job_id: str | None = None, **kwargs: Any):
            return enqueue_job(run, queue, args, kwargs, retry=retry, timeout=timeout, job_id=job_id)

        run.enqueue = enqueue  # type: ignore[attr-defined]
        run.queue_name = queue  # type: ignore[attr-defined]
        return run

    return decorator


def enqueue_job(func, queue: str, args: tuple, kwargs: dict, *, retry=None, timeout=600, job_id=None):
    connection = redis_connection()
    if connection is not None:
        return Queue(queue, connection=connection).enqueue(
            func, *args, **kwargs, retry=retry, job_timeout=timeout, job_id=job_id
        )
    if not current_app.config["JOBS_INLINE_FALLBACK"]:
        raise JobsUnavailableError(f"Redis unreachable at {current_app.config['REDIS_URL']}")
    log.warning("No Redis: running job %s.%s in-process", func.__module__, func.__name__)
    try:
        return func(*args, **kwargs)
    except Exception:
        # A queued job would fail on its own; an in-process one must not fail the caller's request.
        log.exception("in-process job %s.%s failed", func.__module__, func.__name__)
        return None
