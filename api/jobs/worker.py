"""The RQ worker class of the platform: `rq worker --worker-class api.jobs.worker.AppWorker ...`.

RQ forks a work horse per job. Without this, every horse imports the api and builds the Flask app
again (seconds per job); AppWorker builds it once in the parent, before any fork, so every horse
inherits it ready, frozen out of the collector's walks (api/extensions/heap.py). The parent never
opens a database connection, so no connection crosses a fork.
"""

from __future__ import annotations

from rq import Worker

from api.extensions.heap import freeze_startup_heap
from api.jobs import _app_for_worker


class AppWorker(Worker):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)

        _app_for_worker()
        freeze_startup_heap()
