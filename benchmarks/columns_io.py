"""Columns to and from PostgreSQL: the project's own code against the Arrow libraries made for it.

    python benchmarks/columns_io.py [--rows 1500000] [--repeats 5] [--chunk 32768] [--seed 1]
                                    [--server postgresql+psycopg://postgres@127.0.0.1:5432/postgres]
                                    [--database zdb_bench_columns]

Needs the libraries compared, which the project itself does not use: the ``bench`` extra
(``pip install -e '.[bench]'``).

A full recalculation writes every history row from the engine's report columns as binary COPY
(``zdb.binary_copy.encode_rows``, through ``bulk.copy_binary``) into a bare copy of
``rating_history``, and reads the stored games as integer columns grouped by tournament
(``zdb.grouped_columns``). This script generates history-like rows (the table's own column
types: a date, small and large integers, a short text, NULLs, JSON in a few rows, booleans)
and, in one run on the same rows, measures:

- writing them into a bare copy of ``rating_history`` (``LIKE ... INCLUDING DEFAULTS INCLUDING
  CONSTRAINTS``, as ``recalculation.shadow_tables`` makes it), from the same numpy columns, by
  ``hand``: ``encode_rows`` per chunk + psycopg's COPY (the project's path); ``pgpq``: the
  columns as Arrow record batches, encoded by pgpq's ``ArrowToPostgresBinaryEncoder`` + the
  same psycopg COPY; ``adbc``: the same record batches handed to ADBC's PostgreSQL driver
  (``adbc_ingest``, one binary COPY in C over its own libpq connection). Each includes building
  its input from the columns, the COPY and the commit; the encoding alone (client CPU) is
  reported beside it. Their floor, ``floor``: the project's COPY data encoded beforehand and
  only sent, the server's share of every variant.
- reading them back as integer columns grouped by (tournament, version), ordered by person
  number within a group, by ``grouped``: ``read_grouped_columns`` (the project's path);
  ``adbc``: the ordered rows fetched as an Arrow table (``fetch_arrow_table``), turned into the
  same arrays and group bounds; ``cursor``: psycopg's binary server-side cursor
  (``bulk.stream_rows``, as the stored history is read now), tuples into arrays.

Every variant's result is checked against the project's path (the written tables' contents as
text, the arrays read) before a figure is printed. The variants run interleaved, in a rotating
order, ``--repeats`` times; the figures are medians (rows/s, and the ratio to the project's
path: above 1 is faster than it). The machine is shared and noisy: ratios are the figures to
read.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date
from typing import Any

import numpy as np
import psycopg
from numpy.typing import NDArray
from scratch_database import fresh_database  # beside this script
from sqlalchemy import BigInteger, Integer, SmallInteger, column, func, select, table
from sqlalchemy.engine import make_url

from zdb.binary_copy import Column, encode_rows
from zdb.bulk import copy_binary, stream_rows
from zdb.db import create_db_engine, unit_of_work
from zdb.grouped_columns import GroupedColumns, read_grouped_columns
from zdb.migrate import upgrade
from zdb.recalculation.copy_lines import HISTORY_COLUMNS

DATABASE = "zdb_bench_columns"
_UNIX_EPOCH = date(1970, 1, 1).toordinal()
_FIRST_DAY, _LAST_DAY = date(2006, 1, 1).toordinal(), date(2026, 6, 30).toordinal()
#: the grouped read: keys, then the order column and the values (``read_grouped_columns``)
_READ_TYPES = ("int64", "int32", "int32", "int16", "int16")


# --- the data: history-like rows as the engine's report columns give them ------------------


def generate(rows: int, seed: int) -> list[Column]:
    """``rows`` history rows of tournaments of 6 to 80 participants, in time order, as the
    columns of ``copy_lines.HISTORY_COLUMNS`` (what ``BatchRows`` hands to ``encode_rows``)."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(6, 81, size=rows // 6 + 1)
    sizes = sizes[: int(np.searchsorted(np.cumsum(sizes), rows)) + 1]
    sizes[-1] -= int(sizes.sum()) - rows
    tournaments = len(sizes)
    home = np.repeat(np.arange(tournaments), sizes)
    players = 10_000_000 + rng.choice(90_000_000, size=max(rows // 50, 100), replace=False)
    pkz = np.concatenate([rng.choice(players, size=int(n), replace=False) for n in sizes])
    days = np.sort(rng.integers(_FIRST_DAY, _LAST_DAY, size=tournaments))[home]
    letters = rng.integers(ord("A"), ord("Z") + 1, size=(tournaments, 3), dtype=np.uint8)
    acronyms = letters.view("S3").ravel()[home]
    ids = (np.arange(tournaments, dtype=np.int64) + 1)[home]
    versions = np.where(rng.random(tournaments) < 0.1, 2, 1)[home]
    has_old = rng.random(rows) > 0.04
    old = rng.integers(800, 2600, size=rows)
    old_index = np.where(has_old, rng.integers(1, 120, size=rows), 0)
    new = old + rng.integers(-40, 41, size=rows)
    has_new = has_old | (rng.random(rows) < 0.8)
    return [
        Column("date", days),
        Column("int2", np.ones(rows, dtype=np.int64)),
        Column("text", acronyms),
        Column("int4", ids),
        Column("int4", ids),
        Column("int4", versions),
        Column("int8", pkz),
        Column("int4", old, has_old),
        Column("int2", old_index),
        _leftovers(rng, rows),
        Column("int4", new, has_new),
        Column("int2", np.where(has_new, old_index + 1, 0)),
        _leftovers(rng, rows),
        Column("bool", rng.random(rows) < 0.97),
    ]


def _leftovers(rng: np.random.Generator, rows: int) -> Column:
    """Leftover games as JSON in about 3 % of the rows (``copy_lines.leftover_json``'s shape)."""
    present = rng.random(rows) < 0.03
    texts = np.full(rows, b"", dtype=object)
    for k in np.flatnonzero(present).tolist():
        games = [[int(rng.integers(1000, 2400)), float(rng.integers(0, 3)) / 2] for _ in range(int(rng.integers(1, 5)))]
        texts[k] = json.dumps(games).encode()
    return Column("text", texts, present)


def chunks(columns: list[Column], size: int) -> Iterator[list[Column]]:
    """The rows a chunk at a time, as a run hands its batches' rows on."""
    for start in range(0, len(columns[0].values), size):
        part = slice(start, start + size)
        yield [Column(c.kind, c.values[part], None if c.present is None else c.present[part]) for c in columns]


# --- the Arrow form of the same columns ------------------------------------------------------


def arrow_batch(columns: list[Column]) -> Any:
    """One record batch of the rows, in the table's column order and types."""
    import pyarrow as pa

    kinds = {"int2": pa.int16(), "int4": pa.int32(), "int8": pa.int64(), "bool": pa.bool_()}
    arrays = []
    for c in columns:
        mask = None if c.present is None else ~c.present
        if c.kind == "date":
            arrays.append(pa.array((c.values - _UNIX_EPOCH).astype(np.int32), pa.date32(), mask=mask))
        elif c.kind == "text":  # S arrays and bytes objects alike
            arrays.append(pa.array(c.values, pa.binary(), mask=mask).cast(pa.string()))
        else:
            arrays.append(pa.array(c.values, kinds[c.kind], mask=mask))
    return pa.RecordBatch.from_arrays(arrays, names=list(HISTORY_COLUMNS))


# --- the writes --------------------------------------------------------------------------------


@dataclass
class Measured:
    """A write's wall time; the client's time building its input (``encoding``: the binary
    COPY data for ``hand`` and ``pgpq``, the Arrow batches alone for ``adbc``, which encodes
    inside its ingest), and of that the time building Arrow batches (``arrow``)."""

    seconds: float
    encoding: float = 0.0
    arrow: float = 0.0


def _bare_table(driver: psycopg.Connection[Any], name: str) -> None:
    driver.execute(f"DROP TABLE IF EXISTS {name}")
    driver.execute(f"CREATE TABLE {name} (LIKE rating_history INCLUDING DEFAULTS INCLUDING CONSTRAINTS)")


def write_hand(url: str, columns: list[Column], size: int, target: str) -> Measured:
    engine = create_db_engine(url)
    try:
        started, encoding = time.perf_counter(), 0.0
        with unit_of_work(engine) as session, copy_binary(session, target, HISTORY_COLUMNS) as write:
            for part in chunks(columns, size):
                began = time.perf_counter()
                data = encode_rows(part)
                encoding += time.perf_counter() - began
                write(data)
        return Measured(time.perf_counter() - started, encoding)
    finally:
        engine.dispose()


def write_floor(url: str, columns: list[Column], size: int, target: str) -> Measured:
    """The server's share: the project's COPY data encoded beforehand (not timed), then sent."""
    data = [encode_rows(part) for part in chunks(columns, size)]
    engine = create_db_engine(url)
    try:
        started = time.perf_counter()
        with unit_of_work(engine) as session, copy_binary(session, target, HISTORY_COLUMNS) as write:
            for chunk in data:
                write(chunk)
        return Measured(time.perf_counter() - started)
    finally:
        engine.dispose()


def write_pgpq(url: str, columns: list[Column], size: int, target: str) -> Measured:
    import pgpq

    started, encoding, arrow = time.perf_counter(), 0.0, 0.0
    with psycopg.connect(_libpq(url)) as driver:
        statement = f"COPY {target} ({', '.join(HISTORY_COLUMNS)}) FROM STDIN (FORMAT BINARY)"
        with driver.cursor() as cursor, cursor.copy(statement) as copy:
            encoder = None
            for part in chunks(columns, size):
                began = time.perf_counter()
                batch = arrow_batch(part)
                arrow += time.perf_counter() - began
                if encoder is None:
                    encoder = pgpq.ArrowToPostgresBinaryEncoder(batch.schema)
                    copy.write(encoder.write_header())
                data = encoder.write_batch(batch)
                encoding += time.perf_counter() - began
                copy.write(data)
            assert encoder is not None
            copy.write(encoder.finish())
        driver.commit()
    return Measured(time.perf_counter() - started, encoding, arrow)


def write_adbc(url: str, columns: list[Column], size: int, target: str) -> Measured:
    import adbc_driver_postgresql.dbapi as adbc
    import pyarrow as pa

    started = time.perf_counter()
    encoding = 0.0

    def batches() -> Iterator[Any]:
        nonlocal encoding
        for part in chunks(columns, size):
            began = time.perf_counter()
            batch = arrow_batch(part)
            encoding += time.perf_counter() - began
            yield batch

    schema = arrow_batch(next(chunks(columns, 1))).schema
    with adbc.connect(_libpq(url)) as connection, connection.cursor() as cursor:
        cursor.adbc_ingest(target, pa.RecordBatchReader.from_batches(schema, batches()), mode="append")
        connection.commit()
    return Measured(time.perf_counter() - started, encoding, encoding)


def _contents(url: str, name: str) -> str:
    """The table's rows as text, in key order, as one digest."""
    with psycopg.connect(_libpq(url)) as driver:
        order = "event_date, event_phase, event_text, event_id, player_pkz"
        row = driver.execute(f"SELECT count(*), md5(string_agg(t::text, E'\\n' ORDER BY {order})) FROM {name} t")
        count, digest = row.fetchone() or (0, "")
    return f"{count}:{digest}"


# --- the reads -----------------------------------------------------------------------------------


def _history(name: str) -> Any:
    return table(
        name,
        column("tournament_id", Integer()),
        column("tournament_version", Integer()),
        column("player_pkz", BigInteger()),
        column("old_rating", Integer()),
        column("new_rating", Integer()),
        column("old_index", SmallInteger()),
        column("new_index", SmallInteger()),
    )


def _read_select(name: str) -> Any:
    h = _history(name).c
    return select(
        h.tournament_id,
        h.tournament_version,
        h.player_pkz,
        func.coalesce(h.old_rating, -1),
        func.coalesce(h.new_rating, -1),
        h.old_index,
        h.new_index,
    )


def _read_sql(name: str) -> str:
    return (
        "SELECT tournament_id, tournament_version, player_pkz, coalesce(old_rating, -1), coalesce(new_rating, -1),"
        f" old_index, new_index FROM {name} ORDER BY tournament_id, tournament_version, player_pkz"
    )


def read_grouped(url: str, name: str) -> GroupedColumns:
    engine = create_db_engine(url)
    try:
        with unit_of_work(engine) as session:
            return read_grouped_columns(session, _read_select(name), 2, _READ_TYPES)
    finally:
        engine.dispose()


def _grouped_from(keys: list[NDArray[Any]], values: list[NDArray[Any]]) -> GroupedColumns:
    """Rows in key order as ``GroupedColumns``: a group starts where a key changes."""
    count = len(keys[0])
    changes = np.zeros(count, dtype=bool)
    if count:
        changes[0] = True
        for key in keys:
            changes[1:] |= key[1:] != key[:-1]
    firsts = np.flatnonzero(changes)
    starts = np.append(firsts, count).astype(np.int64)
    group_keys = list(zip(*(key[firsts].tolist() for key in keys), strict=True))
    arrays = [np.ascontiguousarray(v, dtype=d) for v, d in zip(values, _READ_TYPES, strict=True)]
    return GroupedColumns(group_keys, starts, arrays)


def read_adbc(url: str, name: str) -> GroupedColumns:
    import adbc_driver_postgresql.dbapi as adbc

    with adbc.connect(_libpq(url)) as connection, connection.cursor() as cursor:
        cursor.execute(_read_sql(name))
        result = cursor.fetch_arrow_table()
        connection.rollback()
    arrays = [result.column(k).to_numpy() for k in range(result.num_columns)]
    return _grouped_from(arrays[:2], arrays[2:])


def read_cursor(url: str, name: str) -> GroupedColumns:
    engine = create_db_engine(url)
    try:
        with unit_of_work(engine) as session:
            h = _read_select(name)
            rows = list(stream_rows(session, h.order_by(*list(h.selected_columns)[:3])))
    finally:
        engine.dispose()
    columns = [np.fromiter((row[k] for row in rows), dtype=np.int64, count=len(rows)) for k in range(7)]
    return _grouped_from(columns[:2], columns[2:])


def _same(a: GroupedColumns, b: GroupedColumns) -> bool:
    return (
        a.keys == b.keys
        and np.array_equal(a.starts, b.starts)
        and all(np.array_equal(x, y) for x, y in zip(a.columns, b.columns, strict=True))
    )


# --- the run -------------------------------------------------------------------------------------


def _libpq(url: str) -> str:
    """The SQLAlchemy URL as libpq's (``postgresql://...``), which psycopg and ADBC take."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def _versions() -> dict[str, str]:
    from importlib.metadata import version

    names = ("numpy", "psycopg", "pyarrow", "pgpq", "adbc-driver-postgresql", "adbc-driver-manager")
    return {name: version(name) for name in names}


def _rotations(names: list[str], repeats: int) -> Iterator[str]:
    for r in range(repeats):
        yield from names[r % len(names) :] + names[: r % len(names)]


def run(*, rows: int, repeats: int, size: int, seed: int, server: str, database: str) -> dict[str, Any]:
    url = fresh_database(server, database)
    upgrade(url)
    began = time.perf_counter()
    columns = generate(rows, seed)
    generated = time.perf_counter() - began
    writers: dict[str, Callable[[str, list[Column], int, str], Measured]] = {
        "hand": write_hand,
        "pgpq": write_pgpq,
        "adbc": write_adbc,
        "floor": write_floor,
    }
    writes: dict[str, list[Measured]] = {name: [] for name in writers}
    with psycopg.connect(_libpq(url), autocommit=True) as driver:
        for name in _rotations(list(writers), repeats):
            target = f"history_{name}"
            _bare_table(driver, target)
            driver.execute("CHECKPOINT")  # each write starts with no dirty pages of the one before
            writes[name].append(writers[name](url, columns, size, target))
            print(f"write {name:5} {writes[name][-1].seconds:7.3f} s", file=sys.stderr, flush=True)
        for name in writers:
            driver.execute(f"VACUUM (ANALYZE) history_{name}")
    contents = {name: _contents(url, f"history_{name}") for name in writers}
    if len(set(contents.values())) != 1 or not contents["hand"].startswith(f"{rows}:"):
        raise AssertionError(f"the written tables differ: {contents}")
    readers: dict[str, Callable[[str, str], GroupedColumns]] = {
        "grouped": read_grouped,
        "adbc": read_adbc,
        "cursor": read_cursor,
    }
    reads: dict[str, list[float]] = {name: [] for name in readers}
    reference = None
    for name in _rotations(list(readers), repeats):
        started = time.perf_counter()
        result = readers[name](url, "history_hand")
        reads[name].append(time.perf_counter() - started)
        print(f"read  {name:7} {reads[name][-1]:7.3f} s", file=sys.stderr, flush=True)
        reference = reference or result
        if not _same(reference, result):
            raise AssertionError(f"{name} read other arrays")
    write_s = {name: statistics.median(m.seconds for m in measured) for name, measured in writes.items()}
    encode_s = {name: statistics.median(m.encoding for m in measured) for name, measured in writes.items()}
    arrow_s = {name: statistics.median(m.arrow for m in measured) for name, measured in writes.items()}
    read_s = {name: statistics.median(times) for name, times in reads.items()}
    return {
        "versions": _versions(),
        "rows": rows,
        "groups": len(reference.keys) if reference else 0,
        "chunk": size,
        "repeats": repeats,
        "generate_s": round(generated, 2),
        "write_s": {k: round(v, 3) for k, v in write_s.items()},
        "write_rows_per_s": {k: round(rows / v) for k, v in write_s.items()},
        "write_speed_over_hand": {k: round(write_s["hand"] / v, 2) for k, v in write_s.items()},
        "encode_s": {k: round(v, 3) for k, v in encode_s.items() if v},
        "encode_rows_per_s": {k: round(rows / v) for k, v in encode_s.items() if v},
        "arrow_build_s": {k: round(v, 3) for k, v in arrow_s.items() if v},
        "read_s": {k: round(v, 3) for k, v in read_s.items()},
        "read_rows_per_s": {k: round(rows / v) for k, v in read_s.items()},
        "read_speed_over_grouped": {k: round(read_s["grouped"] / v, 2) for k, v in read_s.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_500_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--chunk", type=int, default=32_768, help="rows per encoded chunk (store.BATCH_ROWS)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--server", default=os.environ.get("ZDB_BENCH_SERVER", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
    )
    parser.add_argument("--database", default=DATABASE)
    args = parser.parse_args()
    chosen = {"rows": args.rows, "repeats": args.repeats, "size": args.chunk, "seed": args.seed}
    figures = run(**chosen, server=args.server, database=args.database)
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
