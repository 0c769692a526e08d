"""`flask seals ...`: the local timestamp authority over HTTP, and moving the old installation seal."""

from __future__ import annotations

import click
from flask import Flask
from werkzeug.serving import run_simple

from api.extensions.db import db
from api.seals import legacy
from api.seals.local_tsa import local_authority, wsgi_app


def register(app: Flask) -> None:
    @app.cli.group("seals")
    def seals_group() -> None:
        """Site seals and timestamps."""

    @seals_group.command("tsa")
    @click.option("--host", default="127.0.0.1", show_default=True)
    @click.option("--port", default=8790, show_default=True, type=int)
    def tsa_command(host: str, port: int) -> None:
        """Serve the installation's local RFC 3161 timestamp authority (development; SEAL_TSA_URL)."""
        authority = local_authority()
        db.session.commit()  # its certificate, when made now
        run_simple(host, port, wsgi_app(authority), threaded=True)

    @seals_group.command("absorb-legacy")
    def absorb_command() -> None:
        """Move the old installation seal's unencrypted key (FILES_DIR/.fda-seal) into the database."""
        seal = legacy.absorb_installation_seal()
        db.session.commit()
        click.echo(f"moved: {seal.subject}" if seal is not None else "no installation seal file")
