"""Rebuilding derived tables whole: fill a bare copy, index it, swap it in (PostgreSQL).

A from-scratch recalculation replaces every row of the rating history and of the evaluations.
Storing millions of rows into the live tables costs the server an insertion into every index
and a foreign-key look-up per row: on the synthetic federation about four times as long as
storing them bare. So the run fills a bare copy of each table (the same columns, defaults and
checks; no index, no foreign key), then builds the indexes in bulk and validates each foreign
key with one set-based query, and only then swaps the copy in: it drops the live table and
gives the copy its name, its indexes and its constraints.

Readers keep seeing the old rows while the run computes and wait only for the swap at its end
(its locks are held until the run commits). Everything happens in the run's transaction: a run
that fails or is killed leaves the live tables as they were. The indexes and constraints are
read from the live table, so a migration that changes them needs no change here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import count

from sqlalchemy import text
from sqlalchemy.orm import Session

from zdb.bulk import whole_table_key_checks

__all__ = ["ShadowTables"]

_SUFFIX = "_rebuilt"
_SORT_MEMORY = "256MB"


@dataclass(slots=True)
class _Definitions:
    """What the live table has besides its columns and checks."""

    #: (name, UNIQUE or "", access method and columns) of indexes that back no constraint
    indexes: list[tuple[str, str, str]] = field(default_factory=list)
    #: (name, definition) of primary key, unique and foreign-key constraints, keys first
    constraints: list[tuple[str, str]] = field(default_factory=list)


class ShadowTables:
    """Bare copies of ``tables``: ``create`` them, fill ``target(table)``, then ``swap``."""

    def __init__(self, session: Session, tables: Sequence[str]) -> None:
        self._session = session
        self._tables = tuple(tables)
        self._definitions: dict[str, _Definitions] = {}
        self._names = (f"zdb_rebuilt_{k}" for k in count())  # temporary names, unique in the schema

    @staticmethod
    def target(table: str) -> str:
        """The copy that stands in for ``table`` until the swap."""
        return f"{table}{_SUFFIX}"

    def create(self) -> None:
        for table in self._tables:
            self._definitions[table] = self._read(table)
            self._execute(f"CREATE TABLE {self.target(table)} (LIKE {table} INCLUDING DEFAULTS INCLUDING CONSTRAINTS)")

    def swap(self) -> None:
        """Index and constrain each copy under temporary names, then drop the live table and
        give the copy its name and the canonical names."""
        # Room to sort a table's index in memory (the server's default spills to disk), for
        # this transaction only.
        self._execute(f"SET LOCAL maintenance_work_mem = '{_SORT_MEMORY}'")
        for table in self._tables:
            copy, definitions = self.target(table), self._definitions[table]
            # Statistics first: a foreign key is checked by one join over the whole copy, and
            # planned for a table the planner knows nothing of, the evaluations' key took 15 s
            # instead of 1.5 s at scale 1 of the synthetic federation. They stay with the copy
            # when it takes the live table's name.
            self._execute(f"ANALYZE {copy}")
            renames: list[str] = []
            for name, unique, method in definitions.indexes:
                temporary = next(self._names)
                self._execute(f"CREATE {unique}INDEX {temporary} ON {copy} USING {method}")
                renames.append(f"ALTER INDEX {temporary} RENAME TO {name}")
            with whole_table_key_checks(self._session):
                for name, definition in definitions.constraints:
                    temporary = next(self._names)
                    self._execute(f"ALTER TABLE {copy} ADD CONSTRAINT {temporary} {definition}")
                    renames.append(f"ALTER TABLE {table} RENAME CONSTRAINT {temporary} TO {name}")
            self._execute(f"DROP TABLE {table}")
            self._execute(f"ALTER TABLE {copy} RENAME TO {table}")
            for statement in renames:
                self._execute(statement)

    def _read(self, table: str) -> _Definitions:
        definitions = _Definitions()
        indexes = self._session.execute(
            text(
                "SELECT c.relname, i.indisunique, pg_get_indexdef(i.indexrelid) FROM pg_index i"
                " JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = CAST(:table AS regclass)"
                " AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid"
                " AND k.conrelid = i.indrelid AND k.contype IN ('p', 'u', 'x')) ORDER BY c.relname"
            ),
            {"table": table},
        )
        for name, unique, statement in indexes:
            # pg_get_indexdef: CREATE [UNIQUE] INDEX name ON [ONLY] table USING method (columns) ...
            definitions.indexes.append((name, "UNIQUE " if unique else "", statement.split(" USING ", 1)[1]))
        constraints = self._session.execute(
            text(
                "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint"
                " WHERE conrelid = CAST(:table AS regclass) AND contype IN ('p', 'u', 'f')"
                " ORDER BY contype = 'f', conname"
            ),
            {"table": table},
        )
        definitions.constraints.extend((name, definition) for name, definition in constraints)
        return definitions

    def _execute(self, statement: str) -> None:
        self._session.execute(text(statement))
