"""`flask audit verify`: check every platform's hash chain of the operation log."""

from __future__ import annotations

import click
from flask import Flask

from api.audit import heads
from api.extensions.db import db


def register(app: Flask) -> None:
    @app.cli.group("audit")
    def audit_group() -> None:
        """The operation log (audit trail)."""

    @audit_group.command("verify")
    @click.option("--every-head", is_flag=True, help="verify the seal of every exported head, not only the newest")
    def verify_command(every_head: bool) -> None:
        """Check every platform's trail; name the first break (exit status 1). Checked: the entries are
        numbered 1, 2, 3 ... without a hole and the head names the last (a removed entry, the newest
        too), each links to the one before and hashes to its stored hash (an edited entry), none after
        the chain began lacks its link fields, and every device event of a signed-in call since then
        is named by an entry (a change committed without its log row); then the newest exported head
        (api/audit/heads.py; each one with --every-head, and each one whenever the newest fails): its
        seal and timestamp verify and the chain still holds its entry with its hash (the newest entries
        deleted and the head moved back, or every hash recomputed)."""
        broken = False
        for verdict in heads.verify_all(every_head):
            if verdict.broken is None:
                click.echo(
                    f"platform {verdict.platform_id}: {verdict.entries} entries, chain intact "
                    "(numbered without holes, linked, unaltered; every device event on the trail; "
                    f"{len(heads.exported(verdict.platform_id))} exported heads, "
                    f"{'each' if every_head else 'the newest'} sealed and agreeing)"
                )
            else:
                broken = True
                click.echo(f"BROKEN {verdict.broken.describe()}")
        if broken:
            raise SystemExit(1)

    @audit_group.command("seal-heads")
    def seal_heads_command() -> None:
        """Export every platform's chain head that moved since its last export as a signed statement
        into AUDIT_HEAD_EXPORT_DIR (one new read-only file per seal; what the periodic job does)."""
        written = heads.seal_heads()
        db.session.rollback()
        for path in written:
            click.echo(f"sealed {path}")
        if not written:
            click.echo("no head moved since its last export")
