"""The hidden-order property on the real database: random time lines submitted in random
order, in batches with a recalculation after each, with corrections and withdrawals, end equal
to a from-scratch replay of the engine, and ``verify`` finds no difference."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.databases import database_copy
from tests.db.scenario import assert_export_equals, differences, exported, recalc, submit
from tests.rating.strategies import time_lines, tournaments
from zdb.db import engine_for
from zdb.formats.rating_json import dump_replay, dump_states
from zdb.rating import PlayerState, Tournament, Withdrawal, build_timeline, replay


def _tournament_json(t: Tournament) -> dict[str, Any]:
    return {
        "id": t.id,
        "acronym": t.acronym,
        "end_date": t.end_date.isoformat(),
        "players": [
            {"pid": p.pid, "birth_year": p.birth_year, "member": p.member, "fide_rating": p.fide_rating}
            for p in t.players
        ],
        "games": [{"white": g.white, "black": g.black, "result": g.result.value} for g in t.games],
    }


@st.composite
def submission_orders(draw: st.DrawFn) -> tuple[dict[str, PlayerState], list[Tournament | Withdrawal], list[int]]:
    """A time line, a random submission order with corrections and withdrawals, and batch cuts."""
    states, events = draw(time_lines(max_tournaments=5))
    order: list[Tournament | Withdrawal] = list(draw(st.permutations(events)))
    live = {e.id for e in events}
    for _ in range(draw(st.integers(0, 3))):
        if not live:
            break
        target = draw(st.sampled_from(sorted(live)))
        first = next(k for k, e in enumerate(order) if isinstance(e, Tournament) and e.id == target)
        at = draw(st.integers(first + 1, len(order)))
        if draw(st.booleans()):
            order.insert(at, draw(tournaments(tournament_id=target)))
        else:
            order.insert(at, Withdrawal(target))
            order = order[: at + 1] + [e for e in order[at + 1 :] if not (isinstance(e, Tournament) and e.id == target)]
            live.discard(target)
    cuts = sorted(set(draw(st.lists(st.integers(1, len(order)), max_size=3))) | {len(order)})
    return states, order, cuts


def _check(url: str, case: tuple[dict[str, PlayerState], list[Tournament | Withdrawal], list[int]]) -> None:
    states, order, cuts = case
    start = 0
    for k, cut in enumerate(cuts):
        batch = [
            {"withdraw": e.tournament} if isinstance(e, Withdrawal) else _tournament_json(e) for e in order[start:cut]
        ]
        submit(url, {"initial_states": dump_states(states) if k == 0 else {}, "events": batch})
        recalc(url)
        start = cut
    expected = dump_replay(replay(states, build_timeline(order)))
    assert_export_equals(exported(url), expected)
    assert differences(url) == []


EXAMPLES = settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))


@EXAMPLES
@given(case=submission_orders())
def test_hidden_order_on_postgresql(postgres_server: str, postgres_template: str, case: Any) -> None:
    with database_copy(postgres_server, postgres_template) as url:
        _check(url, case)


@EXAMPLES
@given(case=submission_orders())
def test_hidden_order_on_sqlite(sqlite_template: Path, tmp_path_factory: Any, case: Any) -> None:
    path = tmp_path_factory.mktemp("hidden") / "zdb.sqlite3"
    shutil.copyfile(sqlite_template, path)
    url = f"sqlite:///{path}"
    try:
        _check(url, case)
    finally:
        engine_for(url).dispose()
