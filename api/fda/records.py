"""What FDA mode asks of a change to a GxP record (operations declaring `gxp`, api/extensions/smorest):
a reason (21 CFR 11.10(e): the trail records why), or an electronic signature (11.200(a): the user
name and password again, with the reason as its meaning). The evidence travels in headers so every
such call takes it the same way; the web asks for it when the answer says it is missing.

Registered with the access layer's gate (api/fda/access_rules), so it runs with the declared need.
"""

from __future__ import annotations

from urllib.parse import unquote

from flask import request
from flask_babel import gettext

from api.access.gate import admitted_objects
from api.account.auth import require_account
from api.audit.recorder import REASON_HEADER, change_reason, record_event
from api.extensions.smorest import GXP_SIGNATURE, ApiError, Need
from api.fda.services import confirm_signer, is_enabled

SIGNER_HEADER = "X-Signature-User"
PASSWORD_HEADER = "X-Signature-Password"
# The body code of "this change needs its evidence"; data.needs says which (reason or signature).
EVIDENCE_REQUIRED = 4604


def _record_owners() -> set[int]:
    """The accounts whose FDA mode applies: the caller's, and the owners of the records it touches."""
    owners = {require_account().id}
    for record in admitted_objects():
        owner = getattr(record, "owner_account_id", None)
        if owner is not None:
            owners.add(owner)
    return owners


def evidence_required(needs: str) -> ApiError:
    message = (
        gettext("FDA mode: sign this change with your user name, password and a reason.")
        if needs == GXP_SIGNATURE
        else gettext("FDA mode: give a reason for this change.")
    )
    return ApiError(message, code=EVIDENCE_REQUIRED, data={"needs": needs, "header": REASON_HEADER})


def require_record_evidence(need: Need) -> None:
    if not any(is_enabled(owner) for owner in _record_owners()):
        return
    reason = change_reason()
    if need.gxp != GXP_SIGNATURE:
        if reason is None:
            raise evidence_required(need.gxp)
        return
    signer = unquote(request.headers.get(SIGNER_HEADER, "")).strip()
    password = unquote(request.headers.get(PASSWORD_HEADER, ""))
    if reason is None or not signer or not password:
        raise evidence_required(need.gxp)
    what = f"{need.key} ({request.method} {request.path})"
    me = confirm_signer(signer, password, what)
    # The manifestation (11.50): printed name, time (the entry's), meaning (the reason).
    record_event(
        me, f"Electronically signed: {what}", details={"printedName": me.real_name or me.user_name, "meaning": reason}
    )
