"""Operator commands: `flask sync-tenants`, `flask seed-demo`."""

from __future__ import annotations

import click
from flask import Flask

from api.account.models import AccountType, StaffRole
from api.account.services import ensure_account
from api.extensions.db import db
from api.platform.services import TenantDefinitionError, sync_tenants

# Fixed demo facts, printed by `make run` and listed in the README.
DEMO_PASSWORD = "Cold#2026"
DEMO_ACCOUNTS = (
    # (tenant slug, user name, account type, staff role, profile)
    (
        "default",
        "demouser",
        AccountType.ENTERPRISE,
        None,
        {"real_name": "Demo User", "company_name": "Demo Cold Chain Co.", "email": "demouser@example.com"},
    ),
    (
        "default",
        "operator",
        AccountType.ENTERPRISE,
        StaffRole.OPERATOR,
        {"real_name": "Platform Operator", "company_name": "ColdTrace Cloud", "email": "operator@example.com"},
    ),
    (
        "junjia",
        "reseller",
        AccountType.ENTERPRISE,
        StaffRole.PLATFORM_ADMIN,
        {"real_name": "Junjia Admin", "company_name": "Junjia Cold Chain", "email": "reseller@example.com"},
    ),
)


def _sync_or_fail():
    try:
        return {platform.slug: platform for platform in sync_tenants()}
    except TenantDefinitionError as exc:
        raise click.ClickException(f"tenant definitions are invalid:\n{exc}") from exc


def register_commands(app: Flask) -> None:
    @app.cli.command("sync-tenants")
    def sync_tenants_command() -> None:
        """Create or update the platforms defined under tenants/."""
        for slug, platform in _sync_or_fail().items():
            click.echo(f"{slug}: {', '.join(d.domain for d in platform.domains)} ({platform.style_model})")

    @app.cli.command("seed-demo")
    def seed_demo_command() -> None:
        """Demo tenants and accounts; safe to run again (passwords are reset to the demo one)."""
        platforms = _sync_or_fail()
        for slug, user_name, account_type, staff_role, profile in DEMO_ACCOUNTS:
            ensure_account(
                platforms[slug], user_name, DEMO_PASSWORD, account_type=account_type, staff_role=staff_role, **profile
            )
        db.session.commit()
        for slug, user_name, *_ in DEMO_ACCOUNTS:
            click.echo(f"demo login on {slug}: {user_name} / {DEMO_PASSWORD}")
