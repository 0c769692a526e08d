"""The data API (/operation/dataApi): keys the operator gives a customer's own system, each scoped
to one account, rate limited per key, revocable, with its last-used time; the open calls read that
account's devices only: latest values, readings by range and alarms."""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from flask import request
from flask_babel import gettext
from sqlalchemy import func, or_, select

from api.alarm.models import Alarm
from api.device.models import Device, DeviceState
from api.extensions.db import db, escape_like, paginate, utcnow
from api.extensions.redis import redis_connection
from api.extensions.smorest import ApiError
from api.identity.auth import require_account
from api.identity.models import Account
from api.product.models import DataApiKey
from api.product.services import field_error, not_found, operator
from api.telemetry.readings import reading_source

HEADER = "X-Api-Key"
KEY_PREFIX = "cc_"
MAX_RANGE = timedelta(days=31)
MAX_READINGS = 10_000
# last_used_at is written at most this often per key (every call would be a write per read).
TOUCH_EVERY = timedelta(minutes=1)


def _hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


# ---- the operator's keys -----------------------------------------------------------------------------------


def key_page(args: dict) -> dict:
    operator()
    stmt = select(DataApiKey, Account.user_name).join(Account, Account.id == DataApiKey.account_id)
    if args.get("keyword"):
        pattern = f"%{escape_like(args['keyword'].lower())}%"
        stmt = stmt.where(
            or_(
                func.lower(DataApiKey.name).like(pattern, escape="\\"),
                func.lower(Account.user_name).like(pattern, escape="\\"),
            )
        )
    page = paginate(stmt, args, DataApiKey.id.desc(), rows=True)
    page["list"] = [{"key": key, "user_name": user_name} for key, user_name in page["list"]]
    return page


def create_key(args: dict) -> dict:
    operator()
    account = db.session.get(Account, args["accountId"])
    if account is None or account.cancelled:
        raise field_error("accountId", gettext("The user does not exist."))
    secret = KEY_PREFIX + secrets.token_urlsafe(32)
    key = DataApiKey(
        account_id=account.id,
        name=args["name"],
        key_prefix=secret[:10],
        key_hash=_hash(secret),
        rate_per_minute=args["ratePerMinute"],
        created_by=require_account().id,
    )
    db.session.add(key)
    db.session.commit()
    return {"key": key, "user_name": account.user_name, "secret": secret}


def revoke_key(key_id: int) -> dict:
    operator()
    key = db.session.get(DataApiKey, key_id)
    if key is None:
        raise not_found()
    key.revoked_at = key.revoked_at or utcnow()
    db.session.commit()
    return {"key": key, "user_name": db.session.get(Account, key.account_id).user_name}


# ---- the open calls ------------------------------------------------------------------------------------------


def unauthorized() -> ApiError:
    return ApiError(gettext("Unknown or revoked API key."), code=401, http_status=401)


def _throttle(key: DataApiKey) -> None:
    """At most rate_per_minute calls per key and minute (a fixed window in Redis, shared by every
    api process; without Redis, the embedded default, no limit)."""
    connection = redis_connection()
    if connection is None:
        return
    window = f"dataapi:{key.id}:{int(utcnow().timestamp() // 60)}"
    count = connection.incr(window)
    if count == 1:
        connection.expire(window, 120)
    if count > key.rate_per_minute:
        raise ApiError(gettext("Too many requests, please try again later."), code=429, http_status=429)


def caller() -> DataApiKey:
    """The key of this request (header X-Api-Key), or 401; counts the call against its limit."""
    presented = request.headers.get(HEADER, "")
    key = db.session.scalar(select(DataApiKey).where(DataApiKey.key_hash == _hash(presented))) if presented else None
    if key is None or key.revoked_at is not None:
        raise unauthorized()
    owner = db.session.get(Account, key.account_id)
    if owner is None or owner.cancelled:
        raise unauthorized()
    _throttle(key)
    now = utcnow()
    if key.last_used_at is None or now - key.last_used_at >= TOUCH_EVERY:
        key.last_used_at = now
        db.session.commit()
    return key


def _devices(key: DataApiKey):
    return select(Device).where(Device.owner_account_id == key.account_id, Device.deleted.is_(False))


def latest(args: dict) -> dict:
    key = caller()
    page = paginate(_devices(key), args, Device.id)
    states = {
        s.device_id: s
        for s in db.session.scalars(select(DeviceState).where(DeviceState.device_id.in_([d.id for d in page["list"]])))
    }
    page["list"] = [{"device": d, "state": states.get(d.id)} for d in page["list"]]
    return page


def _device(key: DataApiKey, guid: str) -> Device:
    device = db.session.scalar(_devices(key).where(Device.guid == guid))
    if device is None:  # another account's device looks exactly like no device
        raise ApiError(gettext("The device cannot be found, please confirm and re-enter"), code=404, http_status=404)
    return device


def _range(args: dict) -> tuple[datetime, datetime]:
    start, end = args["startTime"], args["endTime"]
    if end <= start:
        raise field_error("endTime", gettext("The end time must be after the start time."))
    if end - start > MAX_RANGE:
        raise field_error("endTime", gettext("At most 31 days at a time."))
    return start, end


def readings(args: dict) -> dict:
    key = caller()
    device = _device(key, args["deviceGuid"])
    start, end = _range(args)
    r = reading_source(start, end)
    rows = db.session.execute(
        select(r.c.sensor, r.c.ts, r.c.value)
        .where(r.c.device_id == device.id, r.c.ts >= start, r.c.ts < end)
        .order_by(r.c.ts, r.c.sensor)
        .limit(MAX_READINGS + 1)
    ).all()
    return {
        "deviceGuid": device.guid,
        "truncated": len(rows) > MAX_READINGS,
        "list": [{"sensor": s, "time": ts, "value": v} for s, ts, v in rows[:MAX_READINGS]],
    }


def alarms(args: dict) -> dict:
    key = caller()
    start, end = _range(args)
    stmt = (
        select(Alarm)
        .join(Device, Device.id == Alarm.device_id)
        .where(Device.owner_account_id == key.account_id, Alarm.breach_started_at >= start)
        .where(Alarm.breach_started_at < end)
    )
    if args.get("deviceGuid"):
        stmt = stmt.where(Alarm.device_id == _device(key, args["deviceGuid"]).id)
    page = paginate(stmt, args, Alarm.breach_started_at.desc(), Alarm.id.desc())
    guids = dict(
        db.session.execute(select(Device.id, Device.guid).where(Device.owner_account_id == key.account_id)).all()
    )
    page["list"] = [{"alarm": a, "guid": guids.get(a.device_id)} for a in page["list"]]
    return page
