"""Account rules: sign-in, registration, recovery, binding, sessions, cancellation."""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable
from typing import Any

from flask import current_app
from flask_babel import gettext
from sqlalchemy import select

from api.access.keys import permission_keys
from api.account import social
from api.extensions import outbound, uploads
from api.extensions.db import db, utcnow
from api.extensions.i18n import lock_end_text, zone_named
from api.extensions.offload import Hasher
from api.extensions.ratelimit import client_address
from api.extensions.smorest import ApiError
from api.identity import sessions, throttle
from api.identity.auth import bearer_token, require_account
from api.identity.models import Account, AccountType, PasswordOrigin, StaffRole
from api.identity.staff import staff_scope
from api.identity.user_names import refuse_a_used_user_name
from api.identity.validators import normalize_phone
from api.platform.models import Platform
from api.platform.styles import load_style_models
from api.tenancy import current_platform, data_platform, data_platform_id
from api.verification import services as verification
from api.verification.models import CodeChannel, CodePurpose

password_hasher = Hasher()

# Filled by create_app from the areas' manifests (`account_welcomes`, `account_info`, api/hooks.py):
# what a newly registered account is given (run in the registration's transaction), and the parts of
# accountInfo other areas answer (name -> function of the account id).
WELCOMES: list[Callable[[Account], None]] = []
ACCOUNT_INFO_PARTS: dict[str, Callable[[int], Any]] = {}


def hash_password(password: str) -> str:
    return password_hasher.hash(password)


@functools.cache
def _dummy_hash() -> str:
    """Checked against for names no account has: the same argon2 work as a real check."""
    return password_hasher.hash(secrets.token_urlsafe(16))


def password_matches(account: Account | None, password: str) -> bool:
    return password_hasher.matches(account.password_hash if account else _dummy_hash(), password) and bool(account)


# ---- lookups --------------------------------------------------------------------------------------


def _accounts():
    return select(Account).where(Account.platform_id == data_platform_id(), Account.cancelled.is_(False))


def sign_in_key(identifier: str) -> tuple[str, str]:
    """What a sign-in identifier names, found without the database: ("email" | "phone" | "name", value)."""
    identifier = identifier.strip()
    if "@" in identifier:
        return "email", identifier.lower()
    phone = normalize_phone(identifier) if identifier.lstrip("+").isdigit() else None
    return ("phone", phone) if phone else ("name", identifier)


def find_by_identifier(identifier: str) -> Account | None:
    """The user name, phone number or email address someone signs in with."""
    kind, value = sign_in_key(identifier)
    column = {"email": Account.email, "phone": Account.phone, "name": Account.user_name}[kind]
    return db.session.scalar(_accounts().where(column == value))


def find_by_contact(channel: CodeChannel, target: str) -> Account | None:
    column = Account.phone if channel == CodeChannel.PHONE else Account.email
    return db.session.scalar(_accounts().where(column == target))


# ---- sign-in ----------------------------------------------------------------------------------------


def login_with_password(identifier: str, password: str, captcha_key: str | None, captcha_answer: str | None) -> str:
    verification.check_captcha(captcha_key, captcha_answer)
    return sessions.issue_token(_admit_sign_in(authenticate(identifier, password)), current_platform())


# Every sign-in path admits the account in sessions.issue_token; binding a social identity admits it
# before binding, so a refused account gets no identity either.
register_sign_in_policy = sessions.register_sign_in_policy
_admit_sign_in = sessions.admit


def authenticate(identifier: str, password: str) -> Account:
    """The account these credentials open. Wrong passwords count per account and requester, with a
    slower global backoff (api/identity/throttle.py); a name no account has goes through the same
    steps (its own counts, a dummy hash check), so the answers and the work are the same."""
    account = find_by_identifier(identifier)
    platform_id, subject = data_platform_id(), throttle.subject_of(*sign_in_key(identifier))
    lock = throttle.locked_until(platform_id, subject)
    if lock is not None:
        raise _locked(lock)
    if not password_matches(account, password):
        lock = throttle.failed(platform_id, subject)
        if lock is not None:
            raise _locked(lock)
        raise ApiError(gettext("Incorrect account or password."), code=1001)
    throttle.succeeded(platform_id, subject)
    if password_hasher.needs_rehash(account.password_hash):
        account.password_hash = hash_password(password)
    return account


def _locked(until) -> ApiError:
    # Worded as every lock is (api/extensions/i18n.lock_end_text), in the site's zone: not the caller's
    # header, and not the account's, whose zone would tell a name that has an account from one that has none.
    zone = zone_named(None)
    return ApiError(
        gettext(
            "Too many wrong passwords: password sign-in is locked until %(time)s. "
            "Sign in with an email code or reset the password.",
            time=lock_end_text(until, zone),
        ),
        code=429,
        http_status=429,
    )


