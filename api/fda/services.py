"""FDA 21 CFR Part 11: the rules.

- FDA mode per account; turning it on or off is signed (user name and password again) with a reason,
  and lands on the audit trail with that reason.
- Endorsements are the meanings a signer chooses (11.50(a)(3)), managed by the account.
- A data file is a device's (storage's, waybill's) readings over a window. Its creator assigns it to
  a checker (the account itself or a member of its organisations); the checker signs it by entering
  user name AND password again (11.200(a)(1)). A wrong password is refused, counted toward the
  sign-in lockout (api/identity/throttle: 5 wrong passwords lock for 15 minutes) and audited.
- The signature records printed name, date and time with its zone and meaning (11.50) and is bound to
  the record by the hash of the window's readings (11.70): the window cannot change once signed, and
  a reading that arrives later inside it is kept but shows on the signed record.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from flask import g
from flask_babel import gettext
from sqlalchemy import and_, func, or_, select

from api.account.services import authenticate
from api.audit.recorder import record_event
from api.device.models import Device
from api.extensions.db import db, paginate, utcnow
from api.extensions.field_rules import field_rules
from api.extensions.i18n import caller_zone
from api.extensions.smorest import ApiError, field_error
from api.fda import signing_lock
from api.fda.models import (
    IDLE_MINUTES_DEFAULT,
    DataFile,
    FdaSetting,
    Signature,
    SignedChannel,
    SignState,
    StepAssignment,
    SubjectType,
)
from api.fda.sequence import sequence_of
from api.fda.signature_hash import signature_valid
from api.fda.signers import signing_refusal
from api.identity.auth import require_account
from api.identity.models import Account, AccountType
from api.organization.models import Organization, OrganizationMember
from api.storage.models import ColdStorage, StorageProbe
from api.telemetry.readings import reading_source
from api.tenancy import data_platform_id
from api.waybill.models import Waybill

NOT_ENABLED, SIGNED_ALREADY, NOT_YOURS = 4601, 4602, 4603


def not_found() -> ApiError:
    return ApiError(gettext("The requested resource does not exist."), code=404, http_status=404)


# ---- FDA mode -----------------------------------------------------------------------------------------


def setting_of(account_id: int) -> FdaSetting | None:
    return db.session.get(FdaSetting, account_id)


def is_enabled(account_id: int) -> bool:
    setting = setting_of(account_id)
    return bool(setting and setting.enabled)


def require_enabled(account_id: int) -> None:
    if not is_enabled(account_id):
        raise ApiError(gettext("FDA mode is not enabled for this account."), code=NOT_ENABLED)


def config() -> dict:
    me = require_account()
    setting = setting_of(me.id)
    changer = db.session.get(Account, setting.changed_by) if setting and setting.changed_by else None
    return {
        "enabled": bool(setting and setting.enabled),
        "changedAt": setting.changed_at if setting else None,
        "changedBy": (changer.real_name or changer.user_name) if changer else None,
        "userName": me.user_name,
        "printedName": me.real_name or me.user_name,
        "idleMinutes": setting.idle_minutes if setting else IDLE_MINUTES_DEFAULT,
        "passwordLifetimeDays": field_rules()["password"]["lifetimeDays"],
    }


def set_idle_minutes(minutes: int) -> dict:
    me = require_account()
    setting = setting_of(me.id) or FdaSetting(account_id=me.id, platform_id=data_platform_id(), enabled=False)
    setting.idle_minutes = minutes
    db.session.add(setting)
    db.session.commit()
    return config()


def confirm_signer(user_name: str, password: str, what: str, target: str | None = None) -> Account:
    """The two components again (11.200(a)(1)): the signed-in account's own user name and password.
    A refusal (wrong password, someone else's name, a lock, a password the signer did not set or, under
    FDA mode, one past its lifetime) is written to the audit trail, then raised. Wrong attempts count
    toward the signing lock (api/fda/signing_lock.py), which signs the account out and tells its owners'
    FDA contacts."""
    me = require_account()
    until = signing_lock.locked_until(me)
    refusal = signing_lock.locked_error(me, until) if until is not None else signing_refusal(me)
    if refusal is not None:
        _refused(me, what, target, refusal.msg)
        db.session.commit()
        raise refusal
    try:
        signer = authenticate(user_name, password)
    except ApiError as error:
        db.session.rollback()
        _refused(me, what, target, error.msg)
        raise signing_lock.failed(me) or error from None
    if signer.id != me.id:
        db.session.rollback()
        message = gettext("Sign with your own user name and password.")
        _refused(me, what, target, message)
        raise signing_lock.failed(me) or field_error("checkUserName", message)
    signing_lock.succeeded(me)
    return me


def _refused(me: Account, what: str, target: str | None, reason: str) -> None:
    record_event(me, f"Electronic signature refused: {what}", target=target, details={"reason": reason})


def set_enabled(args: dict) -> dict:
    me = require_account()
    if me.account_type != AccountType.ENTERPRISE:
        raise ApiError(gettext("FDA mode is for enterprise accounts."), code=NOT_ENABLED)
    what = "FDA mode on" if args["enabled"] else "FDA mode off"
    confirm_signer(args["checkUserName"], args["checkPassword"], what, f"fda_setting#{me.id}")
    g.audit_reason = args["reason"]
    setting = setting_of(me.id) or FdaSetting(account_id=me.id, platform_id=data_platform_id())
    setting.enabled = args["enabled"]
    setting.changed_at = utcnow()
    setting.changed_by = me.id
    db.session.add(setting)
    db.session.commit()
    return config()


# ---- data files --------------------------------------------------------------------------------------


def channels(file: DataFile) -> list[tuple[int, int | None]]:
    """(device id, sensor or None for all) of the file's subject: as fixed when it was signed, else as
    its owner holds it now."""
    if file.id is not None and file.sign_state != SignState.UNSIGNED:
        fixed = db.session.execute(
            select(SignedChannel.device_id, SignedChannel.sensor)
            .where(SignedChannel.file_id == file.id)
            .order_by(SignedChannel.id)
        ).all()
        if fixed:
            return [(row.device_id, row.sensor) for row in fixed]
    return live_channels(file)


def live_channels(file: DataFile) -> list[tuple[int, int | None]]:
    """(device id, sensor or None for all) of the file's subject, as its owner holds it now."""
    owner, platform = file.owner_account_id, file.platform_id
    if file.subject_type == SubjectType.DEVICE:
        device = db.session.scalar(
            select(Device).where(
                Device.id == file.subject_id,
                Device.owner_account_id == owner,
                Device.platform_id == platform,
                Device.deleted.is_(False),
            )
        )
        return [(device.id, None)] if device else []
    if file.subject_type == SubjectType.STORAGE:
        storage = db.session.scalar(
            select(ColdStorage).where(
                ColdStorage.id == file.subject_id,
                ColdStorage.owner_account_id == owner,
                ColdStorage.platform_id == platform,
            )
        )
        if storage is None:
            return []
        probes = db.session.scalars(select(StorageProbe).where(StorageProbe.storage_id == storage.id))
        return sorted({(p.device_id, p.sensor) for p in probes})
    waybill = db.session.scalar(
        select(Waybill).where(
            Waybill.id == file.subject_id, Waybill.owner_account_id == owner, Waybill.platform_id == platform
        )
    )
    return [(waybill.device_id, None)] if waybill else []


