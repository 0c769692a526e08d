"""Permission templates, device sharing (with expiry) and device transfer (with consent)."""

from __future__ import annotations

import re
from datetime import timedelta

from flask_babel import gettext
from sqlalchemy import or_, select
from sqlalchemy.exc import IntegrityError

from api.access.reach import DEVICE_BLOCKS
from api.device.catalogue import catalogue_text
from api.device.models import Device, DeviceParam
from api.extensions.db import db, paginate, utcnow
from api.extensions.smorest import ApiError
from api.identity.auth import owned, require_account
from api.identity.lookup import contact_account
from api.identity.models import Account
from api.notify.models import Channel
from api.notify.services import add_message
from api.sharing.models import DeviceShare, PermissionTemplate
from api.tenancy import current_platform, data_platform_id, scoped

EXPIRY = {"8h": timedelta(hours=8), "1d": timedelta(days=1), "3d": timedelta(days=3), "7d": timedelta(days=7)}
PARAM_CODE = re.compile(r"^[0-9a-f]{4}$")


def not_found() -> ApiError:
    return ApiError(gettext("The requested resource does not exist."), code=404, http_status=404)


# ---- permission templates ---------------------------------------------------------------------------


def template_codes() -> dict:
    """What a template can govern: the parameters of the device types the account owns and the
    detail blocks."""
    type_ids = owned(select(Device.device_type_id), Device).where(Device.deleted.is_(False)).distinct()
    params = db.session.scalars(
        select(DeviceParam).where(DeviceParam.device_type_id.in_(type_ids)).order_by(DeviceParam.param_key)
    ).all()
    seen: dict[str, dict] = {}
    for param in params:
        seen.setdefault(
            f"{param.param_key:04x}",
            {
                "code": f"{param.param_key:04x}",
                "name": catalogue_text(param.param_name),
                "writable": param.read_write.value != "R",
            },
        )
    return {"params": list(seen.values()), "blocks": list(DEVICE_BLOCKS)}


def _templates():
    return owned(select(PermissionTemplate), PermissionTemplate)


def template_list() -> list[PermissionTemplate]:
    return list(db.session.scalars(_templates().order_by(PermissionTemplate.id)))


def _check_items(items: list[dict]) -> list[dict]:
    errors = []
    seen = set()
    for item in items:
        code = item["permissionCode"].lower()
        if code in seen or not (code in DEVICE_BLOCKS or PARAM_CODE.match(code)):
            errors.append(item["permissionCode"])
        seen.add(code)
        item["permissionCode"] = code
    if errors:
        message = gettext("Unknown or repeated permission codes: %(codes)s", codes=", ".join(errors))
        raise ApiError(message, code=422, http_status=422, data={"errors": {"items": [message]}})
    return items


def save_template(args: dict) -> PermissionTemplate:
    if "id" in args:  # update (its schema requires a positive id); insert has no id field
        template = db.session.scalar(_templates().where(PermissionTemplate.id == args["id"]))
        if template is None:
            raise not_found()
    else:
        template = PermissionTemplate(platform_id=data_platform_id(), owner_account_id=require_account().id)
        db.session.add(template)
    template.name = args["name"]
    template.items = _check_items(args["items"])
    db.session.commit()
    return template


def delete_template(template_id: int) -> None:
    template = db.session.scalar(_templates().where(PermissionTemplate.id == template_id))
    if template is None:
        raise not_found()
    in_use = db.session.scalar(select(DeviceShare.id).where(DeviceShare.template_id == template.id).limit(1))
    if in_use:
        raise ApiError(gettext("Devices are shared with this template; change those shares first."), code=5001)
    db.session.delete(template)
    db.session.commit()


# ---- sharing ------------------------------------------------------------------------------------------------


def owned_devices(device_ids: list[int]) -> list[Device]:
    devices = db.session.scalars(
        owned(select(Device), Device).where(Device.id.in_(device_ids), Device.deleted.is_(False))
    ).all()
    if len(devices) != len(set(device_ids)):
        raise ApiError(gettext("The device cannot be found, please confirm and re-enter"), code=3001)
    return list(devices)


def recipient_of(args: dict) -> Account | None:
    if args.get("phone"):
        return contact_account(phone=args["phone"])
    if args.get("email"):
        return contact_account(email=args["email"])
    account = contact_account(keyword=args["userName"])
    if account is None:
        raise ApiError(gettext("The user does not exist."), code=5002)
    return account


def expiry_of(args: dict):
    if args["expire"] == "custom":
        if args.get("expireTime") is None or args["expireTime"] <= utcnow():
            raise ApiError(
                gettext("End time must be after start time."),
                code=422,
                http_status=422,
                data={"errors": {"expireTime": [gettext("End time must be after start time.")]}},
            )
        return args["expireTime"]
    return utcnow() + EXPIRY[args["expire"]]


def share(args: dict) -> list[DeviceShare]:
    """Share devices with an account, or invite a phone / email that has none yet. One row per device
    and recipient (unique): the loser of a race is tried once more, finding the row and updating it."""
    try:
        return _share(args)
    except IntegrityError:
        db.session.rollback()
        return _share(args)


