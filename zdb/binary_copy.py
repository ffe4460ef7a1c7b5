"""PostgreSQL's binary COPY format built from columns (numpy arrays), not row by row.

A COPY text line costs Python work for every value: formatting a number, joining the fields.
Binary COPY rows whose fields all have the same widths are one numpy structured array, filled a
column at a time and sent as it lies in memory. Rows differ in width only where a value is NULL
or a text has another length, so the rows are grouped by that layout and each group is one
structured array (a handful of groups for a batch of report rows). The rows come out grouped:
stable within a group, the groups in the order of their layouts. That suits tables whose rows
are found by key, as every table written this way is.

The format (PostgreSQL manual, "COPY", binary format): a signature and header, then per row a
16-bit field count and per field a 32-bit length (-1 for NULL) followed by the value in the type's
binary form, big-endian, and a 16-bit -1 at the end. ``SIGNATURE`` and ``TRAILER`` frame one COPY;
``encode_rows`` makes what goes between.

Why not a library: the Arrow ecosystem has maintained ones for this (pgpq 0.12 encodes Arrow
record batches as binary COPY; ADBC's PostgreSQL driver 1.13 ingests Arrow tables by binary COPY
in C and reads results as Arrow columns). ``benchmarks/columns_io.py`` measured them against
this encoder on the same 1.5 M history-like rows (the table's column types, JSON in 3 % of the
rows, chunks of ``store.BATCH_ROWS``) written into a bare copy of ``rating_history`` as the full
run writes it: four runs on the shared 2-core machine, medians of 7. This path wrote
660,000-775,000 rows/s; pgpq's encoding alone was about twice as fast (0.58-0.71 s of client
time against 1.15-1.36 s within the write, the Arrow batches included; warm and alone, 0.23 s
of CPU against 0.44-0.50 s), but its write as a whole came out at 0.77-1.04 of this path's
speed, ADBC's ingest at 0.79-0.93. The write is the server's:
the same data encoded beforehand and only sent was 1.12 and 1.29 times as fast as this path
(the two runs that timed it), a bound no encoder can pass, below the 1.3 that would pay for
pyarrow and a second way of writing. ADBC also writes over a connection of its own, outside
the session's transaction (the run's shadow tables and lock are not visible to it). So this
encoder stays.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Final, Literal, cast

import numpy as np
from numpy.typing import NDArray

__all__ = ["SIGNATURE", "TRAILER", "Column", "Kind", "day_numbers", "encode_rows"]

#: the file header: signature, flags (no OIDs), no header extension
SIGNATURE: Final = b"PGCOPY\n\xff\r\n\x00" + bytes(8)
TRAILER: Final = b"\xff\xff"

Kind = Literal["int2", "int4", "int8", "float8", "bool", "date", "numeric1", "text"]

#: binary forms of the fixed-width kinds (big-endian, as the protocol sends them)
_FIXED: Final[dict[str, str]] = {
    "int2": ">i2",
    "int4": ">i4",
    "int8": ">i8",
    "float8": ">f8",
    "bool": "u1",
    "date": ">i4",  # days since 2000-01-01
    "numeric1": ">i2,>i2,>i2,>i2,>i2,>i2",  # see _numeric_tenths
}
_FIXED_WIDTH: Final = {kind: np.dtype(form).itemsize for kind, form in _FIXED.items()}
_POSTGRES_EPOCH: Final = date(2000, 1, 1).toordinal()
#: a numeric's base-10000 digits: one before the decimal point, one after
_NUMERIC_BASE: Final = 10_000


@dataclass(frozen=True, slots=True)
class Column:
    """One column of rows: its kind, its values (one per row), and where it is not NULL
    (``None``: everywhere).

    - ``date``: day numbers (``day_numbers``).
    - ``numeric1``: a ``numeric`` with one decimal, as whole tenths (``12.5`` is ``125``);
      0 to 9,999.9.
    - ``text``: UTF-8 bytes in a numpy ``S`` array (no NUL characters), or ``bytes`` in an
      object array (texts of many lengths, where an ``S`` array would be as wide as the
      longest); also for ``json``, whose binary form is its text.
    - ``bool`` and the numbers: any numpy array that converts to the type without loss.
    """

    kind: Kind
    values: NDArray[np.generic]
    present: NDArray[np.bool_] | None = None


def day_numbers(days: NDArray[np.int64]) -> NDArray[np.int64]:
    """Proleptic Gregorian ordinals (``date.toordinal``) as the ``date`` column's values."""
    result: NDArray[np.int64] = days - _POSTGRES_EPOCH
    return result


