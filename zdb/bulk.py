"""Set-based reads and writes: PostgreSQL's COPY and server-side cursors where we have them,
executemany and plain cursors elsewhere (SQLite).

A row-at-a-time ORM insert is some 40 times slower than COPY on the machines we measured, and
ORM rows cost more than the engine's own work on them; the recalculation reads millions of
rows and writes hundreds of thousands, so every bulk read and write goes through here. This
is the one dialect-specific seam: callers build one kind of row, whatever the database.

- ``copy_rows``: tuples of Python values.
- ``copy_text``: lines already in COPY's text format (tab-separated, ``\\N`` for NULL,
  booleans as ``1``/``0``, dates ISO, JSON as text), the cheapest form to build in bulk. On
  SQLite the lines are split back into text values and the columns' type affinity stores
  them as the same integers, reals and texts SQLAlchemy would have written.
- ``stream_rows``: a select's rows in batches, from a binary server-side cursor on PostgreSQL
  (no ORM, no result processing: the driver's own ints, dates, booleans and decoded JSON).
- ``keys_table``: a set of keys as one array per column, a table to join (PostgreSQL only).
- ``foreign_keys_checked_at_end``: a bulk load whose foreign keys are checked once, as a
  join over all rows, instead of by a trigger per row (PostgreSQL); ``whole_table_key_checks``
  plans such a join well.
- ``transaction_settings``: server settings for one block of a transaction (PostgreSQL).

``copy_text``, ``copy_binary`` and ``TextCopies`` can send from a thread of their own
(``queued=True``: psycopg's ``QueuedLibpqWriter``, ``_copy_in``): ``write`` queues a block and
returns, so Python computes the next rows while libpq sends the last. Only a caller that
measured a gain asks for it (the recalculation's steps); where the server is the slower side (the
bulk load) the thread gains nothing.

These use the driver's cursors directly; their errors are raised as SQLAlchemy's, as if the
statement had gone through SQLAlchemy (``_as_sqlalchemy_errors``), so that whoever handles a
database error (the API's problem documents, the worker's retries on a lost connection, the
commands) meets one family of them.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any, TypeVar

import psycopg
from psycopg.copy import Copy, QueuedLibpqWriter
from sqlalchemy import (
    ARRAY,
    JSON,
    Float,
    ForeignKeyConstraint,
    Numeric,
    Select,
    Table,
    bindparam,
    func,
    insert,
    inspect,
    text,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session
from sqlalchemy.schema import AddConstraint, DropConstraint
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.elements import KeyedColumnElement
from sqlalchemy.sql.selectable import TableValuedAlias

from zdb.binary_copy import SIGNATURE, TRAILER
from zdb.db import is_postgres

__all__ = [
    "IN_LIST",
    "TextCopies",
    "copy_binary",
    "copy_rows",
    "copy_text",
    "escape_copy_text",
    "foreign_keys_checked_at_end",
    "in_chunks",
    "keys_table",
    "stream_rows",
    "transaction_settings",
    "whole_table_key_checks",
]


@contextmanager
def _as_sqlalchemy_errors(statement: str) -> Iterator[None]:
    """psycopg's errors raised as SQLAlchemy's classes for them (IntegrityError, DataError,
    OperationalError, ...), the driver's error kept as ``orig``."""
    try:
        yield
    except psycopg.Error as error:
        raise DBAPIError.instance(statement, None, error, psycopg.Error) from error


def _copy_in(cursor: psycopg.Cursor[Any], statement: str, *, queued: bool) -> AbstractContextManager[Copy]:
    """A COPY FROM STDIN on ``cursor``; ``queued``: its blocks sent by a thread of their own.

    Errors keep their place: a block the server refuses (a key violation, a bad value) is
    reported when the COPY ends, as without the thread (the server answers a COPY only then),
    and the thread's own failure (a lost connection) is raised by the next ``write`` or by the
    end. A block of the caller that raises ends the COPY with an error, so the server stores
    none of its rows. The queue holds at most 1,024 blocks (of about 32 KB; psycopg's
    ``QUEUE_SIZE``): a caller faster than the server waits, memory stays bounded. A block is
    sent after ``write`` returns, so it must not change afterwards: ``str`` or ``bytes``, never
    a buffer the caller fills again."""
    return cursor.copy(statement, writer=QueuedLibpqWriter(cursor) if queued else None)


def _copy_value(value: Any) -> Any:
    if isinstance(value, (list, dict)):
        return json.dumps(value, separators=(",", ":"))
    return value


