"""On-call schedules of an account (the organisation creator's, as projects and assets are): add,
change, delete, list with the person on call now, and who is on call at an instant.

Rules: the zone is an IANA name; rota entries have distinct hand-overs (weekday and time); a person is
a user of the account (the creator or a member of one of its organisations, with a phone or an email)
or a named contact with a phone or an email; an override ends after it starts; a schedule's scope is
the whole site, one of the account's organisations or one of its storages. Refusals are 422s naming
the field."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import available_timezones

from flask_babel import gettext
from sqlalchemy import delete as sql_delete
from sqlalchemy import or_, select

from api.alarm.models import AlarmRecipient
from api.alarm.recipients import ON_CALL
from api.extensions.db import db, paginate, utcnow
from api.extensions.smorest import ApiError, field_error
from api.identity.models import Account
from api.oncall.models import OnCallSchedule, Scope
from api.oncall.rota import on_call_at, parse_bound
from api.organization.manager import manager_id
from api.organization.models import Organization, OrganizationMember
from api.storage.models import ColdStorage
from api.tenancy import data_platform_id, scoped

ZONES = frozenset(available_timezones())


def not_found() -> ApiError:
    return ApiError(gettext("The requested resource does not exist."), code=404, http_status=404)


def _schedules():
    return scoped(select(OnCallSchedule), OnCallSchedule).where(OnCallSchedule.owner_account_id == manager_id())


def schedule(schedule_id: int) -> OnCallSchedule:
    found = db.session.scalar(_schedules().where(OnCallSchedule.id == schedule_id))
    if found is None:
        raise not_found()
    return found


# ---- persons -----------------------------------------------------------------------------------------


def member_ids(owner_id: int) -> set[int]:
    """The users of an account: itself and the members of its organisations."""
    members = db.session.scalars(
        select(OrganizationMember.account_id)
        .join(Organization, Organization.id == OrganizationMember.organization_id)
        .where(Organization.owner_account_id == owner_id)
    )
    return {owner_id, *members}


def reach(person: dict, accounts: dict[int, Account] | None = None) -> dict[str, Any]:
    """A stored person as the page and the sends see it: name, phone, email, lang (and accountId)."""
    account_id = person.get("accountId")
    if account_id is None:
        return {key: person.get(key) for key in ("name", "phone", "email", "lang")} | {"accountId": None}
    account = (accounts or {}).get(account_id) or db.session.get(Account, account_id)
    if account is None:
        return {"accountId": account_id, "name": None, "phone": None, "email": None, "lang": "zh-CN"}
    return {
        "accountId": account.id,
        "name": account.real_name or account.user_name,
        "phone": account.phone,
        "email": account.email,
        "lang": "zh-CN",
    }


def _stored_person(person: dict, field: str, members: set[int]) -> dict:
    account_id = person.get("accountId")
    if account_id is None:
        return {
            "name": person["name"],
            "phone": person.get("phone"),
            "email": person.get("email"),
            "lang": person["lang"],
        }
    account = db.session.get(Account, account_id) if account_id in members else None
    if account is None or account.platform_id != data_platform_id():
        raise field_error(f"{field}.accountId", gettext("Not a user of this account."))
    if not account.phone and not account.email:
        raise field_error(f"{field}.accountId", gettext("This user has no phone or email."))
    return {"accountId": account_id}


# ---- validation and writes -----------------------------------------------------------------------------


def _rota(rows: list[dict], members: set[int]) -> list[dict]:
    seen: set[tuple[int, str]] = set()
    out = []
    for index, row in enumerate(rows):
        key = (row["weekday"], row["time"])
        if key in seen:
            raise field_error(f"rota.{index}.time", gettext("Another hand-over is at the same weekday and time."))
        seen.add(key)
        out.append(
            {
                "weekday": row["weekday"],
                "time": row["time"],
                "person": _stored_person(row["person"], f"rota.{index}.person", members),
            }
        )
    return sorted(out, key=lambda entry: (entry["weekday"], entry["time"]))


def _overrides(rows: list[dict], members: set[int]) -> list[dict]:
    out = []
    for index, row in enumerate(rows):
        if parse_bound(row["end"], end=True) <= parse_bound(row["start"], end=False):
            raise field_error(f"overrides.{index}.end", gettext("The end must be after the start."))
        person = _stored_person(row["person"], f"overrides.{index}.person", members)
        out.append({"start": row["start"], "end": row["end"], "person": person})
    return out


def _scope(found: OnCallSchedule, args: dict) -> None:
    """The scope's organisation or storage: required for that scope, and one of the account's (another's
    is answered as missing, 404, as the gate answers objects out of reach)."""
    found.scope = Scope(args["scope"])
    found.organization_id = found.storage_id = None
    if found.scope == Scope.SITE:
        return
    model, field = (Organization, "organizationId") if found.scope == Scope.ORGANIZATION else (ColdStorage, "storageId")
    if args.get(field) is None:
        raise field_error(field, gettext("This field is required."))
    target = db.session.get(model, args[field])
    if target is None or target.owner_account_id != manager_id() or target.platform_id != data_platform_id():
        raise not_found()
    if found.scope == Scope.ORGANIZATION:
        found.organization_id = target.id
    else:
        found.storage_id = target.id


def save(args: dict) -> dict:
    """Add (no id) or change a schedule as one object; nothing is stored unless all of it is valid."""
    if args["timeZone"] not in ZONES:
        raise field_error("timeZone", gettext("Unknown time zone."))
    members = member_ids(manager_id())
    rota = _rota(args["rota"], members)
    overrides = _overrides(args["overrides"], members)
    if "id" in args:
        found = schedule(args["id"])
    else:
        found = OnCallSchedule(platform_id=data_platform_id(), owner_account_id=manager_id())
    _scope(found, args)
    found.name, found.time_zone, found.rota, found.overrides = args["name"], args["timeZone"], rota, overrides
    db.session.add(found)
    db.session.commit()
    return as_dict(found, utcnow())


def delete(schedule_id: int) -> None:
    """Delete a schedule; push-setting levels that named it lose that entry (their other recipients stay)."""
    found = schedule(schedule_id)
    db.session.execute(
        sql_delete(AlarmRecipient).where(AlarmRecipient.kind == ON_CALL, AlarmRecipient.schedule_id == found.id)
    )
    db.session.delete(found)
    db.session.commit()


# ---- reads -----------------------------------------------------------------------------------------------


def who(found: OnCallSchedule, at: datetime, accounts: dict[int, Account] | None = None) -> dict:
    current = on_call_at(found, at)
    return {
        "scheduleId": found.id,
        "at": at,
        "person": None if current is None else reach(current.person, accounts),
        "source": None if current is None else current.source,
        "since": None if current is None else current.since,
    }


def who_at(args: dict) -> dict:
    return who(schedule(args["id"]), args.get("at") or utcnow())


def _accounts(schedules: list[OnCallSchedule]) -> dict[int, Account]:
    ids = {
        entry["person"]["accountId"]
        for found in schedules
        for entry in (*found.rota, *found.overrides)
        if entry["person"].get("accountId") is not None
    }
    return {a.id: a for a in db.session.scalars(select(Account).where(Account.id.in_(ids)))} if ids else {}


def as_dict(found: OnCallSchedule, now: datetime, accounts: dict[int, Account] | None = None) -> dict:
    accounts = accounts if accounts is not None else _accounts([found])

    def shown(entry: dict) -> dict:
        return {**entry, "person": {**entry["person"], **reach(entry["person"], accounts)}}

    return {
        "schedule": found,
        "rota": [shown(entry) for entry in found.rota],
        "overrides": [shown(entry) for entry in found.overrides],
        "onCallNow": who(found, now, accounts),
    }


def detail(schedule_id: int) -> dict:
    return as_dict(schedule(schedule_id), utcnow())


def page(args: dict) -> dict:
    stmt = _schedules()
    if args.get("name"):
        stmt = stmt.where(OnCallSchedule.name.icontains(args["name"], autoescape=True))
    if args.get("scope"):
        stmt = stmt.where(OnCallSchedule.scope == Scope(args["scope"]))
    found = paginate(stmt, args, OnCallSchedule.id.desc())
    accounts = _accounts(found["list"])
    now = utcnow()
    return {"list": [as_dict(row, now, accounts) for row in found["list"]], "total": found["total"]}


def people() -> list[dict]:
    """The users a rota may name (the account and its organisations' members with a phone or email)."""
    ids = member_ids(manager_id())
    rows = db.session.scalars(
        select(Account)
        .where(
            Account.id.in_(ids),
            Account.platform_id == data_platform_id(),
            or_(Account.phone.isnot(None), Account.email.isnot(None)),
        )
        .order_by(Account.id)
    )
    return [reach({"accountId": a.id}, {a.id: a}) for a in rows]
