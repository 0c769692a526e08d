"""What FDA mode asks of a change: a reason (21 CFR 11.10(e): the trail records why), or an electronic
signature (11.200(a): the user name and password again, with the reason as its meaning) where the
operation's need declares `gxp` = signature (api/extensions/smorest). The rule is a class rule: every
POST / PUT / PATCH / DELETE is a change unless api/fda/exemptions.py says why not, so an operation
written tomorrow asks for its reason without naming itself here. It applies when FDA mode governs the
caller (its own account, or an owner whose records it can sign: api/fda/signers.py) or owns a record
the request names. The evidence travels in headers so every such call takes it the same way; the
web's shared client asks for it whenever the answer says it is missing and sends the call again.

Registered with the access layer's gate (api/fda/access_rules), so it runs with the declared need.
"""

from __future__ import annotations

from urllib.parse import unquote

from flask import request
from flask_babel import gettext

from api.access.gate import owner_of, requested_objects
from api.audit.recorder import record_event
from api.extensions.reasons import REASON_HEADER, change_reason
from api.extensions.smorest import GXP_REASON, GXP_SIGNATURE, ApiError, Need
from api.fda.exemptions import exemption
from api.fda.services import confirm_signer, is_enabled
from api.fda.signers import is_governed
from api.identity.auth import require_account

SIGNER_HEADER = "X-Signature-User"
PASSWORD_HEADER = "X-Signature-Password"
# The body code of "this change needs its evidence"; data.needs says which (reason or signature).
EVIDENCE_REQUIRED = 4604


def evidence_asked(need: Need, method: str, rule: str) -> str | None:
    """What FDA mode asks of this operation: its declared `gxp`, else a reason for every change that
    api/fda/exemptions.py does not exempt (None: nothing)."""
    if need.gxp is not None:
        return need.gxp
    return None if exemption(need, method, rule) is not None else GXP_REASON


def _fda_mode_applies(need: Need) -> bool:
    """FDA mode governs the caller (its own, or an owner's whose records it signs), or owns a record
    the request names. The records are read from the request and loaded here, not taken from what the
    gate admitted: a record the gate did not see (an id it skipped) would otherwise change unexplained."""
    if is_governed(require_account().id):
        return True
    owners = {owner_of(need, record) for record in requested_objects(need)} - {None}
    return any(is_enabled(owner) for owner in owners)


def evidence_required(needs: str) -> ApiError:
    message = (
        gettext("FDA mode: sign this change with your user name, password and a reason.")
        if needs == GXP_SIGNATURE
        else gettext("FDA mode: give a reason for this change.")
    )
    return ApiError(message, code=EVIDENCE_REQUIRED, data={"needs": needs, "header": REASON_HEADER})


def require_record_evidence(need: Need) -> None:
    rule = request.url_rule.rule if request.url_rule is not None else request.path
    needs = evidence_asked(need, request.method, rule)
    if needs is None or not _fda_mode_applies(need):
        return
    reason = change_reason()
    if needs != GXP_SIGNATURE:
        if reason is None:
            raise evidence_required(needs)
        return
    signer = unquote(request.headers.get(SIGNER_HEADER, "")).strip()
    password = unquote(request.headers.get(PASSWORD_HEADER, ""))
    if reason is None or not signer or not password:
        raise evidence_required(needs)
    what = f"{need.key} ({request.method} {request.path})"
    me = confirm_signer(signer, password, what)
    # The manifestation (11.50): printed name, time (the entry's), meaning (the reason).
    record_event(
        me, f"Electronically signed: {what}", details={"printedName": me.real_name or me.user_name, "meaning": reason}
    )
