"""gunicorn reads this file from the directory it starts in (`gunicorn 'api:create_app()'`); command
line options override it.

The defaults are what bench/fleet.py measures (docs/scaling.md): a worker process per core, each
serving its connections as gevent greenlets, keep-alive for devices and browsers that reuse their
connection. A request mostly waits on PostgreSQL; device uploads that arrive together are committed
together (api/extensions/group_commit.py), so the more of them a worker holds at once, the cheaper
each is. With threads (gthread, 16 a worker) the group's leader fought the other threads for the GIL
after each of its statements, up to the 5 ms switch interval a time, and every keep-alive request
went through the main thread's poller and back: the same uploads were answered at about half the
rate (docs/scaling.md). gunicorn parses requests with its C parser (gunicorn_h1c, pyproject.toml's
`fast` extra) where it was built, else in Python (its http_parser "auto").

gevent's worker patches the standard library in each worker before the worker loads the app, and
psycopg (3.1.14 and later), imported with the app, then waits cooperatively. The master reads this
file and must therefore import nothing of the app: a module imported before the patch keeps its
blocking ways (psycopg chooses how to wait when imported), and a worker of another class (`-k sync`)
must run unpatched. tests/api/test_gunicorn_worker.py checks both."""

import os

workers = int(os.environ.get("WEB_CONCURRENCY", os.cpu_count() or 1))
worker_class = "gevent"
worker_connections = int(os.environ.get("GUNICORN_WORKER_CONNECTIONS", "1000"))
keepalive = 30


def post_worker_init(worker) -> None:
    """Each worker has built its app by now: freeze it out of the collector's walks. Imported here,
    in the worker, not at the top: the master reads this file and must not import the app."""
    from api.extensions.heap import freeze_startup_heap

    freeze_startup_heap()
