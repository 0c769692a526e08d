"""Device uploads answered below Flask's request machinery: the route's work and answer, without
its request context, routing, hooks and argument and response layers.

A fleet's one-record upload is the platform's most frequent call, and those layers cost about half
of its CPU under load: the fleet benchmark's api answered 1,109-1,722 uploads a second through the
route, and 2,479-3,046 through this path (bench/fleet.py, docs/scaling.md). This WSGI middleware
takes a POST to the upload route only when it answers exactly as the route would, and hands
everything else to Flask:

- before any work: the host names a platform (else the route's 421), the body is declared JSON of a
  known length within the request cap, parses within the JSON limits and passes the route's own
  argument schema (UploadSchema). Anything else goes to Flask with the body as sent, which answers
  it (400, 413, 421, 422 ...) as always;
- the work is the route's: the same group commit (`telemetry.uploads`), in an app context bound to
  the host's platform as the route's request is;
- a clean result (every record kept) is answered here: the envelope with the message in the caller's
  language, the route's response schema, the security headers;
- any other outcome (an unknown or refused device, rejected records, an error) goes to the route
  with the body and the outcome, and the route answers it without uploading again
  (`take_outcome`): refusals and localized reasons stay the route's alone.

The route stays the operation's declaration (public, documented) and answers everything this path
does not; tests/api/test_upload_fast_path.py compares the two paths' answers header for header.
The route has no rate limit: one added there would need this path to apply it as well.
`DEVICE_UPLOAD_FAST_PATH=0` sends every upload through the route.
"""

from __future__ import annotations

import io
import logging
from dataclasses import dataclass

import marshmallow as ma
from flask import Flask, g, request
from werkzeug.exceptions import SecurityError
from werkzeug.wsgi import get_host

from api.extensions import jsonlimits
from api.extensions.i18n import locale_for
from api.extensions.security import security_headers
from api.extensions.smorest import envelope, envelope_schema, success_message
from api.telemetry.ingest import DeviceUpload, IngestResult
from api.telemetry.schemas import UploadResultSchema, UploadSchema
from api.tenancy import platform_snapshot

log = logging.getLogger(__name__)

# The environ key handing an outcome to the route. A client cannot set it: its headers arrive as
# HTTP_* keys.
OUTCOME = "coldchain.upload_outcome"
_ARGUMENTS = UploadSchema()
# The route's response: `@blp.response(200, UploadResultSchema)` dumps through this envelope.
_ANSWER = envelope_schema(UploadResultSchema)()


@dataclass(frozen=True)
class Outcome:
    """What the group commit gave this path's upload: its result, or the error it raised."""

    result: object = None
    error: Exception | None = None

    def get(self):
        if self.error is not None:
            raise self.error
        return self.result


def take_outcome() -> Outcome | None:
    """The route's request: the outcome of its upload when this path did the work, else None."""
    return request.environ.pop(OUTCOME, None)


class UploadFastPath:
    def __init__(self, wsgi_app, app: Flask, path: str):
        self.wsgi_app, self.app, self.path = wsgi_app, app, path

    def __call__(self, environ, start_response):
        if (
            environ.get("PATH_INFO") != self.path
            or environ.get("REQUEST_METHOD") != "POST"
            or not self.app.config["DEVICE_UPLOAD_FAST_PATH"]
        ):
            return self.wsgi_app(environ, start_response)
        body = self._json_body(environ)
        if body is None:
            return self.wsgi_app(environ, start_response)
        environ["wsgi.input"] = io.BytesIO(body)  # whoever answers reads the body as sent
        with self.app.app_context():
            answer = self._upload(environ, body)
            if answer is not None:
                # The JSON answer as Flask renders it, with the headers its hooks add
                # (werkzeug's own WSGI rendering of a response cost as much as the rest of this path).
                start_response(answer.status, [*answer.headers.to_wsgi_list(), *security_headers(self.path)])
                return [answer.get_data()]
        handed = OUTCOME in environ
        response = self.wsgi_app(environ, start_response)
        if handed and OUTCOME in environ:
            # The route refused the request before taking the outcome: the upload was done but its
            # caller was told otherwise (a re-send counts as duplicates). Only a new check on the
            # route, not mirrored here, can cause it.
            log.error("an upload's outcome was not answered by the route: %s", environ[OUTCOME])
        return response

    def _json_body(self, environ) -> bytes | None:
        """The body, when declared JSON of a length within the request cap; else None, unread."""
        if environ.get("CONTENT_TYPE", "").split(";", 1)[0].strip().lower() != "application/json":
            return None
        try:
            length = int(environ.get("CONTENT_LENGTH") or "")
        except ValueError:
            return None
        cap = min(self.app.config.get("MAX_CONTENT_LENGTH") or jsonlimits.MAX_JSON_BYTES, jsonlimits.MAX_JSON_BYTES)
        if not 0 < length <= cap:
            return None
        return environ["wsgi.input"].read(length)

    def _upload(self, environ, body: bytes):
        """The clean answer of the upload, or None: then Flask answers (with the outcome, if the
        upload was done)."""
        try:
            host = get_host(environ, self.app.config.get("TRUSTED_HOSTS"))
        except SecurityError:
            return None
        snapshot = platform_snapshot(host)
        if snapshot is None:
            return None
        try:
            arguments = _ARGUMENTS.load(jsonlimits.loads(body), unknown=ma.INCLUDE)
        except (ValueError, ma.ValidationError):  # JsonLimitError and bad JSON are ValueErrors
            return None
        g.platform_snapshot = snapshot  # as the route's request binds it (api/tenancy.py)
        upload = DeviceUpload(
            environ.get("HTTP_X_DEVICE_ID"), environ.get("HTTP_X_DEVICE_KEY"), arguments["guid"], arguments["records"]
        )
        try:
            result = self.app.extensions["telemetry.uploads"].submit(upload)
        except Exception as exc:  # handed to the route, whose error handlers answer it
            environ[OUTCOME] = Outcome(error=exc)
            return None
        if not isinstance(result, IngestResult) or result.rejected:
            environ[OUTCOME] = Outcome(result=result)
            return None
        message = success_message(locale_for(environ.get("HTTP_ACCEPT_LANGUAGE", "")))
        return self.app.json.response(_ANSWER.dump(envelope(result, msg=message)))
