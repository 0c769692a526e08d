"""gunicorn reads this file from the directory it starts in (`gunicorn 'api:create_app()'`)."""

from api.extensions.heap import freeze_startup_heap


def post_worker_init(worker) -> None:
    """Each worker has built its app by now: freeze it out of the collector's walks."""
    freeze_startup_heap()
