"""The reason a requester gives for a change (FDA mode asks for one with every mutating call).

It sits below every area because each history that records a change (the operation log, a device's
name and zone history, a limit's history) records the same reason: the `X-Change-Reason` header,
or g.audit_reason where a service takes the reason in its own input.
"""

from __future__ import annotations

from urllib.parse import unquote

from flask import g, request

REASON_HEADER = "X-Change-Reason"
MAX_REASON = 200


def change_reason() -> str | None:
    reason = g.get("audit_reason") or unquote(request.headers.get(REASON_HEADER, ""))
    return reason.strip()[:MAX_REASON] or None
