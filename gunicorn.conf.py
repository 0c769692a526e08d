"""gunicorn reads this file from the directory it starts in (`gunicorn 'api:create_app()'`); command
line options override it.

The defaults are what bench/fleet.py measures (docs/scaling.md): a worker process per core, each
serving its connections as gevent greenlets, keep-alive for devices and browsers that reuse their
connection. A request mostly waits on PostgreSQL; device uploads that arrive together are committed
together (api/extensions/group_commit.py), so the more of them a worker holds at once, the cheaper
each is. With threads (gthread, 16 a worker) the group's leader fought the other threads for the GIL
after each of its statements, up to the 5 ms switch interval a time, and every keep-alive request
went through the main thread's poller and back: the same uploads were answered at about half the
rate (docs/scaling.md). psycopg (3.1.14 and later) waits cooperatively once gevent has patched the
standard library. gunicorn parses requests with its C parser (gunicorn_h1c, pyproject.toml's `fast`
extra) where it was built, else in Python (its http_parser "auto").

gevent patches the standard library here, before anything below imports it: a lock or socket made
before the patch would block the worker's only thread."""

from gevent import monkey

monkey.patch_all()

import os  # noqa: E402 - after the patch, as gevent requires

from api.extensions.heap import freeze_startup_heap  # noqa: E402

workers = int(os.environ.get("WEB_CONCURRENCY", os.cpu_count() or 1))
worker_class = "gevent"
worker_connections = int(os.environ.get("GUNICORN_WORKER_CONNECTIONS", "1000"))
keepalive = 30


def post_worker_init(worker) -> None:
    """Each worker has built its app by now: freeze it out of the collector's walks."""
    freeze_startup_heap()
