"""Late changes through the incremental run, each on both of its paths. On PostgreSQL with the
compiled pass the tail is replayed from the players' states before the first change and only
the rows that differ are written (``compiled_tail``). The walk (SQLite, or no numba; here also
on PostgreSQL with the pass declined) reads the stored steps as keys and players, a step's
history rows only where the replay applies it again (a conversion's only for the players whose
state changed), and the participants' stored states before a changed event in one statement.
Each scenario ends in a database equal to the from-scratch evaluation of every tournament
(``verify``) and to a from-scratch run's export: a row written wrong, left stale or missing
fails it."""

from __future__ import annotations

from datetime import date
from itertools import combinations
from typing import Any

import pytest
from sqlalchemy import select

from tests.conftest import VECTORS
from tests.db.scenario import differences, exported, recalc, submit
from zdb.db import engine_for, unit_of_work
from zdb.players.models import Player
from zdb.rating import OrderKey, PlayerId, kernel
from zdb.recalculation import compiled_tail, recalculate
from zdb.timeline.stored_state import states_before

REPLAY = VECTORS["replays"][0]

#: the path each incremental run of a test took ("tail" or "walk"), and the one it must take
_PATHS: dict[str, Any] = {"expected": None, "taken": []}


@pytest.fixture(params=["postgresql", "postgresql-walk", "sqlite"])
def database_url(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The late cases on PostgreSQL through the compiled pass from states, on PostgreSQL through
    the walk (the path without numba: the pass declined) and on SQLite (the walk)."""
    postgres = request.param.startswith("postgresql")
    if request.param == "postgresql-walk":
        monkeypatch.setattr(compiled_tail, "available", lambda session: False)
    expected = "tail" if request.param == "postgresql" and kernel.compiled() is not None else "walk"
    taken: list[str] = []
    _PATHS.update(expected=expected, taken=taken)
    replay_tail, walked = compiled_tail.replay_tail, recalculate._walked

    def tail(*args: Any, **kwargs: Any) -> Any:
        taken.append("tail")
        return replay_tail(*args, **kwargs)

    def walk(*args: Any, **kwargs: Any) -> Any:
        taken.append("walk")
        return walked(*args, **kwargs)

    monkeypatch.setattr(compiled_tail, "replay_tail", tail)
    monkeypatch.setattr(recalculate, "_walked", walk)
    return str(request.getfixturevalue("postgres_url" if postgres else "sqlite_url"))


#: rated players of the scenarios, their initial states (rating, index)
_RATED = {f"R{k}": (1350 + 90 * k, 8 + k) for k in range(1, 9)}


def _player(pid: str) -> dict[str, Any]:
    return {"pid": pid, "birth_year": 1970 + int(pid[1:]) if pid[1:].isdigit() else 2005, "member": True}


def _tournament(ident: int, acronym: str, day: str, players: list[str], shift: int = 0) -> dict[str, Any]:
    """A round robin of ``players``; results vary with ``shift``."""
    games = [
        {"white": a, "black": b, "result": ("1-0", "0-1", "1/2-1/2")[(i + shift) % 3]}
        for i, (a, b) in enumerate(combinations(players, 2))
    ]
    return {"id": ident, "acronym": acronym, "end_date": day, "players": [_player(p) for p in players], "games": games}


def _time_line() -> dict[str, Any]:
    """Club tournaments on both sides of the 2026 conversion (2026-06-07), and a newcomer ``N``
    who gets his first rating in tournament 2."""
    events = [
        _tournament(1, "KLA", "2025-02-16", ["R1", "R2", "R3", "R4"]),
        _tournament(2, "NEU", "2025-04-13", ["N", "R1", "R2", "R3", "R4", "R5", "R6"], shift=1),
        _tournament(3, "OPA", "2025-09-21", ["N", "R5", "R6", "R7"], shift=2),
        _tournament(4, "WIN", "2026-01-18", ["R1", "R6", "R7", "R8"]),
        _tournament(5, "SOM", "2026-08-02", ["N", "R2", "R3", "R8"], shift=1),
        _tournament(6, "HER", "2026-10-11", ["R4", "R5", "R7", "R8"], shift=2),
    ]
    states = {pid: {"rating": rating, "index": index, "leftover": []} for pid, (rating, index) in _RATED.items()}
    return {"initial_states": states, "events": events}


def _document(events: list[dict[str, Any]]) -> dict[str, Any]:
    return {"initial_states": {}, "events": events}


def _loaded(url: str) -> dict[str, Any]:
    submit(url, _time_line())
    assert recalc(url).clean
    assert differences(url) == []
    return exported(url)


def _incrementally_consistent(url: str) -> dict[str, Any]:
    """Run the incremental recalculation; the database must then equal the from-scratch
    evaluation, and a from-scratch run must leave every figure as it is."""
    taken: list[str] = _PATHS["taken"]
    taken.clear()
    outcome = recalc(url)
    assert outcome.ran and outcome.clean and not outcome.from_scratch
    assert taken == [_PATHS["expected"]]
    assert differences(url) == []
    incremental = exported(url)
    assert recalc(url, from_scratch=True).from_scratch
    assert exported(url) == incremental
    return incremental


def test_a_late_tournament_before_the_conversion(database_url: str) -> None:
    before = _loaded(database_url)
    submit(database_url, _document([_tournament(10, "NAC", "2025-06-29", ["R2", "R5", "R6", "R8"])]))
    after = _incrementally_consistent(database_url)
    # The change reaches past the conversion: the converted states of the late players differ.
    assert after["final_states"]["R8"] != before["final_states"]["R8"]
    assert 10 in after["order"] and after["order"].index(10) < after["order"].index("conversion-2026")


@pytest.mark.parametrize("longest", [4, 3])
def test_a_tail_longer_than_the_pass_takes_is_walked(
    database_url: str, longest: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A late tournament before 4, 5 and 6: its tail of four tournaments (itself included) goes
    through the pass with a limit of four and is walked with a limit of three."""
    _loaded(database_url)
    monkeypatch.setattr(compiled_tail, "MAX_TAIL_TOURNAMENTS", longest)
    if _PATHS["expected"] == "tail" and longest < 4:
        _PATHS["expected"] = "walk"
    submit(database_url, _document([_tournament(10, "LAT", "2025-12-14", ["R1", "R4", "R6", "R8"])]))
    after = _incrementally_consistent(database_url)
    assert after["order"].index(10) < after["order"].index(4)


def test_a_correction_and_a_withdrawal(database_url: str) -> None:
    _loaded(database_url)
    corrected = _tournament(3, "OPA", "2025-09-21", ["N", "R5", "R6", "R7"], shift=0)  # other results
    submit(database_url, _document([corrected, {"withdraw": 4}]))
    after = _incrementally_consistent(database_url)
    assert 4 not in after["order"] and "4" not in after["reports"]


def test_a_correction_that_moves_a_tournament_across_the_conversion(database_url: str) -> None:
    _loaded(database_url)
    moved = _tournament(4, "WIN", "2026-07-05", ["R1", "R6", "R7", "R8"])
    submit(database_url, _document([moved]))
    after = _incrementally_consistent(database_url)
    assert after["order"].index(4) > after["order"].index("conversion-2026")


def test_a_start_rating_set_late(database_url: str) -> None:
    before = _loaded(database_url)
    submit(database_url, _document([{"start_rating": {"pid": "R3", "date": "2025-03-01", "rating": 1900, "index": 1}}]))
    after = _incrementally_consistent(database_url)
    assert after["final_states"]["R3"] != before["final_states"]["R3"]


def test_a_newcomers_first_rating_moved_by_a_late_game(database_url: str) -> None:
    before = _loaded(database_url)
    (first,) = [entry for entry in before["history"]["N"] if entry["event"] == 2]
    assert first["old"][0] is None and first["new"][0] is not None  # his first rating, in tournament 2
    late = _tournament(11, "VOR", "2025-03-09", ["N", "R7", "R8"])  # before it: games he carries into it
    submit(database_url, _document([late]))
    after = _incrementally_consistent(database_url)
    (moved,) = [entry for entry in after["history"]["N"] if entry["event"] == 2]
    assert moved["new"] != first["new"]


def _pkz(url: str) -> dict[str, int]:
    with unit_of_work(engine_for(url)) as session:
        return {name: pkz for pkz, name in session.execute(select(Player.pkz, Player.external_id)) if name}


@pytest.mark.parametrize("read_alone", [False, True], ids=["together", "one pair"])
def test_stored_states_before_positions_are_the_vectors_states(database_url: str, read_alone: bool) -> None:
    # Known answers: a player's state before each of his events is the vector's ``old`` of that
    # line of his history; after the time line, his final state; before it, his initial state.
    submit(database_url, {"initial_states": REPLAY["initial_states"], "events": REPLAY["events"]})
    recalc(database_url)
    pkz = _pkz(database_url)
    expected: dict[tuple[PlayerId, OrderKey], tuple[int | None, int]] = {}
    for name, lines in REPLAY["expected"]["history"].items():
        for line in lines:
            day = date.fromisoformat(line["date"])
            if isinstance(line["event"], int):
                key: OrderKey = (day, 1, line["acronym"], line["event"])
            elif line["event"].startswith("conversion"):
                key = (day, 2, line["event"], 0)
            else:
                continue
            expected[(str(pkz[name]), key)] = tuple(line["old"])
    for name, state in REPLAY["expected"]["final_states"].items():
        expected[(str(pkz[name]), (date(2027, 1, 1), 0, "", 0))] = (state["rating"], state["index"])
    for name, state in REPLAY["initial_states"].items():
        expected[(str(pkz[name]), (date(2000, 1, 1), 0, "", 0))] = (state["rating"], state["index"])
    wanted = list(expected)
    with unit_of_work(engine_for(database_url)) as session:
        if read_alone:
            found = {}
            for pair in wanted:
                found.update(states_before(session, [pair]))
        else:
            found = states_before(session, wanted)
    assert {pair: (state.rating, state.index) for pair, state in found.items()} == expected
