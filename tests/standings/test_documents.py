"""Reading standings input from JSON documents, and the places named in their errors."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.standings.documents_data import seed_round_robin_document, seed_season_document, swiss_document
from zdb.rating import InvalidInputError
from zdb.standings import (
    ByeKind,
    IndividualRequest,
    PairingSystem,
    TeamSeason,
    TieBreak,
    dump_individual,
    dump_team,
    individual_standings,
    load_document,
    team_standings,
)


def test_a_tournament_without_rounds_is_a_round_robin() -> None:
    request = load_document(seed_round_robin_document())
    assert isinstance(request, IndividualRequest)
    assert request.tournament.pairing_system is PairingSystem.ROUND_ROBIN
    assert request.order is None
    assert sum(len(r.pairings) for r in request.tournament.rounds) == 21


def test_the_wrapped_form_of_zdb_rate_is_accepted() -> None:
    request = load_document({"tournament": seed_round_robin_document(), "states": {}})
    assert isinstance(request, IndividualRequest)
    assert len(request.tournament.players) == 7


def test_rounds_byes_and_tie_breaks() -> None:
    request = load_document(swiss_document())
    assert isinstance(request, IndividualRequest)
    tournament = request.tournament
    assert tournament.pairing_system is PairingSystem.SWISS
    assert len(tournament.rounds) == 3
    assert [bye.kind for r in tournament.rounds for bye in r.byes] == [
        ByeKind.PAIRING_ALLOCATED,
        ByeKind.HALF_POINT,
        ByeKind.PAIRING_ALLOCATED,
    ]
    assert request.order == (TieBreak.BUCHHOLZ_CUT1, TieBreak.SONNEBORN_BERGER)


def test_rounds_key_adds_empty_rounds() -> None:
    document = swiss_document() | {"rounds": 4}
    request = load_document(document)
    assert isinstance(request, IndividualRequest)
    assert len(request.tournament.rounds) == 4
    assert request.tournament.rounds[3].pairings == ()


def test_dump_individual_has_every_tie_break() -> None:
    request = load_document(swiss_document())
    assert isinstance(request, IndividualRequest)
    document = dump_individual(individual_standings(request.tournament, request.order))
    assert document["tie_break_order"] == ["BH-C1", "SB"]
    assert set(document["rows"][0]) == {
        "rank",
        "player",
        "points",
        "games",
        "SB",
        "BH",
        "BH-C1",
        "BH-C2",
        "BH-M1",
        "RBH",
    }


def test_season_document() -> None:
    season = load_document(seed_season_document())
    assert isinstance(season, TeamSeason)
    document = dump_team(team_standings(season))
    assert document["matches"][0]["board_points"] == [2.0, 2.0]  # seed 002 line 80
    assert document["matches"][0]["berliner_wertung"] == [5.5, 4.5]  # seed 002 line 80


def test_season_with_its_own_match_points() -> None:
    document = seed_season_document()
    document["season"]["match_points"] = {"win": 3, "draw": 1}
    season = load_document(document)
    assert isinstance(season, TeamSeason)
    assert (season.match_points.win, season.match_points.draw, season.match_points.loss) == (3, 1, 0)


def _broken(base: dict[str, Any], path: list[Any], value: Any) -> dict[str, Any]:
    document = copy.deepcopy(base)
    target = document
    for key in path[:-1]:
        target = target[key]
    if value is _DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return document


_DELETE = object()


@pytest.mark.parametrize(
    ("path", "value", "place"),
    [
        (["games", 2, "round"], _DELETE, "input.games[2].round"),
        (["games", 2, "round"], 0, "input.games[2].round"),
        (["games", 2, "round"], "2", "input.games[2].round"),
        (["games", 3, "round"], 1, "input.games[3].white"),  # B already plays in round 1
        (["byes", 0, "kind"], "bye", "input.byes[0].kind"),
        (["byes", 0, "pid"], "Z", "input.byes[0].pid"),
        (["byes", 1, "round"], _DELETE, "input.byes[1].round"),
        (["byes", 1], "half", "input.byes[1]"),
        (["byes"], {}, "input.byes"),
        (["rounds"], 2, "input.rounds"),
        (["pairing"], "knockout", "input.pairing"),
        (["tie_breaks", 1], "TPR", "input.tie_breaks[1]"),
        (["tie_breaks"], "SB", "input.tie_breaks"),
        (["games", 0, "result"], "2-0", "input.games[0].result"),
    ],
)
def test_bad_individual_input_names_the_place(path: list[Any], value: Any, place: str) -> None:
    with pytest.raises(InvalidInputError) as error:
        load_document(_broken(swiss_document(), path, value))
    assert error.value.place == place


def test_a_swiss_tournament_needs_rounds() -> None:
    with pytest.raises(InvalidInputError) as error:
        load_document(seed_round_robin_document() | {"pairing": "swiss"})
    assert error.value.place == "input.pairing"


def test_a_repeated_tie_break_is_refused() -> None:
    request = load_document(swiss_document() | {"tie_breaks": ["SB", "SB"]})
    assert isinstance(request, IndividualRequest)
    with pytest.raises(InvalidInputError):
        individual_standings(request.tournament, request.order)


@pytest.mark.parametrize(
    ("path", "value", "place"),
    [
        (["season", "teams"], _DELETE, "season.teams"),
        (["season", "teams"], ["M1", "M1"], "season.teams"),
        (["season", "teams", 0], None, "season.teams[0]"),
        (["season", "matches", 0, "away"], "M3", "season.matches[0].away"),
        (["season", "matches", 0, "away"], "M1", "season.matches[0]"),
        (["season", "matches", 0, "boards"], [], "season.matches[0].boards"),
        (["season", "matches", 0, "boards", 2], "1:0", "season.matches[0].boards[2]"),
        (["season", "matches", 0, "round"], _DELETE, "season.matches[0].round"),
        (["season", "matches", 0], [], "season.matches[0]"),
        (["season", "match_points"], {"win": -1}, "season.match_points.win"),
        (["season"], [], "season"),
    ],
)
def test_bad_season_input_names_the_place(path: list[Any], value: Any, place: str) -> None:
    with pytest.raises(InvalidInputError) as error:
        load_document(_broken(seed_season_document(), path, value))
    assert error.value.place == place


def test_not_an_object() -> None:
    with pytest.raises(InvalidInputError) as error:
        load_document([1, 2])
    assert error.value.place == "input"
