"""The test database is emptied between tests by `empty_tables` (tests/conftest.py): every table a
test wrote to is empty again and its ids restart, as a TRUNCATE of all tables would leave them."""

from __future__ import annotations

from sqlalchemy import func, select, text

from api.account.services import ensure_account
from api.extensions.db import db
from api.extensions.snapshots import clear_all as clear_snapshots
from api.identity.models import AccountType
from api.platform.services import sync_tenants
from api.tenancy import find_platform
from tests.conftest import empty_tables


def test_the_tables_a_test_wrote_are_emptied_and_their_ids_restart(app):
    with app.app_context():
        platform = find_platform("localhost")
        first = ensure_account(platform, "isolation1", "Cold#2026", account_type=AccountType.ENTERPRISE)
        ensure_account(platform, "isolation2", "Cold#2026", account_type=AccountType.ENTERPRISE)
        db.session.commit()
        account_table = type(first).__table__
        # A sequence moved without being read (as tests/api/bfla.py restores one) restarts too.
        db.session.execute(text("SELECT setval('platform_id_seq', 40, false)"))
        db.session.commit()
        empty_tables()
        for table in db.metadata.sorted_tables:
            assert db.session.scalar(select(func.count()).select_from(table)) == 0, table.name
        used = db.session.execute(
            text("SELECT sequencename FROM pg_sequences WHERE schemaname = current_schema() AND last_value IS NOT NULL")
        ).all()
        assert used == []
        clear_snapshots()
        sync_tenants()
        platform = find_platform("localhost")
        again = ensure_account(platform, "isolation3", "Cold#2026", account_type=AccountType.ENTERPRISE)
        db.session.commit()
        assert platform.id == 1 and again.id == 1
        assert db.session.scalar(select(func.count()).select_from(account_table)) == 1
