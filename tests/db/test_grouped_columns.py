"""Grouped integer columns (``zdb.grouped_columns``) on both backends: the same groups, values
and order as the rows a plain select returns, NULL refused, a group out of order put right."""

from __future__ import annotations

from itertools import groupby

import numpy as np
import pytest
from sqlalchemy import Integer, cast, func, select, text

from tests.conftest import VECTORS
from tests.db.scenario import submit
from zdb.db import engine_for, unit_of_work
from zdb.grouped_columns import GroupedColumns, _in_order, read_grouped_columns
from zdb.tournaments.models import GameRow, Participation

REPLAY = VECTORS["replays"][0]


def test_groups_hold_the_rows_of_a_plain_select_in_order(database_url: str) -> None:
    submit(database_url, {"initial_states": {}, "events": REPLAY["events"]})
    p = Participation
    source = select(
        p.tournament_id, p.version, p.position, p.player_pkz, func.coalesce(p.birth_year, -1), cast(p.member, Integer)
    )
    with unit_of_work(engine_for(database_url)) as session:
        rows = session.execute(source.order_by(p.tournament_id, p.version, p.position)).all()
        grouped = read_grouped_columns(session, source, 2, ("int32", "int64", "int16", "int16"))
    expected = {key: [tuple(r[2:]) for r in group] for key, group in groupby(rows, lambda r: (r[0], r[1]))}
    assert len(expected) == len(REPLAY["events"]) > 1
    assert grouped.keys == list(expected)
    assert [c.dtype for c in grouped.columns] == [np.int32, np.int64, np.int16, np.int16]
    got = {
        key: list(zip(*(c[grouped.starts[g] : grouped.starts[g + 1]].tolist() for c in grouped.columns), strict=True))
        for g, key in enumerate(grouped.keys)
    }
    assert got == expected


def test_the_read_leaves_the_transaction_settings_as_it_found_them(postgres_url: str) -> None:
    """The read turns off JIT and sorts in more memory for itself only."""
    submit(postgres_url, {"initial_states": {}, "events": REPLAY["events"]})
    settings = text("SELECT current_setting('jit'), current_setting('work_mem')")
    source = select(Participation.tournament_id, Participation.version, Participation.position)
    with unit_of_work(engine_for(postgres_url)) as session:
        session.execute(text("SELECT set_config('work_mem', '5MB', true)"))
        before = session.execute(settings).one()
        read_grouped_columns(session, source, 2, ("int32",))
        assert session.execute(settings).one() == before
        assert before[1] == "5MB"


def test_a_null_value_is_refused(database_url: str) -> None:
    submit(database_url, {"initial_states": {}, "events": REPLAY["events"]})
    g = GameRow
    with unit_of_work(engine_for(database_url)) as session:
        assert session.execute(select(func.count()).where(g.round.is_(None))).scalar_one() > 0
        with pytest.raises(ValueError, match="NULL"):
            read_grouped_columns(session, select(g.tournament_id, g.version, g.seq, g.round), 2, ("int32", "int32"))


def test_a_group_that_came_out_of_order_is_put_in_order() -> None:
    # The server aggregates a sorted subquery in order in practice; SQL does not promise it.
    order = np.array([1, 2, 3, 2, 1, 5, 7], dtype=np.int32)
    values = np.array([10, 20, 30, 21, 11, 50, 70], dtype=np.int64)
    grouped = _in_order(GroupedColumns([(1,), (2,), (3,)], np.array([0, 3, 5, 7]), [order, values]))
    assert grouped.columns[0].tolist() == [1, 2, 3, 1, 2, 5, 7]
    assert grouped.columns[1].tolist() == [10, 20, 30, 11, 21, 50, 70]
    already = GroupedColumns([(1,), (2,)], np.array([0, 2, 4]), [np.array([1, 2, 1, 2]), np.array([5, 6, 7, 8])])
    assert _in_order(already) is already
