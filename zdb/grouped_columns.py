"""Integer columns of millions of rows read as numpy arrays, grouped by a key.

A from-scratch recalculation reads every game ever played. Fetched as rows, each value first
becomes a Python object (about a second per million rows on the machines we measured), and
PostgreSQL's binary COPY sends one message per row, which costs as much. Here the server packs
each group's values into one byte string per column (``string_agg`` of the values' binary
form, ``int8send`` and its kin), so a few tens of thousands of rows carry millions of values
and each column becomes one ``frombuffer``, with no Python code per value. SQLite (the
embedded mode, small data) builds the same arrays from rows.

PostgreSQL aggregates a sorted subquery's rows in the order they come, but SQL does not
promise it (an ordered aggregate sorts every group again, which costs twice the read). So the
order column travels along and each group's order is checked; a group that came out of order
is put in order here.

ADBC's PostgreSQL driver (1.13), which reads a result as Arrow columns in C, read the same
ordered integer columns of 1.5 M rows at 0.75-0.98 of this read's speed (``benchmarks/columns_io.py``,
four runs, medians of 7; 765,000-885,000 rows/s here), and psycopg's binary server-side cursor
into arrays at 0.40-0.44: this read stays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import groupby
from operator import itemgetter
from typing import Any

import numpy as np
from numpy.typing import NDArray
from sqlalchemy import BigInteger, Integer, LargeBinary, Select, SmallInteger, cast, func, literal, select
from sqlalchemy.orm import Session

from zdb.bulk import stream_rows, transaction_settings
from zdb.db import is_postgres

__all__ = ["GroupedColumns", "read_grouped_columns"]

Ints = NDArray[np.int64]
#: array type -> (SQL type, the function sending its big-endian binary form)
_WIRE = {"int16": (SmallInteger(), "int2send"), "int32": (Integer(), "int4send"), "int64": (BigInteger(), "int8send")}


#: the read's own settings (``read_grouped_columns``)
_READ_SETTINGS = {"jit": "off", "work_mem": "64MB"}


@dataclass(frozen=True, slots=True)
class GroupedColumns:
    """Rows grouped by key: group g holds rows ``starts[g]`` to ``starts[g + 1]`` of every
    column, in the order column's order."""

    keys: list[tuple[Any, ...]]
    starts: Ints
    columns: list[NDArray[Any]]


def read_grouped_columns(
    session: Session, source: Select[*tuple[Any, ...]], keys: int, dtypes: Sequence[str]
) -> GroupedColumns:
    """The rows of ``source`` grouped by its first ``keys`` columns (groups in key order), and
    its other columns as arrays of ``dtypes`` (``int16``, ``int32``, ``int64``); the first of
    them orders the rows within a group and must be unique there. Values must not be NULL
    (coalesce them in ``source``)."""
    columns = list(source.selected_columns)
    if len(columns) != keys + len(dtypes):
        raise ValueError("one array type per column after the keys")
    if not is_postgres(session):
        return _from_rows(session, source, keys, dtypes)
    inner = source.order_by(*columns[: keys + 1]).subquery()
    key_columns = list(inner.c)[:keys]
    empty = literal(b"", LargeBinary)
    packed = [
        func.string_agg(getattr(func, _WIRE[d][1])(cast(c, _WIRE[d][0])), empty)
        for c, d in zip(list(inner.c)[keys:], dtypes, strict=True)
    ]
    query = select(*key_columns, *packed).group_by(*key_columns).order_by(*key_columns)
    # The server would compile this plan to machine code first (its cost estimate is high),
    # which takes longer than running it. It sorts the rows of the groups asked for (a window
    # of a from-scratch run: some 200,000 games) before packing them: in memory, not in files
    # (measured: that sort 30 % faster, the whole read a fifth). The binary cursor takes the
    # byte strings as they are.
    with transaction_settings(session, _READ_SETTINGS):
        rows = list(stream_rows(session, query, server_side=False))
    sizes = [np.dtype(d).itemsize for d in dtypes]
    counts = [len(row[keys] or b"") // sizes[0] for row in rows]
    for row, count in zip(rows, counts, strict=True):
        # string_agg skips NULL: a column with one is shorter than the order column, or NULL
        if any(len(row[keys + k] or b"") != count * size for k, size in enumerate(sizes)) or not count:
            raise ValueError("a column holds NULL")
    starts = _starts(counts)
    arrays = [
        np.frombuffer(b"".join(row[keys + k] for row in rows), dtype=np.dtype(d).newbyteorder(">")).astype(d)
        for k, d in enumerate(dtypes)
    ]
    return _in_order(GroupedColumns([tuple(row[:keys]) for row in rows], starts, arrays))


def _starts(counts: list[int]) -> Ints:
    starts = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=starts[1:])
    return starts


def _in_order(grouped: GroupedColumns) -> GroupedColumns:
    order, starts = grouped.columns[0], grouped.starts
    rising = np.diff(order) > 0
    rising[starts[1:-1] - 1] = True  # a group may start below the end of the one before
    if rising.all():
        return grouped
    group = np.repeat(np.arange(len(grouped.keys)), np.diff(starts))
    permutation = np.lexsort((order, group))
    return GroupedColumns(grouped.keys, starts, [column[permutation] for column in grouped.columns])


def _from_rows(session: Session, source: Select[*tuple[Any, ...]], keys: int, dtypes: Sequence[str]) -> GroupedColumns:
    columns = list(source.selected_columns)
    rows = session.execute(source.order_by(*columns[: keys + 1])).all()
    key_of = itemgetter(*range(keys))
    group_keys: list[tuple[Any, ...]] = []
    counts: list[int] = []
    for key, members in groupby(rows, key_of):
        group_keys.append(key if keys > 1 else (key,))
        counts.append(sum(1 for _ in members))
    starts = _starts(counts)
    values = [[row[keys + k] for row in rows] for k in range(len(dtypes))]
    if any(None in column for column in values):
        raise ValueError("a column holds NULL")
    arrays = [np.array(column, dtype=d) for column, d in zip(values, dtypes, strict=True)]
    return GroupedColumns(group_keys, starts, arrays)
