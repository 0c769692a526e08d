"""Tampering as the database's superuser would: the trail's append-only triggers (migration 0035)
refuse UPDATE and DELETE to the application; a superuser can switch triggers off for a transaction,
which is what these tests play to prove that the hashes and the exported heads still catch it."""

from __future__ import annotations

from sqlalchemy import text

from api.extensions.db import db


def bypass_append_only() -> None:
    """Switch the append-only triggers off for the current transaction (PostgreSQL superuser only)."""
    db.session.execute(text("SET LOCAL session_replication_role = replica"))
