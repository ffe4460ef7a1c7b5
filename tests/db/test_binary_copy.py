"""Binary COPY rows built from columns (``zdb.binary_copy``, ``zdb.bulk.copy_binary``) read
back from PostgreSQL as the values they were made from: every kind, NULLs, texts of many
lengths, numerics at their limits; and text and binary data for one table through
``TextCopies``."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from decimal import Decimal
from typing import Any

import numpy as np
import pytest
from sqlalchemy import text
from sqlalchemy.orm import Session

from zdb.binary_copy import Column, encode_rows
from zdb.bulk import TextCopies, copy_binary
from zdb.db import engine_for, unit_of_work

KINDS = "a smallint, b integer, c bigint, d double precision, e boolean, f date, g numeric(6,1), h text, i json"
NAMES = tuple("abcdefghi")


def _table(session: Session) -> None:
    session.execute(text(f"CREATE TEMPORARY TABLE kinds ({KINDS})"))


def _columns() -> tuple[list[Column], list[tuple[Any, ...]]]:
    texts = ["", "x", "Schachfreunde Ölbronn", "tab\there", "a" * 300]
    rows = []
    for k in range(40):
        t = texts[k % len(texts)]
        rows.append(
            (
                -k if k % 7 else None,
                k * 1_000_003 - 20_000_000,
                k * 10**12,
                None if k % 5 == 1 else k / 3,
                k % 2 == 0,
                date(1950 + k, 1 + k % 12, 1 + k % 28),
                [0, 5, 15, 99_999, 123_45][k % 5],
                None if k % 9 == 4 else t,
                None if k % 4 else f'[[{k},"2025-05-04",1480,0.5,false]]' + " " * k,
            )
        )

    def column(k: int) -> list[object]:
        return [row[k] for row in rows]

    def flags(k: int) -> np.ndarray:
        return np.array([v is not None for v in column(k)])

    def filled(k: int, empty: object) -> list[object]:
        return [empty if v is None else v for v in column(k)]

    columns = [
        Column("int2", np.array(filled(0, 0)), flags(0)),
        Column("int4", np.array(column(1))),
        Column("int8", np.array(column(2))),
        Column("float8", np.array(filled(3, 0.0)), flags(3)),
        Column("bool", np.array(column(4))),
        Column("date", np.array([d.toordinal() for d in column(5)])),  # type: ignore[attr-defined]
        Column("numeric1", np.array(column(6))),
        Column("text", np.array([str(v).encode() for v in filled(7, "")], dtype=np.bytes_), flags(7)),
        Column("text", np.array([str(v).encode() for v in filled(8, "")], dtype=object), flags(8)),
    ]
    expected = [(*row[:6], Decimal(str(row[6])) / 10, *row[7:]) for row in rows]
    return columns, expected


def _read(session: Session) -> list[tuple[object, ...]]:
    query = f"SELECT {', '.join(NAMES[:-1])}, i::text FROM kinds ORDER BY b"
    return [tuple(row) for row in session.execute(text(query))]


def test_rows_of_every_kind_read_back_as_made(postgres_url: str) -> None:
    columns, expected = _columns()
    with unit_of_work(engine_for(postgres_url)) as session:
        _table(session)
        with copy_binary(session, "kinds", NAMES) as write:
            write(encode_rows(columns))
            write(encode_rows([Column(c.kind, c.values[:0], None) for c in columns]))  # no rows: nothing
        assert _read(session) == expected


def test_text_lines_and_binary_rows_of_one_table_share_the_copies(postgres_url: str) -> None:
    columns, expected = _columns()
    high = range(2_000_000_000, 2_000_000_003)  # after every b of ``_columns``
    lines = "".join(f"7\t{b}\t0\t\\N\tt\t2000-01-01\t0.5\tline\t\\N\n" for b in high)
    tables: dict[str, Sequence[str]] = {"kinds": NAMES}
    with unit_of_work(engine_for(postgres_url)) as session:
        _table(session)
        with TextCopies(session, tables, switch_at=10) as copies:
            assert copies.binary
            copies.write("kinds", lines)
            copies.write("kinds", encode_rows(columns))  # another COPY: the text one ends
            copies.write("kinds", lines)
            with pytest.raises(KeyError):
                copies.write("other", lines)
        rows = _read(session)
    assert rows[:-6] == expected
    assert rows[-6:] == sorted(2 * [(7, b, 0, None, True, date(2000, 1, 1), 0.5, "line", None) for b in high])


def test_values_the_format_cannot_carry_are_refused() -> None:
    with pytest.raises(ValueError, match=r"9,999\.9"):
        encode_rows([Column("numeric1", np.array([100_000]))])
    with pytest.raises(ValueError, match=r"9,999\.9"):
        encode_rows([Column("numeric1", np.array([-5]))])
    with pytest.raises(ValueError, match="every column"):
        encode_rows([Column("int4", np.array([1, 2])), Column("int4", np.array([1]))])
    with pytest.raises(ValueError, match="at least one column"):
        encode_rows([])
    with pytest.raises(TypeError, match="bytes"):
        encode_rows([Column("text", np.array(["unicode"]))])


def test_binary_copies_are_postgresqls(sqlite_url: str) -> None:
    with unit_of_work(engine_for(sqlite_url)) as session:
        with pytest.raises(NotImplementedError), copy_binary(session, "players", ("pkz",)):
            pass  # pragma: no cover - refused on entering
        assert not TextCopies(session, {}).binary
