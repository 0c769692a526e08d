"""Public views of one waybill, for people without an account: the quick lookup by a complete
tracking number, and share links (8 hours, 1 day, 3 days, 7 days or a custom expiry, an optional
PIN, revocable, with an access log). A visitor sees only that waybill's status, route, temperatures
and alarms: never the device's GUID, the contacts or anything else of the account."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from argon2 import PasswordHasher
from argon2.exceptions import VerificationError
from flask import request
from flask_babel import gettext
from sqlalchemy import func, select

from api.account.auth import require_account
from api.alarm.push import field_error
from api.device.models import Device
from api.extensions.db import db, utcnow
from api.extensions.smorest import ApiError
from api.tenancy import data_platform_id
from api.waybill import services
from api.waybill.models import Waybill, WaybillShare, WaybillShareAccess

EXPIRY = {"8h": timedelta(hours=8), "1d": timedelta(days=1), "3d": timedelta(days=3), "7d": timedelta(days=7)}
MAX_CUSTOM = timedelta(days=90)
SHARE_PATH = "/share/waybill/{token}"
EXPIRED_CODE, REVOKED_CODE, PIN_CODE = 7101, 7102, 7103
pin_hasher = PasswordHasher()


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def public_view(waybill, device, number: str | None = None) -> dict:
    view = services.status(waybill, device)
    view["waybillNum"] = waybill.waybill_num
    view["trackingNumber"] = number
    return view


def quick(number: str) -> dict:
    """The quick lookup: a complete waybill or tracking number of this site's data space, else 404."""
    number = number.strip()
    found = services.by_tracking_number(data_platform_id(), number)
    if found is None:
        raise ApiError(gettext("The waybill cannot be found, please confirm and re-enter"), code=404, http_status=404)
    return public_view(*found, number=number)


# ---- share links (signed in) -----------------------------------------------------------------------------


def _status(share: WaybillShare, now) -> str:
    if share.revoked_at is not None:
        return "revoked"
    return "expired" if share.expires_at <= now else "active"


def _present(share: WaybillShare, now, accesses: int = 0) -> dict:
    return {
        "id": share.id,
        "waybill_id": share.waybill_id,
        "token_hint": share.token_hint,
        "hasPin": share.pin_hash is not None,
        "expires_at": share.expires_at,
        "revoked_at": share.revoked_at,
        "created_at": share.created_at,
        "status": _status(share, now),
        "accessCount": accesses,
    }


def create(args: dict) -> dict:
    waybill, _ = services.find(args["waybillId"], write=True)
    now = utcnow()
    if args["expire"] == "custom":
        expires_at = args["expireAt"]
        if expires_at <= now or expires_at > now + MAX_CUSTOM:
            raise field_error("expireAt", gettext("Choose a time in the next 90 days."))
    else:
        expires_at = now + EXPIRY[args["expire"]]
    token = secrets.token_urlsafe(24)
    share = WaybillShare(
        waybill_id=waybill.id,
        token_hash=_digest(token),
        token_hint=token[:6],
        pin_hash=pin_hasher.hash(args["pin"]) if args.get("pin") else None,
        expires_at=expires_at,
        created_by=require_account().id,
        created_at=now,
    )
    db.session.add(share)
    db.session.commit()
    return {**_present(share, now), "token": token, "path": SHARE_PATH.format(token=token)}


def shares_of(waybill_id: int) -> list[dict]:
    waybill, _ = services.find(waybill_id, write=True)
    now = utcnow()
    counts = dict(
        db.session.execute(
            select(WaybillShareAccess.share_id, func.count())
            .join(WaybillShare, WaybillShare.id == WaybillShareAccess.share_id)
            .where(WaybillShare.waybill_id == waybill.id)
            .group_by(WaybillShareAccess.share_id)
        ).all()
    )
    rows = db.session.scalars(
        select(WaybillShare).where(WaybillShare.waybill_id == waybill.id).order_by(WaybillShare.id.desc())
    )
    return [_present(share, now, counts.get(share.id, 0)) for share in rows]


def _own_share(share_id: int) -> WaybillShare:
    share = db.session.get(WaybillShare, share_id)
    if share is None:
        raise services.not_found()
    services.find(share.waybill_id, write=True)
    return share


def revoke(share_id: int) -> dict:
    share = _own_share(share_id)
    now = utcnow()
    if share.revoked_at is None:
        share.revoked_at = now
        db.session.commit()
    return _present(share, now)


def access_log(share_id: int) -> list[WaybillShareAccess]:
    share = _own_share(share_id)
    return list(
        db.session.scalars(
            select(WaybillShareAccess)
            .where(WaybillShareAccess.share_id == share.id)
            .order_by(WaybillShareAccess.id.desc())
            .limit(200)
        )
    )


# ---- share links (public) --------------------------------------------------------------------------------


def view(token: str, pin: str | None) -> dict:
    """A visitor opens a link: expired or revoked links say so; a PIN is asked for when set. Every
    opening is logged (when, from where, what the visitor got)."""
    share = db.session.scalar(select(WaybillShare).where(WaybillShare.token_hash == _digest(token)))
    if share is None:
        raise ApiError(gettext("This link does not exist."), code=404, http_status=404)
    waybill_device = db.session.execute(
        select(Waybill, Device)
        .join(Device, Device.id == Waybill.device_id)
        .where(Waybill.id == share.waybill_id, Waybill.platform_id == data_platform_id())
    ).one_or_none()
    if waybill_device is None:
        raise ApiError(gettext("This link does not exist."), code=404, http_status=404)
    now = utcnow()
    outcome, error = "shown", None
    if share.revoked_at is not None:
        outcome = "revoked"
        error = ApiError(gettext("This link has been revoked by its owner."), code=REVOKED_CODE, http_status=410)
    elif share.expires_at <= now:
        outcome = "expired"
        error = ApiError(gettext("This link has expired."), code=EXPIRED_CODE, http_status=410)
    elif share.pin_hash is not None and not _pin_ok(share.pin_hash, pin):
        outcome = "pin"
        error = ApiError(
            gettext("Please enter the PIN of this link.") if not pin else gettext("The PIN is not correct."),
            code=PIN_CODE,
            http_status=403,
            data={"needPin": True},
        )
    db.session.add(
        WaybillShareAccess(
            share_id=share.id,
            at=now,
            ip=(request.remote_addr or "")[:64] or None,
            user_agent=(request.headers.get("User-Agent") or "")[:200] or None,
            outcome=outcome,
        )
    )
    db.session.commit()
    if error is not None:
        raise error
    waybill, device = waybill_device
    return {**public_view(waybill, device), "expiresAt": share.expires_at}


def _pin_ok(pin_hash: str, pin: str | None) -> bool:
    if not pin:
        return False
    try:
        return pin_hasher.verify(pin_hash, pin)
    except VerificationError:
        return False