def _share(args: dict) -> list[DeviceShare]:
    devices = owned_devices(args["deviceIds"])
    template = db.session.scalar(_templates().where(PermissionTemplate.id == args["templateId"]))
    if template is None:
        raise ApiError(gettext("The permission template does not exist."), code=5003)
    recipient = recipient_of(args)
    me = require_account()
    if recipient is not None and recipient.id == me.id:
        raise ApiError(gettext("A device cannot be shared with yourself."), code=5004)
    expires_at = expiry_of(args)
    shares = []
    for device in devices:
        existing = None
        if recipient is not None:
            existing = db.session.scalar(
                select(DeviceShare).where(
                    DeviceShare.device_id == device.id, DeviceShare.recipient_account_id == recipient.id
                )
            )
        row = existing or DeviceShare(
            platform_id=data_platform_id(),
            device_id=device.id,
            owner_account_id=me.id,
            recipient_account_id=recipient and recipient.id,
            recipient_phone=None if recipient else args.get("phone"),
            recipient_email=None if recipient else args.get("email"),
        )
        row.sharer_name, row.template_id, row.expires_at = args["sharerName"], template.id, expires_at
        db.session.add(row)
        shares.append(row)
    if recipient is None:
        names = ", ".join(d.name or d.guid for d in devices)
        body = gettext(
            "%(sharer)s shares the devices %(names)s with you. Register with this %(contact)s to see them.",
            sharer=me.real_name or me.user_name,
            names=names,
            contact=gettext("phone number") if args.get("phone") else gettext("email address"),
        )
        add_message(
            current_platform().id,
            Channel.SMS if args.get("phone") else Channel.EMAIL,
            args.get("phone") or args["email"],
            body,
            subject=gettext("Devices shared with you"),
        )
    db.session.commit()
    return shares


def claim_pending_shares(account: Account) -> None:
    """Registration hook: shares sent to this account's phone or email before it existed."""
    contact = (
        DeviceShare.recipient_phone == account.phone if account.phone else DeviceShare.recipient_email == account.email
    )
    for row in db.session.scalars(
        select(DeviceShare).where(
            DeviceShare.platform_id == account.platform_id, DeviceShare.recipient_account_id.is_(None), contact
        )
    ):
        row.recipient_account_id = account.id
        row.recipient_phone = row.recipient_email = None


def _share_rows(stmt, args: dict) -> dict:
    stmt = (
        stmt.join(Device, Device.id == DeviceShare.device_id)
        .join(PermissionTemplate, PermissionTemplate.id == DeviceShare.template_id)
        .outerjoin(Account, Account.id == DeviceShare.recipient_account_id)
    )
    if args.get("keyword"):
        keyword = args["keyword"]
        stmt = stmt.where(
            or_(
                DeviceShare.sharer_name.icontains(keyword, autoescape=True),
                Device.name.icontains(keyword, autoescape=True),
                Account.user_name.icontains(keyword, autoescape=True),
            )
        )
    found = paginate(stmt, args, DeviceShare.id.desc(), rows=True)
    now = utcnow()
    return {
        "list": [
            {"share": s, "device": d, "template": t, "recipient": a, "expired": s.expires_at <= now}
            for s, d, t, a in found["list"]
        ],
        "total": found["total"],
    }


def shares_given(args: dict) -> dict:
    """Sharer management: the shares the account made."""
    stmt = select(DeviceShare, Device, PermissionTemplate, Account).where(
        DeviceShare.owner_account_id == require_account().id, DeviceShare.platform_id == data_platform_id()
    )
    if args.get("deviceId"):
        stmt = stmt.where(DeviceShare.device_id == args["deviceId"])
    return _share_rows(stmt, args)


def shares_received(args: dict) -> dict:
    stmt = select(DeviceShare, Device, PermissionTemplate, Account).where(
        DeviceShare.recipient_account_id == require_account().id, DeviceShare.platform_id == data_platform_id()
    )
    return _share_rows(stmt, args)


def _given(share_id: int) -> DeviceShare:
    row = db.session.scalar(owned(select(DeviceShare), DeviceShare).where(DeviceShare.id == share_id))
    if row is None:
        raise not_found()
    return row


def update_share(args: dict) -> DeviceShare:
    row = _given(args["id"])
    template = db.session.scalar(_templates().where(PermissionTemplate.id == args["templateId"]))
    if template is None:
        raise ApiError(gettext("The permission template does not exist."), code=5003)
    row.sharer_name, row.template_id, row.expires_at = args["sharerName"], template.id, expiry_of(args)
    db.session.commit()
    return row


def revoke(share_id: int) -> None:
    db.session.delete(_given(share_id))
    db.session.commit()


def leave(share_id: int) -> None:
    """The recipient gives a shared device back."""
    row = db.session.scalar(
        scoped(select(DeviceShare), DeviceShare).where(
            DeviceShare.id == share_id, DeviceShare.recipient_account_id == require_account().id
        )
    )
    if row is None:
        raise not_found()
    db.session.delete(row)
    db.session.commit()
