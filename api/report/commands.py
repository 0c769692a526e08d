"""`flask backup restore ARCHIVE`: put one account's backup archive into this database (api/report/restore.py)."""

from __future__ import annotations

import click
from flask import Flask

from api.report.restore import RestoreError, restore


def register(app: Flask) -> None:
    @app.cli.group("backup")
    def backup_group() -> None:
        """Scheduled backups."""

    @backup_group.command("restore")
    @click.argument("archive", type=click.Path(exists=True, dir_okay=False))
    @click.option("--platform", "slug", default=None, help="the site's slug (default: the operator's)")
    def restore_command(archive: str, slug: str | None) -> None:
        """Restore a backup archive (checked against its manifest first; nothing is written on error)."""
        try:
            done = restore(archive, slug)
        except RestoreError as exc:
            raise click.ClickException(str(exc)) from exc
        click.echo(f"restored {done['account']}: {done['devices']} devices, {done['readings']} readings")
