"""The function-level authorization probe, driven by the `x-access` need each operation of
/api/openapi.json declares (api/extensions/smorest.Blueprint.requires).

Beside the BOLA probe (which swaps accounts between sites), this one asks whether a ROLE or a
TEMPLATE may do what it did. Every operation is called as every identity of a matrix on A's site
(owner, admin member, Observer member, share recipient whose template hides one block and one
parameter, another site's admin, platform staff, signed out), with A's own request as the template.
The expected outcome comes from the declared need alone, computed here independently of the api:

- signed out: refused (401); public operations are not judged;
- the key: granted if the key itself or a sub-key of it is in the identity's permissionRoutes;
- an object: the owner reaches it; organisation members reach A's devices (and objects of devices);
  only the owner reaches owner-only kinds; the share recipient reaches the shared device as far as
  its template allows the declared block for view / operate; nobody else reaches it.

A call the need says must be refused and that was not is a leak; so is a refused write that changed
the database, and any answer to the share recipient that shows the hidden block or parameter.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import text

from api.extensions.db import db

REFUSED_CODES = {401, 403, 404, 2010, 4030}
PARAMETERS = "parameters"


@dataclass(frozen=True)
class Identity:
    name: str
    headers: dict
    keys: frozenset[str]
    relation: str | None  # owner | member | shared | None (A's objects)
    template: dict[str, dict] | None = None  # permissionCode -> item (shared only)
    client: Any = None


def key_granted(keys: frozenset[str], key: str | None) -> bool:
    if key is None:
        return True
    return key in keys or any(k.startswith(key + ".") for k in keys)


def template_allows(template: dict[str, dict], block: str | None, access: str) -> bool:
    def ok(item):
        if item is None or item.get("viewStatus") != 1:
            return False
        return item.get("setStatus") == 1 if access == "operate" else item.get("setStatus") != -1

    if block == PARAMETERS:
        return any(ok(item) for code, item in template.items() if len(code) == 4 and code.isalnum())
    if block is None:
        return access == "view"
    return ok(template.get(block))


def expected_allowed(need: dict, identity: Identity, carries_object: bool, device_bound: bool) -> bool:
    if identity.headers is None:
        return False
    if not key_granted(identity.keys, need.get("key")):
        return False
    if not need.get("object") or not carries_object:
        return True
    if identity.relation == "owner":
        return True
    if not device_bound or identity.relation is None:
        return False
    if identity.relation == "member":
        return True
    return template_allows(identity.template or {}, need.get("block"), need.get("access", "view"))


def refused(response) -> bool:
    body = response.get_json(silent=True)
    if response.status_code in (401, 403, 404):
        return True
    return isinstance(body, dict) and body.get("code") in REFUSED_CODES


# ---- a snapshot of A's world, restored after an allowed write changed it -----------------------------


def tables() -> list[str]:
    return [t.name for t in db.metadata.sorted_tables if t.name != "alembic_version"]


def take_snapshot() -> None:
    db.session.execute(text("DROP SCHEMA IF EXISTS probe_snapshot CASCADE"))
    db.session.execute(text("CREATE SCHEMA probe_snapshot"))
    for name in tables():
        db.session.execute(text(f'CREATE TABLE probe_snapshot."{name}" AS SELECT * FROM public."{name}"'))
    db.session.commit()


def restore_snapshot(written: list[str]) -> None:
    """Put back the tables a call wrote: those the change log names, and the reading tables, which
    it does not watch. (A TRUNCATE of every table took most of a second for each restore.)"""
    names = sorted({*written, *(name for name in tables() if name.startswith("reading"))})
    # Replica role: no triggers (the change log) and no foreign-key checks while the rows go back.
    db.session.execute(text("SET LOCAL session_replication_role = replica"))
    for name in names:
        db.session.execute(text(f'DELETE FROM public."{name}"'))
        db.session.execute(text(f'INSERT INTO public."{name}" SELECT * FROM probe_snapshot."{name}"'))
    sequences = db.session.execute(
        text(
            "SELECT c.relname, a.attname, pg_get_serial_sequence(quote_ident(c.relname), a.attname) "
            "FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped "
            "AND c.relname = ANY(CAST(:names AS text[])) "
            "AND pg_get_serial_sequence(quote_ident(c.relname), a.attname) IS NOT NULL"
        ),
        {"names": names},
    ).all()
    for table, column, sequence in sequences:
        db.session.execute(
            text(
                f'SELECT setval(\'{sequence}\', coalesce((SELECT max("{column}") FROM public."{table}"), 0) + 1, false)'
            )
        )
    db.session.commit()


# ---- what a call wrote: a row trigger on every table appends to probe_change (cheap to read) -------

IGNORED_WRITES = {"account_session"}  # a caller's own session sees its last use


def install_change_log() -> None:
    db.session.execute(text("CREATE TABLE IF NOT EXISTS probe_change (id bigserial PRIMARY KEY, table_name text)"))
    db.session.execute(
        text(
            "CREATE OR REPLACE FUNCTION probe_note_change() RETURNS trigger AS $$ BEGIN "
            "INSERT INTO probe_change (table_name) VALUES (TG_TABLE_NAME); RETURN NULL; END $$ LANGUAGE plpgsql"
        )
    )
    for name in tables():
        if name in IGNORED_WRITES or name.startswith("reading_"):
            continue
        db.session.execute(
            text(
                f'CREATE TRIGGER probe_change AFTER INSERT OR UPDATE OR DELETE ON public."{name}" '
                "FOR EACH ROW EXECUTE FUNCTION probe_note_change()"
            )
        )
    db.session.commit()


def remove_change_log() -> None:
    for name in tables():
        db.session.execute(text(f'DROP TRIGGER IF EXISTS probe_change ON public."{name}"'))
    db.session.execute(text("DROP TABLE IF EXISTS probe_change"))
    db.session.execute(text("DROP FUNCTION IF EXISTS probe_note_change()"))
    db.session.execute(text("DROP SCHEMA IF EXISTS probe_snapshot CASCADE"))
    db.session.commit()


def changed_tables(since: int) -> tuple[int, list[str]]:
    """(the newest change id, the tables written after `since`)."""
    rows = db.session.execute(
        text("SELECT id, table_name FROM probe_change WHERE id > :since ORDER BY id"), {"since": since}
    ).all()
    db.session.rollback()
    return (rows[-1][0] if rows else since), sorted({r[1] for r in rows})