def _readings(file: DataFile):
    """The window's readings (raw and packed) as (statement, source), or None without channels."""
    r = reading_source(file.collect_begin, file.collect_end)
    conditions = [
        and_(r.c.device_id == device_id, r.c.sensor == sensor) if sensor is not None else r.c.device_id == device_id
        for device_id, sensor in channels(file)
    ]
    if not conditions:
        return None
    stmt = select(r.c.device_id, r.c.sensor, r.c.ts, r.c.value).where(
        or_(*conditions), r.c.ts >= file.collect_begin, r.c.ts < file.collect_end
    )
    return stmt, r


def record_hash(file: DataFile) -> tuple[str, int]:
    """SHA-256 of the window's readings (device, sensor, UTC time in ms, value), and their count."""
    digest, count = hashlib.sha256(), 0
    digest.update(f"{file.subject_type}:{file.subject_id}:{_ms(file.collect_begin)}:{_ms(file.collect_end)}\n".encode())
    found = _readings(file)
    if found is not None:
        stmt, r = found
        ordered = stmt.order_by(r.c.device_id, r.c.sensor, r.c.ts).execution_options(yield_per=5000)
        for reading in db.session.execute(ordered):
            digest.update(f"{reading.device_id}|{reading.sensor}|{_ms(reading.ts)}|{reading.value!r}\n".encode())
            count += 1
    return digest.hexdigest(), count


