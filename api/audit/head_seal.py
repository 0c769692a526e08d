"""Signing an exported chain head (api/audit/heads.py): the one place that says how.

`sign(platform_id, data)` returns a JSON-ready seal; `problem(platform_id, data, seal)` says why a seal
does not verify (None when it does). The seal is the site's detached CMS signature with an RFC 3161
timestamp from the configured authority (api/seals: the site's own seal key, the local authority in
development and tests). Verification accepts only the site's seals chaining to the installation's
root or the site's uploaded chain: a head forged with another key fails, and so does an altered one.
"""

from __future__ import annotations

from typing import Any

from api.seals import SealedBlob, sign_detached, verify_detached

ALGORITHM = "cms-detached+rfc3161"


def sign(platform_id: int, data: bytes) -> dict[str, Any]:
    """A detached seal of `data` (the canonical statement of platform `platform_id`'s head); raises
    api.seals.timestamps.TimestampRequestError when the authority cannot stamp it (no seal then)."""
    return {"algorithm": ALGORITHM, **sign_detached(platform_id, data).to_json()}


def problem(platform_id: int, data: bytes, seal: Any) -> str | None:
    """Why `seal` is not the site's timestamped seal of `data`; None if it is."""
    if not isinstance(seal, dict) or seal.get("algorithm") != ALGORITHM:
        return "it is not sealed with the site's seal"
    try:
        blob = SealedBlob.from_json(seal)
    except (KeyError, TypeError, ValueError):
        return "its seal cannot be read"
    verdict = verify_detached(platform_id, data, blob)
    if verdict.valid:
        return None
    return "its seal does not verify (" + "; ".join(verdict.problems or ("invalid",)) + ")"
