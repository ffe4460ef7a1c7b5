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
    order_key,
)
from zdb.rating.timeline import StartRating, Withdrawal, build_timeline

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


# spec §2: a player listed twice and an unknown player are errors; the problem names the player
@pytest.mark.parametrize(
    ("players", "games", "place", "named"),
    [
        (["A", "A"], [], "players[1].pid", "'A'"),
        (["A", "B"], [("X", "B")], "games[0].white", "'X'"),
        (["A", "B"], [("A", "Y")], "games[0].black", "'Y'"),
    ],
)
def test_the_problem_names_the_player(players: list[str], games: list[tuple[str, str]], place: str, named: str) -> None:
    with pytest.raises(InvalidInputError) as caught:
        Tournament(
            1,
            "TST",
            DAY,
            tuple(Participant(p, 1990) for p in players),
            tuple(Game(w, b, ResultCode("1-0")) for w, b in games),
        )
    assert caught.value.place == place
    assert named in caught.value.problem


# spec §2: a start rating is ordered before every tournament ending that day, whatever the
# player's id and the tournament's acronym
def test_a_start_rating_comes_before_a_tournament_of_its_day() -> None:
    tournament = Tournament(1, "ABC", DAY, (Participant("Z", 1990), Participant("B", 1990)), ())
    start = StartRating("Z", DAY, 1500, 1)
    assert sorted([tournament, start], key=order_key) == [start, tournament]


# spec §2: withdrawing an id that does not exist is an error; the problem tells a tournament
# never submitted from one withdrawn before
def test_a_withdrawal_of_a_missing_tournament_says_why_it_is_missing() -> None:
    tournament = Tournament(7, "TST", DAY, (Participant("A", 1990), Participant("B", 1990)), ())
    with pytest.raises(InvalidInputError, match="tournament 8 does not exist"):
        build_timeline([tournament, Withdrawal(8)])
    with pytest.raises(InvalidInputError, match="tournament 7 was already withdrawn") as caught:
        build_timeline([tournament, Withdrawal(7), Withdrawal(7)])
    assert caught.value.place == "events[2].withdraw"


def test_deleting_a_field_of_an_evaluation_names_the_field() -> None:
    players = (Participant("A", 1980), Participant("B", 1980))
    tournament = Tournament(1, "TST", DAY, players, (Game("A", "B", ResultCode("1-0")),))
    evaluation = evaluate_tournament(tournament, {"A": PlayerState(1500, 7), "B": PlayerState(1400, 3)})
    with pytest.raises(dataclasses.FrozenInstanceError, match="'states'"):
        del evaluation.states
