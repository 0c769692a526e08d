"""What platform staff do to another account's sign-in credentials, done so that no one but its user can
sign as them.

A password reset by platform staff (resetPasswordBySys) that leaves no one but the user able to sign
as them (21 CFR 11.200(a)(3), 11.300): the password becomes one nobody knows, every session ends and the
lock lifts; the user is told through the outbox to set their own with "Forgot password" (a code to
their own phone or email), and until they do they neither sign in nor sign records
(api/identity/sessions.admit, api/fda/signers.signing_refusal). The reset is an entry of the user's
own trail, which the creators of their organisations read too.

A phone or email changed by staff (sysModifyUser) is where the next reset code would go: it is on the
user's trail and told to the previous address; under FDA mode (the account can sign an owner's
records) staff cannot change it at all: the user binds a new one with a code sent there.
"""

from __future__ import annotations

import secrets

from flask_babel import gettext

from api.account.services import hash_password
from api.audit.recorder import record_event
from api.extensions.db import db
from api.extensions.smorest import field_error as _field_error
from api.fda.signers import is_governed
from api.identity import sessions, throttle
from api.identity.models import Account, PasswordOrigin
from api.notify.models import Channel
from api.notify.services import add_message
from api.platform.models import Platform

RECOVER_PATH = "/user/recover"
CONTACTS = ("phone", "email")


def _masked(channel: Channel, recipient: str) -> str:
    if channel == Channel.EMAIL:
        name, _, domain = recipient.partition("@")
        return f"{name[:1]}***@{domain}"
    return f"{recipient[:4]}****{recipient[-2:]}"


def _tell_the_user(account: Account, staff: Account) -> tuple[Channel, str]:
    platform = db.session.get(Platform, account.platform_id)
    link = f"{'https' if platform.https else 'http'}://{platform.top_domain}{RECOVER_PATH}"
    site = platform.title_for(platform.default_locale)
    text = gettext(
        "Platform staff (%(staff)s) reset the password of your account %(user)s on %(site)s. Nobody knows "
        "the new one: set your own at %(link)s with a code sent to your phone or email. Until then the "
        "account neither signs in nor signs records. If you did not ask for this, tell your administrator.",
        staff=staff.user_name,
        user=account.user_name,
        site=site,
        link=link,
    )
    channel, recipient = (Channel.EMAIL, account.email) if account.email else (Channel.SMS, account.phone)
    subject = gettext("Your password was reset") if channel == Channel.EMAIL else None
    add_message(platform.id, channel, recipient, text, subject=subject)
    return channel, recipient


def _record(account: Account, staff: Account, channel: Channel, recipient: str) -> None:
    """The entry names the account whose trail it belongs in, and says who did it."""
    record_event(
        account,
        "Password reset by platform staff",
        target=f"account#{account.id}",
        details={
            "staffUserName": staff.user_name,
            "staffAccountId": staff.id,
            "notified": f"{channel.value}:{_masked(channel, recipient)}",
        },
        # The account's own data space (the operator may reset an account of another site): where
        # its user and their organisations read their trail.
        platform_id=account.platform_id,
    )


def reset_password(staff: Account, account: Account) -> dict:
    if account.cancelled:
        raise _field_error("id", gettext("This account is cancelled."))
    if not account.email and not account.phone:
        raise _field_error(
            "id", gettext("This account has no phone or email to receive the reset: add one to the account first.")
        )
    account.password_hash = hash_password(secrets.token_urlsafe(32))
    account.password_origin = PasswordOrigin.RESET
    sessions.revoke_all(account)
    throttle.clear(account)
    channel, recipient = _tell_the_user(account, staff)
    _record(account, staff, channel, recipient)
    db.session.commit()
    return {"channel": channel.value, "sentTo": _masked(channel, recipient)}


def check_contact_change(account: Account, previous: dict) -> None:
    """Under FDA mode the user's phone and email are theirs to change (bindPhone / bindEmail)."""
    if previous and is_governed(account.id):
        field = next(iter(previous))
        raise _field_error(
            field,
            gettext("FDA mode: the user changes their own phone and email, with a code sent to the new one."),
        )


def contact_changed(staff: Account, account: Account, previous: dict) -> None:
    """On the user's trail, and told to each previous address (caller commits)."""
    if not previous:
        return
    record_event(
        account,
        "Phone or email changed by platform staff",
        target=f"account#{account.id}",
        details={
            "staffUserName": staff.user_name,
            "staffAccountId": staff.id,
            "changed": sorted(previous),
        },
        platform_id=account.platform_id,
    )
    platform = db.session.get(Platform, account.platform_id)
    site = platform.title_for(platform.default_locale)
    text = gettext(
        "Platform staff (%(staff)s) changed the phone or email of your account %(user)s on %(site)s. "
        "If you did not ask for this, tell your administrator.",
        staff=staff.user_name,
        user=account.user_name,
        site=site,
    )
    if previous.get("email"):
        add_message(platform.id, Channel.EMAIL, previous["email"], text, subject=gettext("Your account was changed"))
    if previous.get("phone"):
        add_message(platform.id, Channel.SMS, previous["phone"], text)