def copy_rows(session: Session, table: Table, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> int:
    """Insert ``rows`` (tuples in the order of ``columns``) into ``table``; returns the count."""
    connection = session.connection()
    if is_postgres(connection):
        driver = connection.connection.driver_connection
        assert driver is not None
        count = 0
        statement = f"COPY {table.name} ({', '.join(columns)}) FROM STDIN"
        json_at = [k for k, c in enumerate(columns) if isinstance(table.c[c].type, JSON)]
        with _as_sqlalchemy_errors(statement), driver.cursor() as cursor, cursor.copy(statement) as copy:
            for row in rows:
                if json_at:
                    values = list(row)
                    for k in json_at:
                        values[k] = _copy_value(values[k])
                    copy.write_row(values)
                else:
                    copy.write_row(row)
                count += 1
        return count
    batch = [dict(zip(columns, row, strict=True)) for row in rows]
    if batch:
        connection.execute(insert(table), batch)
    return len(batch)


_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})


def escape_copy_text(value: str) -> str:
    """A text value as COPY's text format writes it."""
    return value.translate(_ESCAPES)


def _unescape(value: str) -> str | None:
    if value == "\\N":
        return None
    if "\\" not in value:
        return value
    out, k = [], 0
    plain = {"t": "\t", "n": "\n", "r": "\r", "\\": "\\"}
    while k < len(value):
        char = value[k]
        if char == "\\" and k + 1 < len(value):
            out.append(plain.get(value[k + 1], value[k + 1]))
            k += 2
        else:
            out.append(char)
            k += 1
    return "".join(out)


@contextmanager
def copy_text(
    session: Session, table: str, columns: Sequence[str], *, queued: bool = False
) -> Iterator[Callable[[str], None]]:
    """A writer of COPY text-format data into ``table``: call it with chunks of whole lines
    (each ending in a newline). On PostgreSQL the COPY stays open until the block ends, so the
    server stores one chunk while the caller computes the next; nothing else may use the
    session's connection meanwhile."""
    connection = session.connection()
    if is_postgres(connection):
        driver = connection.connection.driver_connection
        assert driver is not None
        statement = f"COPY {table} ({', '.join(columns)}) FROM STDIN"
        with (
            _as_sqlalchemy_errors(statement),
            driver.cursor() as cursor,
            _copy_in(cursor, statement, queued=queued) as copy,
        ):
            yield copy.write
        return
    raw = connection.connection.driver_connection
    assert raw is not None
    statement = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
    # SQLite's own text-to-real conversion is not always correctly rounded ("0.810363" can be
    # stored as 0.8103629999999999): decimal and floating-point columns get Python's float, as
    # SQLAlchemy would have bound it.
    types = {column["name"]: column["type"] for column in inspect(connection).get_columns(table)}
    reals = [k for k, name in enumerate(columns) if isinstance(types[name], (Numeric, Float))]

    def values(line: str) -> list[Any]:
        row: list[Any] = [_unescape(v) for v in line.split("\t")]
        for k in reals:
            if row[k] is not None:
                row[k] = float(row[k])
        return row

    def write(chunk: str) -> None:
        lines = chunk.split("\n")
        assert lines[-1] == "", "chunks hold whole lines"
        raw.executemany(statement, [values(line) for line in lines[:-1]])

    yield write


@contextmanager
def copy_binary(
    session: Session, table: str, columns: Sequence[str], *, queued: bool = False
) -> Iterator[Callable[[bytes], None]]:
    """A writer of binary COPY rows (``binary_copy.encode_rows``) into ``table``, on PostgreSQL
    only; it frames them with the format's signature and trailer. The COPY stays open until the
    block ends, as ``copy_text``'s."""
    connection = session.connection()
    if not is_postgres(connection):
        raise NotImplementedError("binary COPY is PostgreSQL's")
    driver = connection.connection.driver_connection
    assert driver is not None
    statement = f"COPY {table} ({', '.join(columns)}) FROM STDIN (FORMAT BINARY)"
    with (
        _as_sqlalchemy_errors(statement),
        driver.cursor() as cursor,
        _copy_in(cursor, statement, queued=queued) as copy,
    ):
        # Written as blocks, psycopg sends the data as it is: the frame is ours to write.
        copy.write(SIGNATURE)
        yield copy.write
        copy.write(TRAILER)


