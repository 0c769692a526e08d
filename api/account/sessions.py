"""Bearer tokens: opaque, random, stored as SHA-256, seven days, revocable."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from flask import request
from sqlalchemy import select, update
from sqlalchemy.orm import joinedload

from api.account.models import Account, AccountSession
from api.extensions.db import db, utcnow
from api.platform.models import Platform

TOKEN_LIFETIME = timedelta(milliseconds=604_800_000)  # spec: 7 days


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def issue_token(account: Account, platform: Platform) -> str:
    token = secrets.token_urlsafe(32)
    now = utcnow()
    db.session.add(
        AccountSession(
            account_id=account.id,
            platform_id=platform.id,
            token_hash=token_digest(token),
            created_at=now,
            expires_at=now + TOKEN_LIFETIME,
            client_ip=request.remote_addr,
            user_agent=(request.user_agent.string or "")[:255],
        )
    )
    db.session.commit()
    return token


def find_session(token: str) -> AccountSession | None:
    return db.session.scalar(
        select(AccountSession)
        .options(joinedload(AccountSession.account))
        .where(AccountSession.token_hash == token_digest(token))
    )


def is_live(session: AccountSession | None, platform: Platform) -> bool:
    return (
        session is not None
        and session.revoked_at is None
        and session.expires_at > utcnow()
        and session.platform_id == platform.id
        and session.account.is_active
    )


def revoke(session: AccountSession) -> None:
    if session.revoked_at is None:
        session.revoked_at = utcnow()


def revoke_all(account: Account) -> None:
    db.session.execute(
        update(AccountSession)
        .where(AccountSession.account_id == account.id, AccountSession.revoked_at.is_(None))
        .values(revoked_at=utcnow())
    )
