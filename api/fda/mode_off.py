"""Turning FDA mode off takes two people (21 CFR 11.10(g) authority checks; EU GMP Annex 11 §12.1): the
controls cannot be switched off and on again by one person between two signatures.

- The owner asks: its own electronic signature (user name and password again) with the reason. FDA mode
  stays on; the request is pending. The owner may withdraw it.
- A second person approves: a different account that administers the owner's FDA mode (a member of an
  organisation the owner created, holding the `fda` permission), with its own electronic signature and
  a meaning. Only then FDA mode goes off. Nobody approves their own request.

Turning FDA mode on stays one person's signed act (api/fda/services.set_enabled). Every step is on the
trail with its reason or meaning, and the signature's manifestation (printed name, account id, meaning).
"""

from __future__ import annotations

from flask import g
from flask_babel import gettext
from sqlalchemy import select

from api.access.keys import has_permission
from api.audit.recorder import record_event
from api.extensions.db import db, utcnow
from api.extensions.smorest import ApiError
from api.fda import services
from api.fda.contacts import FDA_KEY
from api.fda.models import FdaOffRequest, FdaSetting, OffRequestState
from api.fda.services import confirm_signer, field_error, not_found
from api.identity.auth import require_account
from api.identity.models import Account
from api.organization.models import Organization, OrganizationMember
from api.tenancy import data_platform_id

OFF_PENDING = 4609


def pending_of(owner_account_id: int) -> FdaOffRequest | None:
    return db.session.scalar(
        select(FdaOffRequest).where(
            FdaOffRequest.owner_account_id == owner_account_id,
            FdaOffRequest.state == OffRequestState.PENDING,
            FdaOffRequest.platform_id == data_platform_id(),
        )
    )


def _name(account_id: int | None) -> str | None:
    account = db.session.get(Account, account_id) if account_id else None
    return f"{account.real_name or account.user_name} (#{account.id})" if account else None


def present(request: FdaOffRequest) -> dict:
    owner = db.session.get(Account, request.owner_account_id)
    return {
        "id": request.id,
        "ownerUserName": owner.user_name if owner else "",
        "ownerAccountId": request.owner_account_id,
        "requestedBy": _name(request.requested_by),
        "requestedAt": request.requested_at,
        "reason": request.reason,
    }


def config() -> dict:
    """The account's FDA mode (api/fda/services.config) and its pending request to turn it off."""
    pending = pending_of(require_account().id)
    return services.config() | {"pendingOff": present(pending) if pending is not None else None}


def switch(args: dict) -> dict:
    """FdaConfig/update: turning FDA mode off while it is on asks for it (a pending request); anything
    else (turning it on) is one person's signed act."""
    me = require_account()
    setting = services.setting_of(me.id)
    if args["enabled"] or setting is None or not setting.enabled:
        services.set_enabled(args)
        return config()
    request_off(setting, args)
    db.session.commit()
    return config()


def request_off(setting: FdaSetting, args: dict) -> None:
    """The owner's signed request (caller commits). A second request while one is pending is refused."""
    me = require_account()
    if pending_of(me.id) is not None:
        raise ApiError(gettext("A request to turn FDA mode off is already waiting for approval."), code=OFF_PENDING)
    confirm_signer(args["checkUserName"], args["checkPassword"], "FDA mode off (request)", f"fda_setting#{me.id}")
    g.audit_reason = args["reason"]
    db.session.add(
        FdaOffRequest(
            platform_id=setting.platform_id,
            owner_account_id=me.id,
            requested_by=me.id,
            reason=args["reason"].strip(),
        )
    )


def _administers(account: Account, owner_account_id: int) -> bool:
    """Whether the account administers the owner's FDA mode: a member of one of the owner's
    organisations holding `fda`."""
    member = db.session.scalar(
        select(OrganizationMember.id)
        .join(Organization, Organization.id == OrganizationMember.organization_id)
        .where(OrganizationMember.account_id == account.id, Organization.owner_account_id == owner_account_id)
        .limit(1)
    )
    return member is not None and has_permission(account, FDA_KEY)


def approvable() -> list[dict]:
    """Pending requests the signed-in account may approve: owners it administers, requests not its own."""
    me = require_account()
    owners = (
        select(Organization.owner_account_id)
        .join(OrganizationMember, OrganizationMember.organization_id == Organization.id)
        .where(OrganizationMember.account_id == me.id)
    )
    if not has_permission(me, FDA_KEY):
        return []
    requests = db.session.scalars(
        select(FdaOffRequest)
        .where(
            FdaOffRequest.state == OffRequestState.PENDING,
            FdaOffRequest.platform_id == data_platform_id(),
            FdaOffRequest.owner_account_id.in_(owners),
            FdaOffRequest.owner_account_id != me.id,
            FdaOffRequest.requested_by != me.id,
        )
        .order_by(FdaOffRequest.id)
    )
    return [present(request) for request in requests]


def _pending(request_id: int) -> FdaOffRequest:
    request = db.session.scalar(
        select(FdaOffRequest)
        .where(FdaOffRequest.id == request_id, FdaOffRequest.platform_id == data_platform_id())
        .with_for_update()
    )
    if request is None:
        raise not_found()
    if request.state != OffRequestState.PENDING:
        raise field_error("requestId", gettext("This request has been decided already."))
    return request


def approve(args: dict) -> None:
    """The second person's signed approval: FDA mode goes off (commits)."""
    me = require_account()
    request = _pending(args["requestId"])
    if request.requested_by == me.id or request.owner_account_id == me.id:
        raise field_error("requestId", gettext("A second person must approve: not the one who asked."))
    if not _administers(me, request.owner_account_id):
        raise not_found()
    what = f"FDA mode off (approval of request #{request.id})"
    confirm_signer(args["checkUserName"], args["checkPassword"], what, f"fda_setting#{request.owner_account_id}")
    g.audit_reason = args["meaning"].strip()
    setting = db.session.get(FdaSetting, request.owner_account_id)
    now = utcnow()
    setting.enabled, setting.changed_at, setting.changed_by = False, now, me.id
    request.state, request.decided_by, request.decided_at = OffRequestState.APPROVED, me.id, now
    request.meaning = args["meaning"].strip()
    # The manifestation (11.50): printed name, account id, time (the entry's), meaning.
    record_event(
        me,
        f"Electronically signed: {what}",
        target=f"fda_setting#{request.owner_account_id}",
        details={"printedName": me.real_name or me.user_name, "accountId": me.id, "meaning": request.meaning},
    )
    db.session.commit()


def cancel(request_id: int) -> None:
    """The owner withdraws its own pending request; FDA mode stays on (commits)."""
    me = require_account()
    request = _pending(request_id)
    if request.owner_account_id != me.id:
        raise not_found()
    request.state, request.decided_by, request.decided_at = OffRequestState.CANCELLED, me.id, utcnow()
    db.session.commit()