def login_with_email_code(email: str, code: str) -> str:
    account = find_by_contact(CodeChannel.EMAIL, email)
    # Checked even for an unknown address, so the answer never tells whether it is registered.
    verification.verify_code(current_platform(), CodeChannel.EMAIL, email, CodePurpose.LOGIN, code)
    if account is None:
        db.session.rollback()
        raise ApiError(gettext("The code is wrong or has expired, please get a new one."), code=1003)
    throttle.succeeded(data_platform_id(), throttle.subject_of("email", email.strip().lower()))
    return sessions.issue_token(account, current_platform())


def send_code(
    channel: CodeChannel, target: str, purpose: CodePurpose, captcha: tuple[str | None, str | None] = (None, None)
) -> None:
    """Registration and binding need an unused address; sign-in and recovery a known one. For the
    latter the answer and the work are the same either way (no account discovery): the message to
    an unknown address is written and queued but never sent."""
    existing = find_by_contact(channel, target)
    if purpose in (CodePurpose.REGISTER, CodePurpose.BIND) and existing is not None:
        raise ApiError(gettext("The user already exists"), code=1004)
    deliver = existing is not None or purpose in (CodePurpose.REGISTER, CodePurpose.BIND)
    verification.send_code(
        current_platform(), channel, target, purpose, client_address(), deliver=deliver, captcha=captcha
    )


# ---- registration and recovery ----------------------------------------------------------------------


def register(data: dict) -> str:
    return sessions.issue_token(create_account(data), current_platform())


def create_account(data: dict) -> Account:
    platform = current_platform()
    if platform.enable_register:  # spec: enableRegister set means registration is closed on this site
        # A business refusal, not HTTP 403: the web's catalogue logs the user out on a 403.
        raise ApiError(gettext("Registration is closed on this site."), code=1008)
    channel, target = (CodeChannel.PHONE, data["phone"]) if data.get("phone") else (CodeChannel.EMAIL, data["email"])
    refuse_a_used_user_name(data["userName"])
    if find_by_contact(channel, target) is not None:
        raise ApiError(gettext("The user already exists"), code=1004)
    verification.verify_code(platform, channel, target, CodePurpose.REGISTER, data["code"])
    account = Account(
        platform_id=data_platform_id(),
        user_name=data["userName"],
        phone=data.get("phone"),
        email=data.get("email"),
        password_hash=hash_password(data["password"]),
        account_type=data["accountType"],
        company_name=data.get("companyName"),
        real_name=data.get("realName"),
    )
    db.session.add(account)
    db.session.flush()

    for welcome in WELCOMES:  # e.g. pending organisation invitations and device shares of its contact
        welcome(account)
    return account


def reset_forgotten_password(data: dict) -> None:
    channel, target = (CodeChannel.PHONE, data["phone"]) if data.get("phone") else (CodeChannel.EMAIL, data["email"])
    verification.verify_code(current_platform(), channel, target, CodePurpose.FORGOT, data["code"])
    account = find_by_contact(channel, target)
    if account is None:
        db.session.rollback()
        raise ApiError(gettext("The code is wrong or has expired, please get a new one."), code=1003)
    _set_password(account, data["password"])
    throttle.clear(account)
    db.session.commit()


def change_password(account: Account, old_password: str, new_password: str) -> None:
    if not password_matches(account, old_password):
        raise ApiError(gettext("The original password is incorrect."), code=1005)
    _set_password(account, new_password)
    db.session.commit()


def _set_password(account: Account, new_password: str) -> None:
    if password_matches(account, new_password):
        raise ApiError(gettext("The new password must differ from the original one."), code=1006)
    account.password_hash = hash_password(new_password)
    account.prev_reset_at = utcnow()
    account.password_origin = PasswordOrigin.OWN
    sessions.revoke_all(account)


PROFILE_FIELDS = {
    "realName": "real_name",
    "companyName": "company_name",
    "timeZone": "time_zone",
    "temperatureUnit": "temperature_unit",
}


def update_profile(account: Account, changes: dict) -> Account:
    for key, value in changes.items():
        setattr(account, PROFILE_FIELDS[key], value)
    db.session.commit()
    return account


def bind_contact(account: Account, channel: CodeChannel, target: str, code: str) -> None:
    if find_by_contact(channel, target) is not None:
        raise ApiError(gettext("The user already exists"), code=1004)
    verification.verify_code(current_platform(), channel, target, CodePurpose.BIND, code)
    if channel == CodeChannel.PHONE:
        account.phone = target
    else:
        account.email = target
    db.session.commit()


# ---- session end ------------------------------------------------------------------------------------


def logout() -> None:
    """Revokes the presented token if it is live; answers the same either way."""

    token = bearer_token()
    session = sessions.find_session(token) if token else None
    if session is not None and session.platform_id == current_platform().id:
        sessions.revoke(session)
        db.session.commit()


def cancel(account: Account) -> None:
    """Account cancellation: the account can no longer sign in; its phone and email are freed, its user
    name never is (refuse_a_used_user_name)."""
    account.cancelled = True
    account.phone = None
    account.email = None
    sessions.revoke_all(account)
    db.session.commit()


