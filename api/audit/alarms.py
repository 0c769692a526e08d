"""A broken trail alarms the people it matters to (21 CFR 11.10(e), Annex 11 §9): the platform's staff
and the operators, and the customers whose records lie in the broken platform, through their FDA
contacts. Areas that know who a customer's contacts are register them here (the fda area does: the
owners with FDA mode on), so the audit area needs no knowledge of them.

Each break is mailed once per person (the outbox's dedupe key names the platform, the break and the
account), however often the periodic check finds it again.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from flask_babel import force_locale, gettext
from sqlalchemy import or_, select

from api.audit import chain, heads
from api.extensions.db import db
from api.extensions.i18n import default_locale
from api.identity.models import Account, StaffRole
from api.notify.models import Channel
from api.notify.services import add_message

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Contact:
    """Someone a customer names to hear of its records' integrity (an e-mail address)."""

    account_id: int
    platform_id: int
    email: str


ContactsOf = Callable[[int], Iterable[Contact]]
_customer_contacts: list[ContactsOf] = []


def register_customer_contacts(contacts_of: ContactsOf) -> None:
    """`contacts_of(platform_id)`: the customers' contacts for a break in that platform's trail."""
    if contacts_of not in _customer_contacts:
        _customer_contacts.append(contacts_of)


def _staff(platform_id: int) -> list[Account]:
    return list(
        db.session.scalars(
            select(Account).where(
                Account.cancelled.is_(False),
                Account.email.is_not(None),
                or_(
                    (Account.platform_id == platform_id) & Account.staff_role.is_not(None),
                    Account.staff_role == StaffRole.OPERATOR,
                ),
            )
        )
    )


def _dedupe_key(broken: chain.Break, account_id: int) -> str:
    return f"audit-break:{broken.platform_id}:{broken.key or broken.seq}:{account_id}"


def _alarm_staff(broken: chain.Break, described: str) -> set[int]:
    told = set()
    for account in _staff(broken.platform_id):
        with force_locale("en_US"):
            subject = gettext("Audit trail integrity alarm")
            body = gettext(
                "The audit trail's hash chain is broken: %(where)s. Run `flask audit verify` and "
                "investigate the database access around that entry.",
                where=described,
            )
        add_message(
            account.platform_id,
            Channel.EMAIL,
            account.email,
            body,
            subject=subject,
            dedupe_key=_dedupe_key(broken, account.id),
            lang="en-US",
        )
        told.add(account.id)
    return told


def _alarm_customers(broken: chain.Break, described: str, told: set[int]) -> None:
    locale = default_locale()
    for contacts_of in _customer_contacts:
        for contact in contacts_of(broken.platform_id):
            if contact.account_id in told:
                continue
            told.add(contact.account_id)
            with force_locale(locale):
                subject = gettext("Your records' audit trail failed its integrity check")
                body = gettext(
                    "The audit trail that holds your records failed its integrity check: %(where)s. Entries "
                    "may have been changed or removed outside the application. The platform's staff have "
                    "been alerted; keep this message with your deviation records and ask them for the "
                    "investigation's result.",
                    where=described,
                )
            add_message(
                contact.platform_id,
                Channel.EMAIL,
                contact.email,
                body,
                subject=subject,
                dedupe_key=_dedupe_key(broken, contact.account_id),
                lang="en-US" if locale == "en_US" else "zh-CN",
            )


def verify_and_alarm() -> list[str]:
    """Verify every platform's chain and exported heads. A break is logged and mailed once to the
    platform's staff and the operators, and to the FDA contacts of the customers whose records lie
    in that platform."""
    breaks = []
    for verdict in heads.verify_all():
        if verdict.broken is None:
            continue
        described = verdict.broken.describe()
        breaks.append(described)
        log.error("audit trail broken: %s", described)
        told = _alarm_staff(verdict.broken, described)
        _alarm_customers(verdict.broken, described, told)
    db.session.commit()
    return breaks
