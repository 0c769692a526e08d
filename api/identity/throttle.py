"""Wrong-password lockout that an attacker cannot turn against the account's owner.

Counted per subject (the identifier signed in with, as the user name, the normalised phone number or
the lower-case email address, hashed; found without the database, so names no account has are
counted, locked and answered exactly like existing ones, and the counts never tell which name, phone
and email belong together) and requester (the client address, believed from trusted proxies only):

- per subject and requester: 5 wrong passwords within 15 minutes lock password sign-in from that
  requester for 15 minutes. Another requester (the owner) is not affected.
- per subject, all requesters together: after 20 wrong passwords in a day, password sign-in is
  locked for everyone for 1 minute, and again after every 5 further ones, each time twice as long,
  at most 15 minutes: a distributed guesser slows down to a few guesses per quarter hour.
- a requester that signed in to this account successfully within 30 days is exempt from the
  global lock (not from its own), so the owner's usual device keeps working.

Email-code sign-in and recovery stay open throughout (api/verification/services.py); a successful
recovery, or platform staff (`unlock`), clears every count of the account.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from api.extensions.db import db, utcnow
from api.extensions.ratelimit import client_address
from api.identity.models import Account, SignInThrottle

EVERYONE = "*"
PAIR_LIMIT = 5
PAIR_WINDOW = timedelta(minutes=15)
PAIR_LOCK = timedelta(minutes=15)
GLOBAL_LIMIT = 20
GLOBAL_STEP = 5
GLOBAL_WINDOW = timedelta(days=1)
GLOBAL_FIRST_LOCK = timedelta(minutes=1)
GLOBAL_MAX_LOCK = timedelta(minutes=15)
KNOWN_REQUESTER = timedelta(days=30)


def subject_of(kind: str, value: str) -> str:
    """kind: email, phone or name (api.account.services.sign_in_key)."""
    return hashlib.sha256(f"{kind}\x1f{value}".encode()).hexdigest()


def requester() -> str:
    return client_address()[:64]


def _rows(platform_id: int, subject: str, who: str, *, lock=False) -> tuple[SignInThrottle | None, ...]:
    stmt = select(SignInThrottle).where(
        SignInThrottle.platform_id == platform_id,
        SignInThrottle.subject == subject,
        SignInThrottle.requester.in_((who, EVERYONE)),
    )
    found = {row.requester: row for row in db.session.scalars(stmt.with_for_update() if lock else stmt)}
    return found.get(who), found.get(EVERYONE)


def _known(pair: SignInThrottle | None, now: datetime) -> bool:
    return bool(pair and pair.succeeded_at and pair.succeeded_at > now - KNOWN_REQUESTER)


def _lock_for(pair: SignInThrottle | None, everyone: SignInThrottle | None, now: datetime) -> datetime | None:
    if pair and pair.locked_until and pair.locked_until > now:
        return pair.locked_until
    if everyone and everyone.locked_until and everyone.locked_until > now and not _known(pair, now):
        return everyone.locked_until
    return None


def locked_until(platform_id: int, subject: str) -> datetime | None:
    """When password sign-in opens again for this subject from this requester (None: open)."""
    pair, everyone = _rows(platform_id, subject, requester())
    return _lock_for(pair, everyone, utcnow())


def _row(platform_id: int, subject: str, who: str, existing: SignInThrottle | None, now: datetime) -> SignInThrottle:
    if existing is not None:
        return existing
    row = SignInThrottle(platform_id=platform_id, subject=subject, requester=who, failures=0, locks=0, window_start=now)
    try:
        with db.session.begin_nested():
            db.session.add(row)
    except IntegrityError:  # a concurrent first failure created it
        return db.session.scalar(
            select(SignInThrottle)
            .where(
                SignInThrottle.platform_id == platform_id,
                SignInThrottle.subject == subject,
                SignInThrottle.requester == who,
            )
            .with_for_update()
        )
    return row


def failed(platform_id: int, subject: str) -> datetime | None:
    """Count a wrong password; commits. Returns the lock end when this failure locks the requester."""
    who, now = requester(), utcnow()
    found_pair, found_everyone = _rows(platform_id, subject, who, lock=True)
    pair = _row(platform_id, subject, who, found_pair, now)
    everyone = _row(platform_id, subject, EVERYONE, found_everyone, now)
    if pair.window_start < now - PAIR_WINDOW:
        pair.failures, pair.window_start = 0, now
    pair.failures += 1
    if pair.failures >= PAIR_LIMIT:
        pair.failures, pair.locked_until = 0, now + PAIR_LOCK
    if everyone.window_start < now - GLOBAL_WINDOW:
        everyone.failures, everyone.locks, everyone.window_start = 0, 0, now
    everyone.failures += 1
    if everyone.failures >= GLOBAL_LIMIT:
        everyone.locked_until = now + min(GLOBAL_FIRST_LOCK * 2**everyone.locks, GLOBAL_MAX_LOCK)
        everyone.locks += 1
        everyone.failures = GLOBAL_LIMIT - GLOBAL_STEP
    lock = _lock_for(pair, everyone, now)
    db.session.commit()
    return lock


def succeeded(platform_id: int, subject: str) -> None:
    """The right password (or an email code) from this requester: its count ends and it is known.
    Part of the caller's transaction."""
    who, now = requester(), utcnow()
    pair, _everyone = _rows(platform_id, subject, who, lock=True)
    pair = _row(platform_id, subject, who, pair, now)
    pair.failures, pair.locked_until, pair.succeeded_at = 0, None, now


def _subjects(account: Account) -> list[str]:
    return [
        subject_of(kind, value)
        for kind, value in (("name", account.user_name), ("phone", account.phone), ("email", account.email))
        if value
    ]


def locks_of(accounts: list[Account]) -> dict[int, datetime]:
    """Accounts whose password sign-in is locked now (from some requester, or for everyone): id -> the
    latest lock end. What staff see in the user list and clear with `unlock` (issue 47: the list read
    a column the lockout never writes and always showed "Normal")."""
    now, by_subject = utcnow(), {}
    for account in accounts:
        for subject in _subjects(account):
            by_subject[(account.platform_id, subject)] = account.id
    if not by_subject:
        return {}
    rows = db.session.execute(
        select(SignInThrottle.platform_id, SignInThrottle.subject, SignInThrottle.locked_until).where(
            SignInThrottle.subject.in_({subject for _platform, subject in by_subject}),
            SignInThrottle.locked_until > now,
        )
    )
    locks: dict[int, datetime] = {}
    for platform_id, subject, until in rows:
        account_id = by_subject.get((platform_id, subject))
        if account_id is not None and (account_id not in locks or until > locks[account_id]):
            locks[account_id] = until
    return locks


def clear(account: Account) -> None:
    """Recovery or staff unlock: every count of the account's user name, phone and email ends
    (caller commits)."""
    subjects = _subjects(account)
    db.session.execute(
        delete(SignInThrottle).where(
            SignInThrottle.platform_id == account.platform_id, SignInThrottle.subject.in_(subjects)
        )
    )
