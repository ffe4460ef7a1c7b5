"""Set-based writes: PostgreSQL's COPY where we have it, executemany elsewhere (SQLite).

A row-at-a-time ORM insert is some 40 times slower than COPY on the machines we measured; the
recalculation writes hundreds of thousands of rows, so every bulk write goes through here.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import JSON, Table, insert
from sqlalchemy.orm import Session

__all__ = ["copy_rows"]


def _copy_value(value: Any) -> Any:
    if isinstance(value, (list, dict)):
        return json.dumps(value, separators=(",", ":"))
    return value


def copy_rows(session: Session, table: Table, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> int:
    """Insert ``rows`` (tuples in the order of ``columns``) into ``table``; returns the count."""
    connection = session.connection()
    if connection.dialect.name == "postgresql":
        driver = connection.connection.driver_connection
        assert driver is not None
        count = 0
        statement = f"COPY {table.name} ({', '.join(columns)}) FROM STDIN"
        json_columns = any(isinstance(table.c[c].type, JSON) for c in columns)
        with driver.cursor() as cursor, cursor.copy(statement) as copy:
            for row in rows:
                copy.write_row([_copy_value(v) for v in row] if json_columns else row)
                count += 1
        return count
    batch = [dict(zip(columns, row, strict=True)) for row in rows]
    if batch:
        connection.execute(insert(table), batch)
    return len(batch)
