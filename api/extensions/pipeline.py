"""Statements that do not wait for each other's results, sent to PostgreSQL in one round trip.

An upload's transaction is a chain of short statements, and each one's round trip (with gevent's
wait and SQLAlchemy's execution around it) cost more than the server's work on it. Where several
do not depend on each other's results (a batch's lookups; the rollup after a COPY with them),
`fetch_together` sends them in psycopg's pipeline mode on the session's connection, inside its
transaction. SQLAlchemy has no pipeline mode: each statement is compiled by SQLAlchemy once (its
SQL, and its parameters processed as SQLAlchemy would: expanded IN lists, enums), and its rows come
back as named tuples with the columns' names. (A transaction's BEGIN cannot join them: psycopg
waits for its answer even in pipeline mode.)

Each value is processed as SQLAlchemy processes its column's type (time zones, enums), so the rows
are the same either way (tests/api/test_pipeline.py compares them). SQLAlchemy's statement events
and echo log do not see these statements: its events promise an execution context, which only its
own execution makes. A lone statement, and every statement on other databases (SQLite), runs
through SQLAlchemy.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from psycopg.rows import namedtuple_row
from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.expression import Executable

from api.extensions.db import driver_errors

Query = tuple[Executable, Mapping[str, Any]]


def fetch_together(connection: Connection, queries: Sequence[Query]) -> list[list]:
    """The rows of each (statement, parameters), in order ([] for a statement returning none),
    sent in one round trip on PostgreSQL. An error fails the transaction, as a statement run alone."""
    if connection.dialect.name != "postgresql" or len(queries) < 2:
        return [_rows(connection.execute(statement, params)) for statement, params in queries]
    driver = connection.connection.driver_connection
    cursors = []
    with driver_errors(connection, "statements sent together"):
        with driver.pipeline():
            for statement, params in queries:
                expanded = _compiled(connection.dialect, statement).construct_expanded_state(params)
                values = {
                    name: expanded.processors[name](value) if name in expanded.processors else value
                    for name, value in expanded.parameters.items()
                }
                cursor = driver.cursor(row_factory=namedtuple_row)
                cursor.execute(expanded.statement, values)
                cursors.append(cursor)
        return [
            _processed(connection.dialect, statement, cursor) if cursor.description else []
            for (statement, _params), cursor in zip(queries, cursors, strict=True)
        ]


def _rows(result) -> list:
    return result.all() if result.returns_rows else []


@lru_cache(maxsize=512)  # statements are built once (per_dialect, store's cached texts)
def _compiled(dialect: Dialect, statement: Executable) -> SQLCompiler:
    return statement.compile(dialect=dialect)


def _processed(dialect: Dialect, statement: Executable, cursor) -> list:
    """The cursor's rows with each value processed as SQLAlchemy would for the statement's column
    (a plain text statement's are taken as they come, as SQLAlchemy does)."""
    rows = cursor.fetchall()
    processors = _result_processors(dialect, statement, tuple(column.type_code for column in cursor.description))
    if not any(processors):
        return rows
    return [
        type(row)(*(process(value) if process else value for process, value in zip(processors, row, strict=True)))
        for row in rows
    ]


@lru_cache(maxsize=512)
def _result_processors(dialect: Dialect, statement: Executable, type_codes: tuple[int, ...]) -> tuple:
    columns = list(getattr(statement, "selected_columns", ()))
    if len(columns) != len(type_codes):
        return (None,) * len(type_codes)
    return tuple(
        column.type.dialect_impl(dialect).result_processor(dialect, type_code)
        for column, type_code in zip(columns, type_codes, strict=True)
    )
