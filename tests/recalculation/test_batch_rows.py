"""Whole tournament steps written as binary rows from their batches' columns
(``batch_rows``) store exactly what the text lines of ``copy_lines`` store: the same replay is
written both ways into two pairs of bare tables and compared row for row by the server.

The replay is the synthetic federation's: first ratings, leftover games, FIDE starts,
exceptional players, both rule sets (E and K). The test checks that each of them occurs, so
that the comparison covers it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import text
from sqlalchemy.orm import Session

from zdb.bulk import copy_text
from zdb.db import engine_for, unit_of_work
from zdb.rating import Step, build_timeline, replay_steps
from zdb.recalculation.copy_lines import (
    EVALUATION_COLUMNS,
    HISTORY_COLUMNS,
    HistoryLines,
    evaluation_lines,
)
from zdb.recalculation.store import write_steps
from zdb.synthetic import generate
from zdb.timeline.models import Evaluation, HistoryRow

TABLES = (HistoryRow.__tablename__, Evaluation.__tablename__)


@pytest.fixture(scope="module")
def steps() -> list[Step]:
    federation = generate(3, 0.02)
    return list(replay_steps(federation.initial_states, build_timeline(federation.submissions)))


def _versions(steps: list[Step]) -> Iterator[tuple[Step, int | None]]:
    # A version per tournament that differs from tournament to tournament.
    return ((step, 1 + step.key[3] % 3 if step.key[1] == 1 else None) for step in steps)


def _bare_tables(session: Session, prefix: str) -> None:
    for table in TABLES:
        session.execute(text(f"CREATE TEMPORARY TABLE {prefix}_{table} (LIKE {table})"))


def _write_as_text(session: Session, steps: list[Step], prefix: str) -> None:
    history = HistoryLines()
    with copy_text(session, f"{prefix}_{HistoryRow.__tablename__}", HISTORY_COLUMNS) as write:
        write("".join(line for step, version in _versions(steps) for line in history.of(step, version)))
    with copy_text(session, f"{prefix}_{Evaluation.__tablename__}", EVALUATION_COLUMNS) as write:
        write(
            "".join(
                evaluation_lines(step.key[3], version, step)
                for step, version in _versions(steps)
                if version is not None
            )
        )


def _count(session: Session, query: str) -> int:
    return int(session.execute(text(query)).scalar_one())


@pytest.mark.parametrize("order", ["as replayed", "reversed"])
def test_binary_rows_store_what_text_lines_store(postgres_url: str, steps: list[Step], order: str) -> None:
    # An incremental run writes steps in time-line order, which need not be their batch's:
    # reversed, no batch's tournaments come in its order.
    written = steps if order == "as replayed" else steps[::-1]
    with unit_of_work(engine_for(postgres_url)) as session:
        _bare_tables(session, "b")
        _bare_tables(session, "t")
        write_steps(session, _versions(written), into=lambda table: f"b_{table}")
        _write_as_text(session, steps, "t")
        for table in TABLES:
            rows = _count(session, f"SELECT count(*) FROM t_{table}")
            assert rows > 10_000
            assert _count(session, f"SELECT count(*) FROM b_{table}") == rows
            # json has no equality: compared as text, as both forms wrote it
            for mine, theirs in (("b", "t"), ("t", "b")):
                difference = f"SELECT * FROM {mine}_{table} EXCEPT ALL SELECT * FROM {theirs}_{table}"
                if table == HistoryRow.__tablename__:
                    columns = ", ".join(f"{c}::text" if c.endswith("leftover") else c for c in HISTORY_COLUMNS)
                    difference = (
                        f"SELECT {columns} FROM {mine}_{table} EXCEPT ALL SELECT {columns} FROM {theirs}_{table}"
                    )
                assert _count(session, f"SELECT count(*) FROM ({difference}) AS d") == 0, (mine, table)
        # What the comparison covered (each would be missed by a writer that drops it).
        evaluations, history = "t_" + Evaluation.__tablename__, "t_" + HistoryRow.__tablename__
        covered = {
            "first ratings": f"SELECT count(*) FROM {evaluations} WHERE stage IN ('stage1', 'stage2') AND stored",
            "leftover games": f"SELECT count(*) FROM {history} WHERE new_leftover IS NOT NULL",
            "leftover used": f"SELECT count(*) FROM {evaluations} WHERE leftover_used > 0",
            "FIDE starts": f"SELECT count(*) FROM {evaluations} WHERE fide_start",
            "exceptional players": f"SELECT count(*) FROM {evaluations} WHERE sonder",
            "E (classic)": f"SELECT count(*) FROM {evaluations} WHERE e IS NOT NULL",
            "K (WO 2026)": f"SELECT count(*) FROM {evaluations} WHERE k IS NOT NULL",
            "guests": f"SELECT count(*) FROM {evaluations} WHERE NOT member",
            "no rating before": f"SELECT count(*) FROM {history} WHERE old_rating IS NULL",
            "half points": f"SELECT count(*) FROM {evaluations} WHERE w <> trunc(w)",
        }
        missing = [name for name, query in covered.items() if _count(session, query) == 0]
        assert missing == []