def set_photo(account: Account, file) -> dict:
    """Store an uploaded profile photo (an image checked by content, 2 MB) under a generated name."""
    stored = uploads.store_upload(file, "image", data_platform().slug)
    account.account_photo = f"/api/base/BaseAccount/photo/{stored.name}"
    db.session.commit()
    return {"accountPhoto": account.account_photo}


def photo_file(name: str):
    """A stored photo of this site's accounts (by its generated name), or a 404."""
    found = uploads.find_upload(data_platform().slug, name)
    if found is None:
        raise ApiError(gettext("The requested resource does not exist."), code=404, http_status=404)
    return uploads.send_upload(*found)


def unlock(account_id: int) -> None:
    """Staff clear an account's sign-in locks: any account their user list shows (every platform's for
    the operator, independent sites included; a reseller admin's own site's), else 404."""
    account = db.session.get(Account, account_id)
    if account is None or not staff_scope().reaches(account.platform_id):
        raise ApiError(gettext("The requested resource does not exist."), code=404, http_status=404)
    throttle.clear(account)
    db.session.commit()


# ---- account info -----------------------------------------------------------------------------------


def account_info() -> dict:

    account = require_account()
    keys = permission_keys(account)
    if not keys:
        raise ApiError("getInfo: roles must be a non-null array", code=1007)
    style = load_style_models(current_app.config["THEMES_DIR"]).get(current_platform().style_model, {})
    return {
        "baseAccount": account,
        "permissionRoutes": keys,
        **{name: part(account.id) for name, part in ACCOUNT_INFO_PARTS.items()},
        "userProfile": {"homePage": account.home_page or style.get("landing", "/home")},
    }


# ---- demo data and operator tools -------------------------------------------------------------------


def ensure_account(
    platform: Platform,
    user_name: str,
    password: str,
    *,
    account_type: AccountType,
    staff_role: StaffRole | None = None,
    **profile: str,
) -> Account:
    """Create the account, or bring an existing one back to the given password and profile."""
    account = db.session.scalar(
        select(Account).where(Account.platform_id == platform.id, Account.user_name == user_name)
    )
    if account is None:
        account = Account(platform_id=platform.id, user_name=user_name)
        db.session.add(account)
    if not account.password_hash or not password_matches(account, password):
        account.password_hash = hash_password(password)
        account.prev_reset_at = utcnow()
        account.password_origin = PasswordOrigin.OWN  # the demo's published password, for its users
    account.account_type = account_type
    account.staff_role = staff_role
    account.cancelled = False
    if account.id is not None:
        throttle.clear(account)
    for field, value in profile.items():
        setattr(account, field, value)
    return account


# ---- social binding, the old platform, the WeChat follow prompt ------------------------------------


def bind_social(data: dict) -> str:

    if data.get("register"):
        account = create_account(data["register"])
    else:
        account = _admit_sign_in(authenticate(data["userName"], data["password"]))
    return social.bind(data["bindingTicket"], account)


def login_to_old_platform(data: dict) -> str:
    """Credentials the old platform accepts open (or create) the same account here, once."""
    import requests

    base_url = current_app.config["OLD_PLATFORM_URL"]
    if not base_url:
        raise ApiError(gettext("This sign-in method is not available on this site."), code=1010)
    try:
        outbound.check_url(base_url)
    except outbound.OutboundRefusedError as refused:
        raise ApiError(gettext("The old platform did not answer, please try again later."), code=1013) from refused
    try:
        response = outbound.session().post(
            f"{base_url.rstrip('/')}/api/base/BaseAccount/login",
            json={"userName": data["userName"], "password": data["password"]},
            timeout=15,
        )
        answer = response.json()
    except (requests.RequestException, ValueError) as exc:
        raise ApiError(gettext("The old platform did not answer, please try again later."), code=1013) from exc
    if response.status_code != 200 or answer.get("code") != 0:
        raise ApiError(gettext("Incorrect account or password."), code=1001)
    account = db.session.scalar(_accounts().where(Account.user_name == data["userName"]))
    if account is None:
        refuse_a_used_user_name(data["userName"][:50])
        account = Account(
            platform_id=data_platform_id(),
            user_name=data["userName"][:50],
            phone=data.get("phone")
            if data.get("phone") and not find_by_contact(CodeChannel.PHONE, data["phone"])
            else None,
            email=data.get("email")
            if data.get("email") and not find_by_contact(CodeChannel.EMAIL, data["email"])
            else None,
            password_hash=hash_password(data["password"]),
            account_type=AccountType.PERSONAL,
        )
        db.session.add(account)
        db.session.flush()
    elif not password_matches(account, data["password"]):
        # The old platform is the authority for these credentials; keep both in step.
        account.password_hash = hash_password(data["password"])
    return sessions.issue_token(account, current_platform())


def wechat_follow_prompt(account: Account) -> dict:
    wechat = (current_platform().oauth or {}).get("wechat") or {}
    return {"followed": account.wechat_followed, "qrCodeUrl": wechat.get("officialAccountQr")}
