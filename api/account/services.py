"""Account rules. Sign-in, sessions and recovery arrive with the sign-in issue; the pieces the
demo data needs (hashing, creating an account) live here already."""

from __future__ import annotations

from argon2 import PasswordHasher
from sqlalchemy import select

from api.account.models import Account, AccountType, StaffRole
from api.extensions.db import db, utcnow
from api.platform.models import Platform

# argon2id, RFC 9106 "low memory" profile: t=3, m=64 MiB, p=4 (OWASP minimum is t=2, m=19 MiB).
password_hasher = PasswordHasher()


def hash_password(password: str) -> str:
    return password_hasher.hash(password)


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
    try:
        verified = bool(account.password_hash) and password_hasher.verify(account.password_hash, password)
    except Exception:  # argon2 raises on mismatch or on an unreadable hash: set it anew
        verified = False
    if not verified:
        account.password_hash = hash_password(password)
        account.prev_reset_at = utcnow()
    account.account_type = account_type
    account.staff_role = staff_role
    account.cancelled = False
    for field, value in profile.items():
        setattr(account, field, value)
    return account