def late_readings(file: DataFile, since: datetime) -> int:
    """Readings inside the window received after `since` (the signature)."""
    found = _readings(file)
    if found is None:
        return 0
    stmt, r = found
    return db.session.scalar(select(func.count()).select_from(stmt.where(r.c.received_at > since).subquery())) or 0


def local_text(moment: datetime, zone: str) -> str:
    """A signature's date and time as manifested (11.50(a)(2)): local time, zone name and offset."""
    local = moment.astimezone(ZoneInfo(zone))
    offset = f"{local:%z}"
    return f"{local:%Y-%m-%d %H:%M:%S} {zone} (UTC{offset[:3]}:{offset[3:]})"


def _ms(moment: datetime) -> int:
    return int(moment.astimezone(UTC).timestamp() * 1000)


def _visible_files():
    """The files the caller created, is assigned a step of, or signed a step of."""
    me = require_account().id
    assigned = select(StepAssignment.file_id).where(StepAssignment.account_id == me)
    signed = select(Signature.file_id).where(Signature.signer_account_id == me)
    return select(DataFile).where(
        DataFile.platform_id == data_platform_id(),
        or_(
            DataFile.owner_account_id == me,
            DataFile.checker_account_id == me,
            DataFile.id.in_(assigned),
            DataFile.id.in_(signed),
        ),
    )


def file_page(args: dict) -> dict:
    stmt = _visible_files()
    if args.get("fileName"):
        stmt = stmt.where(DataFile.file_name.icontains(args["fileName"], autoescape=True))
    if args.get("signState"):
        stmt = stmt.where(DataFile.sign_state == SignState(args["signState"]))
    return paginate(stmt, args, DataFile.id.desc())


def visible_file(file_id: int) -> DataFile:
    file = db.session.scalar(_visible_files().where(DataFile.id == file_id))
    if file is None:
        raise not_found()
    return file


def owned_file(file_id: int) -> DataFile:
    file = visible_file(file_id)
    if file.owner_account_id != require_account().id:
        raise ApiError(gettext("Only the creator of the file may do this."), code=NOT_YOURS, http_status=403)
    return file


def _check_window(args: dict) -> None:
    if args["collectEnd"] <= args["collectBegin"]:
        raise field_error("collectEnd", gettext("End time must be after start time."))
    if args["collectBegin"] > utcnow():
        raise field_error("collectBegin", gettext("The window must start in the past."))


def create_file(args: dict) -> DataFile:
    me = require_account()
    require_enabled(me.id)
    _check_window(args)
    file = DataFile(
        platform_id=data_platform_id(),
        owner_account_id=me.id,
        file_name=args["fileName"].strip(),
        subject_type=SubjectType(args["subjectType"]),
        subject_id=args["subjectId"],
        collect_begin=args["collectBegin"],
        collect_end=args["collectEnd"],
        time_zone=caller_zone().key,
        verify_code=secrets.token_urlsafe(12),
        workflow=sequence_of(me.id),
    )
    if not channels(file):
        raise field_error("subjectId", gettext("The device cannot be found, please confirm and re-enter"))
    db.session.add(file)
    db.session.commit()
    return file