def encode_rows(columns: list[Column]) -> bytes:
    """The rows of ``columns`` in binary COPY form (without ``SIGNATURE`` and ``TRAILER``)."""
    if not columns:
        raise ValueError("a row has at least one column")
    count = len(columns[0].values)
    if any(len(column.values) != count for column in columns):
        raise ValueError("every column has a value for every row")
    if count == 0:
        return b""
    present = [np.ones(count, dtype=bool) if c.present is None else np.asarray(c.present, dtype=bool) for c in columns]
    widths = [_widths(column, count) for column in columns]
    groups, inverse = _layouts(present, widths)
    order = np.argsort(inverse, kind="stable")
    bounds = np.concatenate(([0], np.cumsum(np.bincount(inverse, minlength=groups))))
    chunks = []
    for g in range(groups):
        rows = order[bounds[g] : bounds[g + 1]]
        first = int(rows[0])
        layout = [
            (bool(p[first]), _FIXED_WIDTH[c.kind] if w is None else int(w[first]))
            for c, p, w in zip(columns, present, widths, strict=True)
        ]
        chunks.append(_group(columns, rows, layout))
    return b"".join(chunks)


def _widths(column: Column, count: int) -> NDArray[np.int64] | None:
    """Each row's value width in bytes where it varies (text), else ``None``."""
    if column.kind != "text":
        return None
    if column.values.dtype.kind == "O":
        return np.fromiter(map(len, column.values.tolist()), dtype=np.int64, count=len(column.values))
    if column.values.dtype.kind != "S":
        raise TypeError("a text column holds bytes (numpy S, or objects)")
    texts = cast(NDArray[np.bytes_], column.values)
    lengths: NDArray[np.int64] = np.char.str_len(texts).astype(np.int64)
    return lengths


def _layouts(present: list[NDArray[np.bool_]], widths: list[NDArray[np.int64] | None]) -> tuple[int, NDArray[np.intp]]:
    """How many layouts the rows have, and each row's layout (0, 1, ...)."""
    key = np.zeros(len(present[0]), dtype=np.int64)
    bits = 0
    for flags, width in zip(present, widths, strict=True):
        if width is not None:
            size = int(width.max()).bit_length()
            key = (key << size) | np.where(flags, width, 0)
            bits += size
        key = (key << 1) | flags
        bits += 1
    if bits > 62:  # pragma: no cover - no table written this way comes near
        stacked = np.column_stack([*present, *(width for width in widths if width is not None)])
        _, inverse = np.unique(stacked, axis=0, return_inverse=True)
        return int(inverse.max()) + 1, inverse.ravel()
    kinds, inverse = np.unique(key, return_inverse=True)
    return len(kinds), inverse


def _group(columns: list[Column], rows: NDArray[np.intp], layout: list[tuple[bool, int]]) -> bytes:
    """Rows of one layout: (present, width) per column."""
    fields: list[tuple[str, str]] = [("count", ">i2")]
    for k, (column, (there, width)) in enumerate(zip(columns, layout, strict=True)):
        fields.append((f"length{k}", ">i4"))
        if there and width:
            fields.append((f"value{k}", f"S{width}" if column.kind == "text" else _FIXED[column.kind]))
    table = np.empty(len(rows), dtype=np.dtype(fields))
    table["count"] = len(columns)
    for k, (column, (there, width)) in enumerate(zip(columns, layout, strict=True)):
        table[f"length{k}"] = width if there else -1
        if not (there and width):
            continue
        values = column.values[rows]
        if column.kind == "date":
            values = day_numbers(values.astype(np.int64))
        elif column.kind == "numeric1":
            values = _numeric_tenths(values.astype(np.int64))
        table[f"value{k}"] = values
    return table.tobytes()


def _numeric_tenths(tenths: NDArray[np.int64]) -> NDArray[np.void]:
    """``numeric`` values with one decimal, from whole tenths: 2 digits (base 10,000), weight
    0, sign positive, display scale 1; the digits the one before and the one after the point
    (12.5 is 12 and 5000). The server strips the zero digits that this fixed form may carry."""
    if tenths.size and (int(tenths.min()) < 0 or int(tenths.max()) >= _NUMERIC_BASE * 10):
        raise ValueError("a numeric1 value lies between 0 and 9,999.9")
    whole, tenth = np.divmod(tenths, 10)
    result = np.empty(len(tenths), dtype=np.dtype(_FIXED["numeric1"]))
    for name, value in zip(result.dtype.names or (), (2, 0, 0, 1, whole, tenth * 1000), strict=True):
        result[name] = value
    return result
