"""Public views of one waybill, for people without an account: the quick lookup by a complete
tracking number, and share links (8 hours, 1 day, 3 days, 7 days or a custom expiry, an optional
PIN, revocable, with an access log). A visitor sees only that waybill's status, route, temperatures
and alarms: never the device's GUID, the contacts or anything else of the account."""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from flask import request
from flask_babel import gettext
from sqlalchemy import func, select

from api.device.models import Device
from api.extensions.db import db, utcnow
from api.extensions.i18n import local_text
from api.extensions.offload import Hasher
from api.extensions.smorest import ApiError, field_error
from api.identity.auth import require_account
from api.tenancy import data_platform_id
from api.waybill import services, tracking
from api.waybill.models import Waybill, WaybillShare, WaybillShareAccess

EXPIRY = {"8h": timedelta(hours=8), "1d": timedelta(days=1), "3d": timedelta(days=3), "7d": timedelta(days=7)}
MAX_CUSTOM = timedelta(days=90)
SHARE_PATH = "/share/waybill/{token}"
EXPIRED_CODE, REVOKED_CODE, PIN_CODE, PIN_LOCKED_CODE = 7101, 7102, 7103, 7104
pin_hasher = Hasher()
# Wrong PINs are counted per link, not per address: after PIN_MAX_TRIES in a row the link refuses
# every PIN (the right one too, from any address) for PIN_LOCK.
PIN_MAX_TRIES = 10
PIN_LOCK = timedelta(minutes=15)


def clock() -> datetime:
    """Now (a module attribute, so the tests move time on instead of sleeping)."""
    return utcnow()


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def public_view(waybill, device, number: str | None = None) -> dict:
    view = tracking.status(waybill, device)
    view["waybillNum"] = waybill.waybill_num
    view["trackingNumber"] = number
    return view


def quick(number: str) -> dict:
    """The quick lookup: a complete waybill or tracking number of this site's data space, else 404."""
    found = tracking.by_tracking_number(data_platform_id(), number)
    if found is None:
        raise ApiError(gettext("The waybill cannot be found, please confirm and re-enter"), code=404, http_status=404)
    waybill, device, stored = found
    return public_view(waybill, device, number=stored)


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
        "pinFailures": share.pin_failures_total or 0,
        "pinLastFailedAt": share.pin_failed_at,
        "pinLockedUntil": share.pin_locked_until if _locked(share, now) else None,
    }


def _locked(share: WaybillShare, now: datetime) -> bool:
    return share.pin_locked_until is not None and share.pin_locked_until > now


def create(args: dict) -> dict:
    waybill, _ = services.find(args["waybillId"], write=True)
    now = clock()
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
    now = clock()
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
    now = clock()
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
    opening is logged (when, from where, what the visitor got). The link's row is locked while its
    wrong PINs are counted, so concurrent guesses are all counted."""
    share = db.session.scalar(select(WaybillShare).where(WaybillShare.token_hash == _digest(token)).with_for_update())
    if share is None:
        raise ApiError(gettext("This link does not exist."), code=404, http_status=404)
    waybill_device = db.session.execute(
        select(Waybill, Device)
        .join(Device, Device.id == Waybill.device_id)
        .where(Waybill.id == share.waybill_id, Waybill.platform_id == data_platform_id())
    ).one_or_none()
    if waybill_device is None:
        db.session.rollback()
        raise ApiError(gettext("This link does not exist."), code=404, http_status=404)
    now = clock()
    outcome, error = "shown", None
    if share.revoked_at is not None:
        outcome = "revoked"
        error = ApiError(gettext("This link has been revoked by its owner."), code=REVOKED_CODE, http_status=410)
    elif share.expires_at <= now:
        outcome = "expired"
        error = ApiError(gettext("This link has expired."), code=EXPIRED_CODE, http_status=410)
    elif share.pin_hash is not None:
        outcome, error = _check_pin(share, pin, now)
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
    zone = ZoneInfo(device.time_zone)
    return {
        **public_view(waybill, device),
        "expiresAt": share.expires_at,
        # Worded in the device's zone with its offset, as the trip report words its times.
        "expiresAtText": local_text(share.expires_at, zone, seconds=False) if share.expires_at else None,
        "timeZone": zone.key,
    }


def _check_pin(share: WaybillShare, pin: str | None, now: datetime) -> tuple[str, ApiError | None]:
    """The PIN of a link: refused while the link is locked (even the right one), counted when wrong."""
    if _locked(share, now):
        return "locked", _locked_error(share, now)
    if _pin_ok(share.pin_hash, pin):
        share.pin_failures, share.pin_locked_until = 0, None
        return "shown", None
    if not pin:
        return "pin", ApiError(
            gettext("Please enter the PIN of this link."), code=PIN_CODE, http_status=403, data={"needPin": True}
        )
    if share.pin_locked_until is not None:  # a lock that has passed: a new run of tries
        share.pin_failures, share.pin_locked_until = 0, None
    share.pin_failures = (share.pin_failures or 0) + 1
    share.pin_failures_total = (share.pin_failures_total or 0) + 1
    share.pin_failed_at = now
    if share.pin_failures >= PIN_MAX_TRIES:
        share.pin_locked_until = now + PIN_LOCK
        return "locked", _locked_error(share, now)
    return "pin", ApiError(gettext("The PIN is not correct."), code=PIN_CODE, http_status=403, data={"needPin": True})


def _locked_error(share: WaybillShare, now: datetime) -> ApiError:
    minutes = max(1, -(-int((share.pin_locked_until - now).total_seconds()) // 60))
    return ApiError(
        gettext("Too many wrong PINs: this link is locked, try again in %(minutes)s minutes.", minutes=minutes),
        code=PIN_LOCKED_CODE,
        http_status=429,
        data={"needPin": True, "lockedUntil": share.pin_locked_until.isoformat()},
    )


def _pin_ok(pin_hash: str, pin: str | None) -> bool:
    if not pin:
        return False
    return pin_hasher.matches(pin_hash, pin)
