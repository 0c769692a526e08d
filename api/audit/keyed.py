"""Checking a stored keyed hash (api/extensions/hashkeys.py) of a trail or signature row.

A row with a key id verifies with that key's HMAC only: recomputing it with plain SHA-256 (the public
algorithm) fails. A row without one was hashed before keys existed and verifies with SHA-256, but only
up to the table's cutoff written by the migration that introduced the keys: a later row without a key
id is a forgery by someone who lacked the key.
"""

from __future__ import annotations

from sqlalchemy import select

from api.audit.models import HashLegacyCutoff
from api.extensions import hashkeys
from api.extensions.db import db


def legacy_limit(table: str) -> int:
    """The last id of `table` hashed before keys existed (0: none)."""
    return db.session.scalar(select(HashLegacyCutoff.last_id).where(HashLegacyCutoff.table_name == table)) or 0


def problem(
    table: str, row_id: int | None, data: bytes, key_id: str | None, stored: str | None, limit: int | None = None
) -> str | None:
    """Why the row's stored hash does not hold, or None if it does. `limit`: the table's
    legacy_limit, when the caller checks many rows."""
    if key_id is None and (row_id is None or row_id > (legacy_limit(table) if limit is None else limit)):
        return "it was hashed without the installation's key (the keyed hashes had begun)"
    if key_id is not None and hashkeys.key_by_id(key_id) is None:
        return f"it names a hash key this installation does not hold ({key_id})"
    if not hashkeys.matches(data, key_id, stored):
        return "its content was changed"
    return None


def holds(table: str, row_id: int | None, data: bytes, key_id: str | None, stored: str | None) -> bool:
    return problem(table, row_id, data, key_id, stored) is None
