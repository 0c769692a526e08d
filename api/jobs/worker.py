"""The RQ worker class of the platform: `rq worker --worker-class api.jobs.worker.AppWorker ...`.

RQ forks a work-horse for every job. Without this class each horse imports the api and builds the
Flask app again (seconds on a busy machine, for a job of milliseconds). AppWorker builds the app
once in the worker process, before any fork, so every horse inherits it ready. The app opens no
database or Redis connection while it is built, so no socket is shared across the fork.
"""

from __future__ import annotations

from rq import Worker

from api.jobs import _app_for_worker


class AppWorker(Worker):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _app_for_worker()
