"""A tournament's players and games as columns (``zdb.rating.entries``): a tournament read
back as columns is the same tournament as one built from tuples, and evaluates the same."""

from __future__ import annotations

from datetime import date

import numpy as np
import pytest

from zdb.rating import (
    Game,
    Participant,
    PlayerState,
    ResultCode,
    Tournament,
    evaluate_tournaments,
    rule_set_for,
)
from zdb.rating.entries import ColumnarTournament, EntryColumns, entries_of, participant_ids

END = date(2024, 5, 5)


def _tournament(tid: int, first: int) -> Tournament:
    pids = [str(first + k) for k in range(6)]
    players = (
        Participant(pids[0], 1980),
        Participant(pids[1], None, True, 2210),
        Participant(pids[2], 2010, False),
        Participant(pids[3], None),
        Participant(pids[4], 1955, True, None),
        Participant(pids[5], 1999, False, 1800),
    )
    results = list(ResultCode)
    games = tuple(Game(pids[a], pids[b], results[(a + b) % len(results)]) for a in range(6) for b in range(6) if a < b)
    return Tournament(tid, f"T{tid}", END, players, games)


def _columnar(tournament: Tournament) -> ColumnarTournament:
    return ColumnarTournament(tournament.id, tournament.acronym, tournament.end_date, EntryColumns.of(tournament))


def test_a_columnar_tournament_is_the_tournament_it_was_read_as() -> None:
    tuples = _tournament(1, 100)
    columns = _columnar(tuples)
    assert participant_ids(columns) == participant_ids(tuples) == tuple(p.pid for p in tuples.players)
    assert entries_of(columns) is columns.entries
    assert columns._players is None  # nothing made until asked for
    assert columns.players == tuples.players and columns.players is columns.players
    assert columns.games == tuples.games and columns.games is columns.games
    assert columns == tuples and tuples == columns and hash(columns) == hash(tuples)
    assert columns != _tournament(1, 200) and columns != "T1"
    assert repr(columns).startswith("ColumnarTournament(id=1, acronym='T1', end_date=")


def test_columns_evaluate_as_tuples_do() -> None:
    tuples = [_tournament(1, 100), _tournament(2, 200), _tournament(3, 300)]
    mixed = [_columnar(tuples[0]), tuples[1], _columnar(tuples[2])]
    states = {str(100 + k): PlayerState(1500 + 40 * k, 5) for k in range(6)}
    states.update({str(300 + k): PlayerState(None, 0) for k in range(3)})
    rules = rule_set_for(END)
    expected = evaluate_tournaments(tuples, states, rules)
    assert evaluate_tournaments(mixed, states, rules) == expected
    assert any(row.fide_start for evaluation in expected for row in evaluation.rows)
    assert any(row.rn is not None for evaluation in expected for row in evaluation.rows)


def test_entry_columns_cannot_be_changed() -> None:
    entries = EntryColumns.of(_tournament(1, 100))
    with pytest.raises(ValueError, match="read-only"):
        entries.white[0] = 3
    assert isinstance(entries.result, np.ndarray) and entries.result.dtype == np.int64
