"""FDA mode switched on or off directly (the signed switch itself is tested in test_fda.py)."""

from __future__ import annotations

from sqlalchemy import select

from api.account.models import Account
from api.extensions.db import db
from api.fda.models import FdaSetting


def fda_mode(app, enabled: bool = True, *, user_name: str = "demouser", idle_minutes: int | None = None) -> None:
    with app.app_context():
        account = db.session.scalar(select(Account).where(Account.user_name == user_name))
        setting = db.session.get(FdaSetting, account.id) or FdaSetting(
            account_id=account.id, platform_id=account.platform_id
        )
        setting.enabled = enabled
        if idle_minutes is not None:
            setting.idle_minutes = idle_minutes
        db.session.add(setting)
        db.session.commit()
