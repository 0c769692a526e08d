"""`flask audit verify`: check every platform's hash chain of the operation log."""

from __future__ import annotations

import click
from flask import Flask

from api.audit import chain


def register(app: Flask) -> None:
    @app.cli.group("audit")
    def audit_group() -> None:
        """The operation log (audit trail)."""

    @audit_group.command("verify")
    def verify_command() -> None:
        """Check the hash chain of every platform; name the first broken entry (exit status 1)."""
        broken = False
        for verdict in chain.verify_all():
            if verdict.broken is None:
                click.echo(f"platform {verdict.platform_id}: {verdict.entries} entries, chain intact")
            else:
                broken = True
                click.echo(f"BROKEN {verdict.broken.describe()}")
        if broken:
            raise SystemExit(1)
