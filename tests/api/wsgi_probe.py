"""A WSGI app that answers how its gunicorn worker waits: whether the standard library is patched by
gevent, and which wait psycopg chose when the worker imported it, as it imports it with the api
(tests/api/test_gunicorn_worker.py)."""

from __future__ import annotations

import json

from gevent import monkey
from psycopg import waiting


def app(environ, start_response):
    body = json.dumps({"patched": monkey.is_module_patched("socket"), "wait": waiting.wait.__name__}).encode()
    start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(body)))])
    return [body]