class TextCopies:
    """COPY data into several tables over one connection, which carries one COPY at a time.
    Text-format lines (``str``) and, on PostgreSQL, binary rows (``bytes``, ``copy_binary``)
    may go to the same table: each kind is its own COPY. Data for the COPY in progress goes
    straight to the server; data for another waits in memory until it reaches ``switch_at``
    characters or bytes, then the copy switches to it. So the server stores every table's rows
    while the caller computes more (not one table at the end), and memory stays bounded. Use as
    a context manager; nothing else may use the session's connection inside it, except after
    ``pause``. ``queued`` as ``copy_text``'s."""

    def __init__(
        self,
        session: Session,
        columns: dict[str, Sequence[str]],
        switch_at: int = 8 << 20,
        *,
        queued: bool = False,
    ) -> None:
        self._session = session
        self._queued = queued
        self._columns = columns
        self._switch_at = switch_at
        # a stream: a table and whether its data is binary
        self._waiting: dict[tuple[str, bool], list[Any]] = {}
        self._sizes: dict[tuple[str, bool], int] = {}
        self._stream: tuple[str, bool] | None = None
        self._open: AbstractContextManager[Callable[[Any], None]] | None = None
        self._write: Callable[[Any], None] | None = None

    def __enter__(self) -> TextCopies:
        return self

    @property
    def binary(self) -> bool:
        """Whether binary rows may be written (PostgreSQL)."""
        return is_postgres(self._session)

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        if kind is None:
            for stream, waiting in list(self._waiting.items()):
                if waiting:
                    self._switch(stream)
        self._close(kind, error, trace)

    def write(self, table: str, chunk: str | bytes) -> None:
        """Whole lines (each ending in a newline) or whole binary rows for ``table``."""
        if table not in self._columns:
            raise KeyError(table)
        stream = (table, isinstance(chunk, bytes))
        if stream == self._stream:
            assert self._write is not None
            self._write(chunk)
            return
        self._waiting.setdefault(stream, []).append(chunk)
        self._sizes[stream] = self._sizes.get(stream, 0) + len(chunk)
        if self._sizes[stream] >= self._switch_at:
            self._switch(stream)

    def pause(self) -> None:
        """End the current COPY, so that the caller may use the connection until the next
        ``write``. Data waiting for another COPY keeps waiting; from now on all data waits
        until it reaches ``switch_at`` or the block ends."""
        self._close(None, None, None)

    def _switch(self, stream: tuple[str, bool]) -> None:
        self._close(None, None, None)
        table, binary = stream
        opening = copy_binary if binary else copy_text
        self._open = opening(self._session, table, self._columns[table], queued=self._queued)
        self._write = self._open.__enter__()
        self._stream = stream
        for chunk in self._waiting.get(stream, []):
            self._write(chunk)
        self._waiting[stream], self._sizes[stream] = [], 0

    def _close(self, kind: Any, error: Any, trace: Any) -> None:
        if self._open is not None:
            opened, self._open, self._write, self._stream = self._open, None, None, None
            opened.__exit__(kind, error, trace)


_STREAMS = itertools.count()


def stream_rows(
    session: Session, statement: Select[*tuple[Any, ...]], batch: int = 50_000, *, server_side: bool = True
) -> Iterator[tuple[Any, ...]]:
    """The rows of ``statement`` as plain tuples, fetched ``batch`` at a time. ``server_side``
    streams from a server-side cursor (for big results; its plans favour the first rows);
    otherwise the whole result comes in one round trip (for small ones)."""
    connection = session.connection()
    if not is_postgres(connection):
        for row in connection.execute(statement):
            yield tuple(row)
        return
    sql, params = _compiled(statement, connection.dialect)
    driver = connection.connection.driver_connection
    assert driver is not None
    if not server_side:
        with _as_sqlalchemy_errors(sql), driver.cursor(binary=True) as plain:
            plain.execute(sql, params)
            rows = plain.fetchall()
        yield from rows
        return
    # Binary transfer skips parsing numbers and dates. Several streams may be open at once (the
    # stored history while tournaments are loaded): each cursor has its own name.
    with _as_sqlalchemy_errors(sql), driver.cursor(name=f"zdb_stream_{next(_STREAMS)}", binary=True) as cursor:
        cursor.execute(sql, params)
        while rows := cursor.fetchmany(batch):
            yield from rows


#: compiled statements by their cache key (``_compiled``); a statement's shape is fixed in code,
#: so this holds a few dozen entries and is never cleared
_COMPILED: dict[Any, SQLCompiler] = {}
_COMPILED_LIMIT = 512


def _compiled(statement: Select[*tuple[Any, ...]], dialect: Dialect) -> tuple[str, dict[str, Any]]:
    """The SQL and parameters of ``statement``, compiled once per shape (the way SQLAlchemy's
    own execution caches it): a late tournament's recalculation streams a few hundred
    statements of a dozen shapes, and compiling each anew took a quarter of loading its
    tournaments. A statement whose text depends on its values (an expanding IN list, a value
    rendered inline) is compiled each time."""
    key = statement._generate_cache_key()
    if key is None or any(b.expanding or b.literal_execute for b in key.bindparams):
        once = statement.compile(dialect=dialect, compile_kwargs={"render_postcompile": True})
        return str(once), dict(once.params)
    cached = _COMPILED.get((dialect.name, key.key))
    if cached is None:
        made = statement.compile(dialect=dialect, cache_key=key, compile_kwargs={"render_postcompile": True})
        assert isinstance(made, SQLCompiler)
        if len(_COMPILED) < _COMPILED_LIMIT:  # two threads may both compile a shape: same result
            _COMPILED[(dialect.name, key.key)] = made
        return made.string, dict(made.params)
    return cached.string, dict(cached.construct_params(extracted_parameters=key.bindparams))


