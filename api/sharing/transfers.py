"""Device transfers (business-domain section 6): the owner offers a device to another account of the
data space, which accepts (the device becomes theirs) or refuses; the owner may cancel while it waits.
The recipient hears of an offer in the message centre (the bell) and by email when it has one (issue 47:
nothing told them)."""

from __future__ import annotations

from flask_babel import force_locale, gettext
from sqlalchemy import or_, select
from sqlalchemy.exc import IntegrityError

from api.alarm.models import Message, MessageType
from api.asset.models import AssetDevice
from api.device.models import Device
from api.extensions.db import db, paginate, utcnow
from api.extensions.smorest import ApiError
from api.identity.auth import require_account
from api.identity.models import Account
from api.notify.models import Channel
from api.notify.services import add_message
from api.organization.models import OrganizationDevice
from api.project.models import ProjectDevice
from api.sharing.models import DeviceShare, DeviceTransfer, TransferStatus
from api.sharing.services import not_found, owned_devices, recipient_of
from api.tenancy import current_platform, data_platform_id, scoped

# The message centre's code of an offer (rendered in the reader's language, api/alarm/services).
OFFERED = "transfer.offered"


def offer_transfer(args: dict) -> DeviceTransfer:
    [device] = owned_devices([args["deviceId"]])
    recipient = recipient_of(args)
    if recipient is None:
        raise ApiError(gettext("The user does not exist."), code=5002)
    me = require_account()
    if recipient.id == me.id:
        raise ApiError(gettext("A device cannot be transferred to yourself."), code=5005)
    pending = db.session.scalar(
        select(DeviceTransfer).where(
            DeviceTransfer.device_id == device.id, DeviceTransfer.status == TransferStatus.PENDING
        )
    )
    if pending is not None:
        raise ApiError(gettext("This device is already waiting for a transfer to be accepted."), code=5006)
    transfer = DeviceTransfer(
        platform_id=data_platform_id(), device_id=device.id, from_account_id=me.id, to_account_id=recipient.id
    )
    try:  # one pending offer per device: uq_device_transfer_pending holds it when two offers race
        db.session.add(transfer)
        db.session.flush()
        _tell_recipient(transfer, device, me, recipient)
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise ApiError(gettext("This device is already waiting for a transfer to be accepted."), code=5006) from None
    return transfer


def _tell_recipient(transfer: DeviceTransfer, device: Device, sender: Account, recipient: Account) -> None:
    """In the offer's transaction: a message-centre entry (the bell) and, with an email address, a mail
    (through the outbox, after the commit; once per offer)."""
    sender_name = sender.real_name or sender.user_name
    db.session.add(
        Message(
            platform_id=transfer.platform_id,
            owner_account_id=recipient.id,
            type=MessageType.SYSTEM,
            device_id=device.id,
            code=OFFERED,
            params={"transferId": transfer.id, "sender": sender_name},
            created_at=utcnow(),
        )
    )
    if recipient.email:
        with force_locale(current_platform().default_locale.replace("-", "_")):
            subject = gettext("A device is offered to you")
            text = transfer_text(sender_name, device.name or device.guid)
        add_message(
            current_platform().id,
            Channel.EMAIL,
            recipient.email,
            text,
            subject=subject,
            dedupe_key=f"transfer-offer-{transfer.id}",
        )


def transfer_text(sender: str, device: str) -> str:
    return gettext(
        "%(sender)s offers to transfer the device %(device)s to you. Accept or refuse it under User Center > "
        "Sharer management > Transfers.",
        sender=sender,
        device=device,
    )


def transfer_page(args: dict) -> dict:
    me = require_account().id
    stmt = scoped(select(DeviceTransfer), DeviceTransfer).where(
        or_(DeviceTransfer.from_account_id == me, DeviceTransfer.to_account_id == me)
    )
    if args.get("status"):
        stmt = stmt.where(DeviceTransfer.status == TransferStatus(args["status"]))
    found = paginate(stmt, args, DeviceTransfer.id.desc())
    ids = {t.from_account_id for t in found["list"]} | {t.to_account_id for t in found["list"]}
    names = dict(db.session.execute(select(Account.id, Account.user_name).where(Account.id.in_(ids))).all())
    devices = {
        d.id: d for d in db.session.scalars(select(Device).where(Device.id.in_({t.device_id for t in found["list"]})))
    }
    return {
        "list": [
            {
                "transfer": t,
                "device": devices[t.device_id],
                "fromName": names.get(t.from_account_id),
                "toName": names.get(t.to_account_id),
                "incoming": t.to_account_id == me,
            }
            for t in found["list"]
        ],
        "total": found["total"],
    }


def _pending(transfer_id: int, *, incoming: bool) -> DeviceTransfer:
    me = require_account().id
    column = DeviceTransfer.to_account_id if incoming else DeviceTransfer.from_account_id
    transfer = db.session.scalar(
        scoped(select(DeviceTransfer), DeviceTransfer)
        .where(DeviceTransfer.id == transfer_id, column == me)
        .with_for_update()
        .execution_options(populate_existing=True)  # as the lock found it
    )
    if transfer is None:
        raise not_found()
    if transfer.status != TransferStatus.PENDING:
        raise ApiError(gettext("This transfer has already been decided."), code=5007)
    return transfer


def decide_transfer(transfer_id: int, accept: bool) -> DeviceTransfer:
    """The recipient consents (the device becomes theirs, leaving the old owner's organisations,
    projects, assets and shares) or refuses."""
    transfer = _pending(transfer_id, incoming=True)
    transfer.decided_at = utcnow()
    if not accept:
        transfer.status = TransferStatus.REJECTED
        db.session.commit()
        return transfer
    device = db.session.scalar(
        select(Device)
        .where(Device.id == transfer.device_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    if device is None or device.owner_account_id != transfer.from_account_id or device.deleted:
        transfer.status = TransferStatus.CANCELLED
        db.session.commit()
        raise ApiError(gettext("The device is no longer available for transfer."), code=5008)
    device.owner_account_id = transfer.to_account_id
    device.focus = False
    for model in (OrganizationDevice, ProjectDevice, AssetDevice, DeviceShare):
        db.session.execute(model.__table__.delete().where(model.__table__.c.device_id == device.id))
    transfer.status = TransferStatus.ACCEPTED
    db.session.commit()
    return transfer


def cancel_transfer(transfer_id: int) -> DeviceTransfer:
    transfer = _pending(transfer_id, incoming=False)
    transfer.status = TransferStatus.CANCELLED
    transfer.decided_at = utcnow()
    db.session.commit()
    return transfer
