"""SQLAlchemy 2 typed models and Flask-Migrate.

Every model derives from `Model`; constraint names follow one convention so Alembic migrations name
them identically on PostgreSQL and SQLite (batch mode needs named constraints).
"""

from __future__ import annotations

import enum
import functools
import json
import re
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TypeVar

from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import (
    DateTime,
    Enum,
    MetaData,
    Select,
    Table,
    any_,
    bindparam,
    cast,
    event,
    func,
    inspect,
    select,
    text,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, DisconnectionError, InterfaceError, OperationalError, PendingRollbackError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from sqlalchemy.orm import DeclarativeBase, Mapped, Mapper, make_transient_to_detached, mapped_column, registry
from sqlalchemy.sql.elements import ColumnElement
from sqlalchemy.types import TypeDecorator

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class UTCDateTime(TypeDecorator[datetime]):
    """Timestamps are stored in UTC and always come back time-zone aware, on SQLite too."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTC column")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect) -> datetime | None:
        if value is not None and value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        return value


def utcnow() -> datetime:
    return datetime.now(UTC)


class Model(DeclarativeBase):
    registry = registry(
        metadata=MetaData(naming_convention=NAMING_CONVENTION),
        type_annotation_map={datetime: UTCDateTime()},
    )


class TimestampMixin:
    created_at: Mapped[datetime] = mapped_column(default=utcnow, server_default=func.now())
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow, server_default=func.now())


def render_migration_type(type_: str, obj, autogen_context):
    """Migrations spell UTCDateTime as a plain timezone-aware DateTime: they must not import app code."""
    if type_ == "type" and isinstance(obj, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    return False


PARTITION_NAME = re.compile(r"^reading_(\d{6}|default)$")


def include_in_migrations(name: str | None, type_: str, parent_names) -> bool:
    """Monthly partitions of `reading` are created at run time, not by migrations."""
    return not (type_ == "table" and name is not None and PARTITION_NAME.match(name))


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection, connection_record) -> None:
    """The embedded SQLite database is shared by the api, the ingest subscriber and the worker:
    WAL lets readers run beside the writer and the busy timeout makes writers queue, not fail."""
    if type(dbapi_connection).__module__.startswith("sqlite3"):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA busy_timeout=15000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()


# A pooled connection idle for less than this is used without a ping first (see ping_when_idle).
PING_AFTER_IDLE_S = 1.0


def ping_when_idle(engine: Engine, after_s: float = PING_AFTER_IDLE_S, clock: Callable[[], float] = time.monotonic):
    """`pool_pre_ping`, only for connections idle for `after_s` or more. The stock pre-ping is a round
    trip on every checkout, one in ten of a one-record upload's; a connection checked in a moment ago
    was alive then, and one that a server restart dropped since fails its statement as it would have
    failed any later one (the pool then replaces it)."""

    @event.listens_for(engine, "checkin")
    def _checked_in(dbapi_connection, record) -> None:
        record.info["idle_since"] = clock()

    @event.listens_for(engine, "checkout")
    def _checked_out(dbapi_connection, record, proxy) -> None:
        idle_since = record.info.pop("idle_since", None)
        if idle_since is not None and clock() - idle_since < after_s:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except engine.dialect.loaded_dbapi.Error as error:
            # The pool discards this connection and checks out another (a new one if need be).
            raise DisconnectionError(str(error)) from error


@contextmanager
def driver_errors(connection: Connection, statement: str) -> Iterator[None]:
    """Work done on the driver's own connection (a COPY) fails as SQLAlchemy's statements do: the
    driver's error becomes SQLAlchemy's (IntegrityError, OperationalError ...), with the connection
    invalidated when it is gone, so callers that tell a lost database from a bad row still can."""
    dbapi_error = connection.dialect.loaded_dbapi.Error
    try:
        yield
    except dbapi_error as error:
        gone = connection.dialect.is_disconnect(error, connection.connection.dbapi_connection, None)
        if gone:
            connection.invalidate(error)
        raise DBAPIError.instance(statement, None, error, dbapi_error, connection_invalidated=gone) from error


db = SQLAlchemy(model_class=Model)
migrate = Migrate(
    compare_type=True, render_as_batch=True, render_item=render_migration_type, include_name=include_in_migrations
)


def database_away(exc: Exception) -> bool:
    """The database could not be reached (a crash, a restart, a full pool): the same work succeeds
    later (an MQTT redelivery), not sooner in smaller pieces."""
    if isinstance(exc, OperationalError | InterfaceError | PendingRollbackError | PoolTimeoutError):
        return True
    return isinstance(exc, DBAPIError) and exc.connection_invalidated


def one_of(column, values) -> ColumnElement[bool]:
    """`column IN (values)` for batches of hundreds of keys. On PostgreSQL it is one array parameter
    (`= ANY`), so the statement's text is the same whatever the count: psycopg then parses it once
    (it parsed each new IN list anew, a tenth of the ingest subscriber's CPU) and can prepare it.
    Elsewhere, a plain IN."""
    values = list(values)
    if db.engine.dialect.name == "postgresql":
        return column == any_(cast(bindparam(None, values, type_=ARRAY(column.type)), ARRAY(column.type)))
    return column.in_(values)


def one_of_param(column, name: str) -> ColumnElement[bool]:
    """`one_of` with a named parameter (pass the keys as a list), for a statement built once with
    `per_dialect`: the form depends on the database, as `one_of`'s does."""
    if db.engine.dialect.name == "postgresql":
        return column == any_(cast(bindparam(name, type_=ARRAY(column.type)), ARRAY(column.type)))
    return column.in_(bindparam(name, expanding=True))


S = TypeVar("S")  # a statement: Select, CompoundSelect ...


def per_dialect(build: Callable[[], S]) -> Callable[[], S]:
    """The statement `build()` returns, built once per database dialect (on first use, in an app
    context) for the hot paths: built per call, a statement's construction and cache key cost more
    CPU than its round trip (one HTTP upload runs several)."""
    built: dict[str, S] = {}

    @functools.wraps(build)
    def statement() -> S:
        dialect = db.engine.dialect.name
        if dialect not in built:
            built[dialect] = build()
        return built[dialect]

    return statement


def str_enum(enum_cls: type[enum.StrEnum], length: int = 20) -> Enum:
    """Store an enum by its value as plain VARCHAR (portable, and readable in SQL)."""
    return Enum(enum_cls, native_enum=False, length=length, values_callable=lambda cls: [m.value for m in cls])


def flushed_models(session) -> set[type]:
    """The classes of the rows a flush writes (for after_flush listeners)."""
    return {type(row) for row in (*session.new, *session.dirty, *session.deleted)}


def bulk_write_table(orm_execute_state) -> str | None:
    """The table an ORM bulk UPDATE / DELETE writes (those never reach after_flush), else None."""
    if not (orm_execute_state.is_update or orm_execute_state.is_delete):
        return None
    return getattr(getattr(orm_execute_state.statement, "table", None), "name", None)


def insert_rows(rows: Sequence[Model]) -> None:
    """New rows of one model written at once, then in the session as if loaded (ids and defaults
    set). On PostgreSQL one INSERT takes them all as one JSON parameter, typed by the table's own row
    type: the ORM's flush writes hundreds of rows as one multi-row statement of hundreds of KB, which
    psycopg parses in Python every time. Elsewhere they are added and flushed.

    The PostgreSQL rows never pass through a flush: after_flush listeners (snapshots, the device
    totals, the request's audit) do not see them, so use it only for tables none of those watches."""
    if not rows:
        return
    session = db.session
    if session.connection().dialect.name != "postgresql":
        session.add_all(rows)
        session.flush()
        return
    mapper: Mapper = inspect(type(rows[0]))
    [primary_key] = mapper.primary_key
    values = [_insert_values(mapper, row) for row in rows]
    names = tuple(values[0])
    if any(tuple(row_values) != names for row_values in values):
        raise ValueError(f"{mapper.class_.__name__} rows set different columns: one INSERT cannot write them")
    statement = _json_insert(mapper.local_table, names, primary_key.name)
    # Ids are drawn in the ORDER BY's order, so ascending ids follow the rows (SQLAlchemy's own
    # multi-row INSERTs rely on the same for PostgreSQL).
    ids = sorted(session.scalars(text(statement), {"rows": json.dumps(values, default=_json_value)}))
    id_key = mapper.get_property_by_column(primary_key).key
    for row, new_id in zip(rows, ids, strict=True):
        setattr(row, id_key, new_id)
        make_transient_to_detached(row)
        session.add(row)


def _insert_values(mapper: Mapper, row) -> dict:
    """What the ORM would insert for `row`: the columns it set, else their Python defaults (which are
    set on the row too, as a flush would); the primary key is the database's."""
    values = {}
    for column in mapper.local_table.columns:
        if column.primary_key:
            continue
        key = mapper.get_property_by_column(column).key
        if key in row.__dict__:
            value = row.__dict__[key]
        elif column.default is not None and (column.default.is_scalar or column.default.is_callable):
            value = column.default.arg if column.default.is_scalar else column.default.arg(None)
            setattr(row, key, value)
        else:
            continue  # the table's own default
        if isinstance(column.type, TypeDecorator):
            value = column.type.process_bind_param(value, None)
        values[column.name] = value
    return values


def _json_value(value):
    if isinstance(value, datetime):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not a JSON value")


@functools.cache
def _json_insert(table: Table, names: tuple[str, ...], primary_key: str) -> str:
    columns = ", ".join(f'"{name}"' for name in names)
    return (
        f'INSERT INTO "{table.name}" ({columns}) SELECT {columns} '  # noqa: S608  # nosec B608 - names from the model
        f'FROM json_populate_recordset(NULL::"{table.name}", CAST(:rows AS json)) WITH ORDINALITY AS r '
        f'ORDER BY r.ordinality RETURNING "{primary_key}"'
    )


def escape_like(text: str) -> str:
    """`text` as a literal inside a LIKE pattern with escape character '/' (as autoescape does)."""
    return text.replace("/", "//").replace("%", "/%").replace("_", "/_")


def paginate(stmt, args: dict, *order_by, rows: bool = False) -> dict:
    """One page of `stmt` as the spec's `{list, total}`; `args` carries `start` (1-based) and `pageSize`.
    `rows=True` keeps whole result rows (several entities per row) instead of the first entity."""
    return run_page(paged(stmt, *order_by), args, rows=rows)


@dataclass(frozen=True)
class PagedQuery:
    """A page query with its total, the same page without it, and the count alone, with the page
    window as bind parameters: a hot list builds them once and runs them with its filters' values
    (`run_page(..., params)`)."""

    page: Select
    rows: Select
    count: Select


def paged(stmt, *order_by) -> PagedQuery:
    """The total rides along as a scalar subquery (evaluated once, as an InitPlan), so a
    page costs one round trip; only an empty page (past the end, or no match) needs its own count.
    (A `count(*) OVER ()` window was measured 3x slower: it drags every full-width row through.)"""
    count = select(func.count()).select_from(stmt.order_by(None).subquery())
    offset, limit = bindparam("page_offset"), bindparam("page_limit")
    rows = stmt.order_by(*order_by).offset(offset).limit(limit)
    page = stmt.add_columns(count.scalar_subquery().label("page_total")).order_by(*order_by).offset(offset).limit(limit)
    return PagedQuery(page, rows, count)


def run_page(
    query: PagedQuery, args: dict, params: dict | None = None, *, rows: bool = False, total: int | None = None
) -> dict:
    """Run a PagedQuery for `args` (start, pageSize); a `total` already known skips the count."""
    params = params or {}
    window = {"page_offset": (args["start"] - 1) * args["pageSize"], "page_limit": args["pageSize"]}
    if total is not None:
        found = db.session.execute(query.rows, {**params, **window}).all()
        return {"list": [tuple(row) if rows else row[0] for row in found], "total": total}
    found = db.session.execute(query.page, {**params, **window}).all()
    total = found[0].page_total if found else db.session.scalar(query.count, params)
    items = [tuple(row[:-1]) if rows else row[0] for row in found]
    return {"list": items, "total": total}
