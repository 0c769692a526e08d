"""System users of the operator's area: every account for the operator, the accounts of their own
independent platform for a reseller admin (a reseller of a shared platform reaches none: its users
are the operator's). Deleting is the spec's deletedFlag: the account is cancelled and signed out,
its rows stay for the records."""

from __future__ import annotations

from flask_babel import gettext
from sqlalchemy import func, or_, select

from api.access.keys import GRANTS
from api.account.services import hash_password
from api.extensions.db import db, escape_like, paginate
from api.extensions.smorest import ApiError, field_error
from api.identity import sessions, throttle
from api.identity.models import Account, AccountType, PasswordOrigin, StaffRole
from api.identity.staff import StaffScope, access_denied
from api.identity.user_names import used_user_name_message, user_name_holder
from api.operation import resets
from api.platform.models import Platform
from api.tenancy import operator_platform


def not_found() -> ApiError:
    return ApiError(gettext("The requested resource does not exist."), code=404, http_status=404)


def _reachable(scope: StaffScope):
    return scope.restrict(select(Account), Account.platform_id)


def page(scope: StaffScope, args: dict) -> dict:
    stmt = _reachable(scope).where(Account.cancelled.is_(bool(args.get("deletedFlag"))))
    if args.get("keyword"):
        pattern = f"%{escape_like(args['keyword'].lower())}%"
        stmt = stmt.where(
            or_(
                *(
                    func.lower(column).like(pattern, escape="/")
                    for column in (Account.user_name, Account.real_name, Account.phone, Account.email)
                )
            )
        )
    if args.get("accountType"):
        stmt = stmt.where(Account.account_type == args["accountType"])
    if args.get("staffRole"):
        stmt = stmt.where(Account.staff_role == args["staffRole"])
    if args.get("platformId"):
        stmt = stmt.where(Account.platform_id == args["platformId"])
    page = paginate(stmt, args, Account.created_at.desc(), Account.id.desc())
    locks = throttle.locks_of(page["list"])
    for account in page["list"]:
        account.sign_in_locked_until = locks.get(account.id)
    return page


def get(scope: StaffScope, account_id: int) -> Account:
    account = db.session.get(Account, account_id)
    if account is None or not scope.reaches(account.platform_id):
        raise not_found()
    return account


def _check_staff_role(scope: StaffScope, role: StaffRole | None) -> None:
    if role is not None and not scope.is_operator:
        raise field_error("staffRole", gettext("Only the platform operator can change this field."))


def _check_unique(platform_id: int, account_id: int | None, **values) -> None:
    if values.get("userName"):
        holder = user_name_holder(platform_id, values["userName"])
        if holder is not None and holder.id != account_id:
            raise field_error("userName", used_user_name_message(holder))
    for field, column in (("phone", Account.phone), ("email", Account.email)):
        value = values.get(field)
        if not value:
            continue
        stmt = select(Account.id).where(Account.platform_id == platform_id, column == value)
        if account_id is not None:
            stmt = stmt.where(Account.id != account_id)
        if db.session.scalar(stmt) is not None:
            raise field_error(field, gettext("The user already exists"))


def add(scope: StaffScope, args: dict) -> Account:
    _check_staff_role(scope, args.get("staffRole"))
    if scope.is_operator:
        platform_id = args.get("platformId") or operator_platform().id
        if db.session.get(Platform, platform_id) is None:
            raise field_error("platformId", gettext("The requested resource does not exist."))
    else:
        if args.get("platformId") not in (None, scope.platform.id):
            raise access_denied()
        if not scope.platform.independent:
            raise access_denied()
        platform_id = scope.platform.id
    _check_unique(platform_id, None, userName=args["userName"], phone=args.get("phone"), email=args.get("email"))
    account = Account(
        platform_id=platform_id,
        user_name=args["userName"],
        real_name=args.get("realName"),
        phone=args.get("phone"),
        email=args.get("email"),
        company_name=args.get("companyName"),
        account_type=args["accountType"],
        staff_role=args.get("staffRole"),
        password_hash=hash_password(args["password"]),
        # Staff chose it: the account signs in with it but signs no record until the user changed it.
        password_origin=PasswordOrigin.STAFF,
    )
    db.session.add(account)
    db.session.commit()
    return account


FIELDS = {
    "realName": "real_name",
    "phone": "phone",
    "email": "email",
    "companyName": "company_name",
    "staffRole": "staff_role",
}


def modify(scope: StaffScope, args: dict) -> Account:
    account = get(scope, args["id"])
    if "staffRole" in args and args["staffRole"] != account.staff_role:
        if not scope.is_operator:  # reseller admins never grant or take staff roles
            raise field_error("staffRole", gettext("Only the platform operator can change this field."))
        if account.id == scope.account.id and args["staffRole"] != account.staff_role:
            raise field_error("staffRole", gettext("You cannot change your own staff role."))
    _check_unique(account.platform_id, account.id, phone=args.get("phone"), email=args.get("email"))
    previous = {field: getattr(account, field) for field in resets.CONTACTS if field in args}
    previous = {field: value for field, value in previous.items() if value != args[field]}
    resets.check_contact_change(account, previous)
    for field, column in FIELDS.items():
        if field in args:
            setattr(account, column, args[field])
    resets.contact_changed(scope.account, account, previous)
    db.session.commit()
    return account


def delete(scope: StaffScope, account_id: int) -> None:
    account = get(scope, account_id)
    if account.id == scope.account.id:
        raise ApiError(gettext("You cannot delete your own account here."), code=409, http_status=409)
    if account.staff_role == StaffRole.OPERATOR and not scope.is_operator:
        raise access_denied()
    account.cancelled = True
    sessions.revoke_all(account)
    db.session.commit()


def reset_password(scope: StaffScope, args: dict) -> dict:
    """Staff never choose nor learn the new password (21 CFR 11.200(a)(3)): see api/operation/resets.py."""
    return resets.reset_password(scope.account, get(scope, args["id"]))


def upgrade(scope: StaffScope, args: dict) -> Account:
    account = get(scope, args["id"])
    if account.account_type == AccountType.ENTERPRISE:
        raise field_error("id", gettext("This account is already an enterprise account."))
    account.account_type = AccountType.ENTERPRISE
    account.company_name = args["companyName"]
    db.session.commit()
    return account


def staff_roles(scope: StaffScope) -> list[dict]:
    """The staff roles and the operator-area keys each holds (section 6), with how many users hold it."""
    counts = dict(
        db.session.execute(
            _reachable(scope)
            .with_only_columns(Account.staff_role, func.count(Account.id))
            .where(Account.staff_role.is_not(None), Account.cancelled.is_(False))
            .group_by(Account.staff_role)
        ).all()
    )
    roles = [StaffRole.OPERATOR, StaffRole.PLATFORM_ADMIN] if scope.is_operator else [StaffRole.PLATFORM_ADMIN]
    return [
        {"staffRole": role.value, "permissions": list(GRANTS[role]), "users": counts.get(role, 0)} for role in roles
    ]