def update_file(args: dict) -> DataFile:
    file = owned_file(args["id"])
    if file.sign_state != SignState.UNSIGNED:  # in review too: the window a step signed stays
        raise ApiError(gettext("A signed file cannot be changed."), code=SIGNED_ALREADY)
    _check_window(args)
    file.file_name = args["fileName"].strip()
    file.collect_begin, file.collect_end = args["collectBegin"], args["collectEnd"]
    db.session.commit()
    return file


def delete_file(file_id: int) -> None:
    file = owned_file(file_id)
    if file.sign_state != SignState.UNSIGNED:
        raise ApiError(gettext("A signed file cannot be deleted."), code=SIGNED_ALREADY)
    db.session.delete(file)
    db.session.commit()


def checker_candidates(owner_account_id: int | None = None) -> list[Account]:
    """Who may check an account's files (the caller's by default): itself and the members of the
    organisations it created."""
    owner = owner_account_id if owner_account_id is not None else require_account().id
    members = (
        select(OrganizationMember.account_id)
        .join(Organization, Organization.id == OrganizationMember.organization_id)
        .where(Organization.owner_account_id == owner)
    )
    return list(
        db.session.scalars(
            select(Account)
            .where(
                Account.platform_id == data_platform_id(),
                Account.cancelled.is_(False),
                or_(Account.id == owner, Account.id.in_(members)),
            )
            .order_by(Account.id)
        )
    )


def signature_of(file: DataFile) -> Signature | None:
    """The file's final signature (its last signed step): the one a signed record is sealed with."""
    return db.session.scalar(
        select(Signature).where(Signature.file_id == file.id).order_by(Signature.step.desc()).limit(1)
    )


def integrity(file: DataFile, signature: Signature | None) -> dict | None:
    """Whether the signed record is what was signed: the readings' hash now, and how many readings
    arrived after the signature inside the window (kept, and shown)."""
    if signature is None:
        return None
    current, count = record_hash(file)
    return {
        "intact": current == signature.record_hash,
        "signatureValid": signature_valid(signature),
        "currentHash": current,
        "currentReadings": count,
        "lateReadings": late_readings(file, signature.signed_at),
    }


def present(file: DataFile, with_integrity: bool = False) -> dict:
    signature = signature_of(file) if file.sign_state == SignState.SIGNED else None
    creator = db.session.get(Account, file.owner_account_id)
    checker = db.session.get(Account, file.checker_account_id) if file.checker_account_id else None
    return {
        "file": file,
        "creator": (creator.real_name or creator.user_name) if creator else "",
        "checker": (checker.real_name or checker.user_name) if checker else None,
        "signature": signature,
        "integrity": integrity(file, signature) if with_integrity else None,
        "mine": file.owner_account_id == require_account().id,
        "canSign": file.checker_account_id == require_account().id and file.sign_state != SignState.SIGNED,
    }


def public_verification(code: str) -> dict:
    """What the verification link of a signed PDF shows anyone holding it: file, window, signer,
    time, meaning, and whether the record still matches its signed hash. Nothing else."""
    file = db.session.scalar(
        select(DataFile).where(
            DataFile.verify_code == code,
            DataFile.platform_id == data_platform_id(),
            DataFile.sign_state == SignState.SIGNED,
        )
    )
    if file is None:
        raise not_found()
    signature = signature_of(file)
    signatures = db.session.scalars(select(Signature).where(Signature.file_id == file.id).order_by(Signature.step))
    return {
        "file": file,
        "signature": signature,
        "signatures": list(signatures),
        "integrity": integrity(file, signature),
    }
