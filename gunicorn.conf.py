"""gunicorn reads this file from the directory it starts in (`gunicorn 'api:create_app()'`); command
line options override it.

The defaults are what bench/fleet.py measures (docs/scaling.md): a worker process per core, 16
threads each, keep-alive for devices and browsers that reuse their connection. A request mostly waits
on PostgreSQL, and the GIL is per process; device uploads that arrive together are committed together
(api/extensions/group_commit.py), so the more of them a worker holds at once, the cheaper each is:
one-record uploads took about half the CPU each with 16 threads than with 4 (docs/scaling.md)."""

import os

from api.extensions.heap import freeze_startup_heap

workers = int(os.environ.get("WEB_CONCURRENCY", os.cpu_count() or 1))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "16"))
keepalive = 30


def post_worker_init(worker) -> None:
    """Each worker has built its app by now: freeze it out of the collector's walks."""
    freeze_startup_heap()
