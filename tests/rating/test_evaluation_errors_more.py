"""What the engine's errors say: the messages that reach a referee (the submission's problems
quote ``InvalidInputError.problem``) and a developer (a frozen evaluation named by its field).

Why a file of its own: the other unit tests check which input is refused and where; a change
to the engine that kept the place but lost the problem's text, or the field's name, passed
them all (docs/mutation.md).
"""

from __future__ import annotations

import dataclasses
from datetime import date

import pytest

from zdb.rating import (
    Game,
    InvalidInputError,
    Participant,
    PlayerState,
    ResultCode,
    Tournament,
    evaluate_tournament,
)

DAY = date(2025, 3, 2)


# spec §2: a player paired with himself is an error, never silently ignored; the error says what
def test_a_refused_tournament_names_the_place_and_the_problem() -> None:
    players = (Participant("A", 1990), Participant("B", 1990))
    games = (Game("A", "B", ResultCode("1-0")), Game("B", "B", ResultCode("1-0")))
    with pytest.raises(InvalidInputError) as caught:
        Tournament(1, "TST", DAY, players, games)
    error = caught.value
    assert error.place == "games[1]"
    assert isinstance(error.problem, str) and "B" in error.problem
    assert str(error) == f"games[1]: {error.problem}"


def test_deleting_a_field_of_an_evaluation_names_the_field() -> None:
    players = (Participant("A", 1980), Participant("B", 1980))
    tournament = Tournament(1, "TST", DAY, players, (Game("A", "B", ResultCode("1-0")),))
    evaluation = evaluate_tournament(tournament, {"A": PlayerState(1500, 7), "B": PlayerState(1400, 3)})
    with pytest.raises(dataclasses.FrozenInstanceError, match="'states'"):
        del evaluation.states