#: values in one IN list: a statement carries at most 65,535 parameters on PostgreSQL and 32,766
#: on SQLite, and an import names a federation's hundred thousand people at once
IN_LIST = 5000

_Value = TypeVar("_Value")


def in_chunks(values: Iterable[_Value], size: int = IN_LIST) -> Iterator[list[_Value]]:
    """``values`` in lists of at most ``size``, one statement's IN list each."""
    chunk: list[_Value] = []
    for value in values:
        chunk.append(value)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def keys_table(columns: Sequence[KeyedColumnElement[Any]], keys: Sequence[Sequence[Any]]) -> TableValuedAlias:
    """``keys`` (one value per column of ``columns``) as a table with those columns' keys and
    types, to join to them (PostgreSQL: ``unnest`` of one array per column). A few thousand
    keys joined to an index are one look-up each, in one statement; an IN list of key tuples
    is planned as a bitmap OR of one index scan per key, or a sequential scan."""
    values = list(zip(*keys, strict=True)) or [()] * len(columns)
    arrays = [bindparam(None, list(v), type_=ARRAY(c.type)) for c, v in zip(columns, values, strict=True)]
    return func.unnest(*arrays).table_valued(*(c.key for c in columns)).render_derived()


@contextmanager
def foreign_keys_checked_at_end(session: Session, tables: Sequence[Table]) -> Iterator[None]:
    """Rows written into ``tables`` within the block have their foreign keys checked when it
    ends, all at once, instead of one trigger call per row (PostgreSQL; elsewhere as usual).

    A COPY of games spends most of its time in the two key checks of every game against the
    participants. Here the tables' foreign keys are dropped and added back at the end of the
    block, which checks them over all rows in one join (after ANALYZE, so that the join is
    planned for the rows just written). The constraints come from the tables' metadata, the
    same definitions the migrations create. A violation raises when the block ends; the DDL is
    part of the transaction, so its rollback restores the constraints with everything else.
    The tables stay locked against every other session until the commit: for loads that own
    the database for their duration (``zdb synth``), not for a service's requests.
    """
    connection = session.connection()
    if not is_postgres(connection):
        yield
        return
    constraints = [
        constraint
        for table in tables
        for constraint in sorted(table.constraints, key=lambda c: str(c.name))
        if isinstance(constraint, ForeignKeyConstraint)
    ]
    for constraint in constraints:
        connection.execute(DropConstraint(constraint))
    yield
    session.flush()
    for table in tables:
        connection.execute(text(f"ANALYZE {table.name}"))
    with whole_table_key_checks(session):
        for constraint in constraints:
            connection.execute(AddConstraint(constraint))


#: how the server checks a foreign key over a whole table: one anti-join against the referenced
#: table, run with ``maintenance_work_mem`` as its ``work_mem`` (PostgreSQL's RI_Initial_Check).
#: Left to itself, the planner sorts both sides for a merge join, or loops over the referenced
#: index, which on rows just written fetches every heap tuple; a hash anti-join reads each side
#: once. Measured on the synthetic federation at scale 1 (5.2 M games, 1.5 M participants):
#: a game's key 6.8 s -> 2.4 s, a participant's key to the tournament versions 0.48 -> 0.28 s,
#: to the players 0.87 -> 0.71 s. The plan changes the speed only, never what is found.
_KEY_CHECK_SETTINGS = {"maintenance_work_mem": "256MB", "enable_mergejoin": "off", "enable_nestloop": "off"}


def whole_table_key_checks(session: Session) -> AbstractContextManager[None]:
    """Foreign keys added within the block are checked over their tables with a hash anti-join
    (``_KEY_CHECK_SETTINGS``; PostgreSQL). Analyse tables written just before: without
    statistics, the planner guesses."""
    return transaction_settings(session, _KEY_CHECK_SETTINGS)


@contextmanager
def transaction_settings(session: Session, settings: Mapping[str, str]) -> Iterator[None]:
    """Server ``settings`` for the block, within the transaction, and the transaction's own
    again after it (PostgreSQL), one round trip each way. A block that raises leaves them: its
    transaction is rolled back, and they with it."""
    names = {f"name_{k}": name for k, name in enumerate(settings)}
    current = ", ".join(f"current_setting(:{key})" for key in names)
    before = session.execute(text(f"SELECT {current}"), names).one()
    assign = text("SELECT " + ", ".join(f"set_config(:{key}, :value_{k}, true)" for k, key in enumerate(names)))
    session.execute(assign, {**names, **{f"value_{k}": value for k, value in enumerate(settings.values())}})
    yield
    session.execute(assign, {**names, **{f"value_{k}": value for k, value in enumerate(before)}})
