"""The explanation of a rating change: its terms compose to exactly the engine's figures, for
every participant of every vector, and to the published figures where a vector has them."""

from __future__ import annotations

from datetime import date
from fractions import Fraction
from typing import Any

import pytest

from tests.conftest import VECTORS
from tests.vector_compare import WE_TOLERANCE, case_id
from zdb.formats.rating_json import load_evaluation_request
from zdb.rating import (
    RULE_SETS,
    Game,
    InvalidInputError,
    Participant,
    PlayerState,
    ResultCode,
    Stage,
    Tournament,
    evaluate_tournament,
)
from zdb.rating.expectation import expected_score
from zdb.rating.explain import Explanation, at_least_expected, explain
from zdb.rating.rounding import round_float, round_float_to, round_half_up, round_half_up_to


def _cases() -> list[tuple[str, dict[str, Any], list[str]]]:
    cases = [
        (c["name"], {"tournament": c["tournament"], "states": c["states"]}, ["P"]) for c in VECTORS["single_player"]
    ]
    for case in VECTORS["tournaments"]:
        pids = [p["pid"] for p in case["tournament"]["players"]]
        cases.append((case["name"], {"tournament": case["tournament"], "states": case["states"]}, pids))
    return cases


CASES = _cases()


def assert_composes(explanation: Explanation) -> None:
    """Every term leads to the engine's figure in the report row."""
    row = explanation.row
    rated = [g for g in explanation.games if g.rated]
    assert len(rated) == row.n
    assert sum(g.points for g in rated) == row.w
    assert len(explanation.games) - len(rated) == row.unrated_games
    for game in explanation.games:
        assert (game.unrated_reason is None) == game.rated
        assert (game.opponent_rating is None) == (not game.rated)
    if row.stage is not Stage.ESTABLISHED or row.n == 0:
        assert explanation.we_exact is None and explanation.classic is None and explanation.wo2026 is None
        assert row.we is None
        return
    assert row.r0 is not None and row.we is not None and explanation.we_exact is not None
    for game in rated:
        assert game.opponent_rating is not None and game.difference is not None
        assert game.difference == row.r0 - game.opponent_rating
        assert game.expected == expected_score(game.difference)
    assert abs(float(round_float_to(explanation.we_exact, 6)) - row.we) <= WE_TOLERANCE
    assert explanation.at_least_expected == at_least_expected(row.w, explanation.we_exact)
    if explanation.classic is not None:
        terms = explanation.classic
        assert explanation.rule_set == "classic" and explanation.wo2026 is None
        if terms.cap_rule == "sbr":
            assert terms.sbr > 0 and terms.e_unbounded == round_float(float(terms.e0 * terms.fb) + terms.sbr)
        else:
            assert terms.sbr == 0 and terms.e_unbounded == round_half_up(terms.e0 * terms.fb)
        assert terms.e == min(max(terms.e_min, terms.e_unbounded), terms.cap) == row.e
        assert terms.rn == round_float(terms.rn_exact) == row.rn
    else:
        terms26 = explanation.wo2026
        assert terms26 is not None and explanation.rule_set == "wo2026"
        assert terms26.k_exact == terms26.k0 * terms26.b + terms26.a
        assert terms26.k_rounded == round_half_up_to(terms26.k_exact, 1)
        assert terms26.k == min(terms26.k_max, terms26.k_rounded)
        assert float(terms26.k) == row.k
        assert terms26.rn == max(terms26.floor, round_float(terms26.rn_exact)) == row.rn


@pytest.mark.parametrize(("name", "document", "pids"), CASES, ids=[case_id(c[0]) for c in CASES])
def test_terms_compose_to_the_engines_figures(name: str, document: dict[str, Any], pids: list[str]) -> None:
    tournament, states = load_evaluation_request(document)
    rows = {row.pid: row for row in evaluate_tournament(tournament, states).rows}
    for pid in pids:
        explanation = explain(tournament, states, pid)
        assert explanation.row == rows[pid], name
        assert_composes(explanation)


@pytest.mark.parametrize(
    "case", [c for c in VECTORS["single_player"] if c.get("published")], ids=lambda c: case_id(c["name"])
)
def test_published_figures(case: dict[str, Any]) -> None:
    tournament, states = load_evaluation_request({"tournament": case["tournament"], "states": case["states"]})
    explanation = explain(tournament, states, "P")
    published = case["published"]
    if "rn" in published:
        assert explanation.row.rn == published["rn"]
    if published.get("E") is not None:
        assert explanation.classic is not None and explanation.classic.e == published["E"]
    if published.get("K") is not None:
        assert explanation.wo2026 is not None and float(explanation.wo2026.k) == published["K"]


def _tournament(end: date, players: list[Participant], games: list[tuple[str, str, str]]) -> Tournament:
    return Tournament(1, "EXP", end, tuple(players), tuple(Game(w, b, ResultCode(r)) for w, b, r in games))


def _states(**ratings: tuple[int, int]) -> dict[str, PlayerState]:
    return {pid: PlayerState(rating, index) for pid, (rating, index) in ratings.items()}


CLASSIC_DAY = date(2025, 3, 1)
WO2026_DAY = date(2026, 9, 1)


@pytest.mark.parametrize(
    ("end", "birth_year", "r0", "index", "result", "expected"),
    [
        (CLASSIC_DAY, 2006, 1700, 3, "1-0", {"j": 5, "cap_rule": "index"}),  # youth, fB, small index cap
        (CLASSIC_DAY, 2002, 1700, 9, "1-0", {"j": 10}),  # junior, cap 30
        (CLASSIC_DAY, None, 1100, 9, "0-1", {"j": 15, "cap_rule": "sbr"}),  # unknown age: adult; braked
        (WO2026_DAY, 2012, 1500, 4, "1-0", {"row": 1}),  # youth bonus a
        (WO2026_DAY, 1980, 1500, 4, "1-0", {"row": 2, "a": Fraction(4)}),  # adult bonus
        (WO2026_DAY, 1980, 1500, 4, "0-1", {"row": 2}),  # brake b
        (WO2026_DAY, 1980, 2100, 12, "1-0", {"row": 3, "a": Fraction(0)}),  # no bonus
        (WO2026_DAY, 1980, 2100, 12, "0-1", {"row": 3, "b": Fraction(1)}),  # no brake
    ],
)
def test_each_rule_term(
    *, end: date, birth_year: int | None, r0: int, index: int, result: str, expected: dict[str, Any]
) -> None:
    tournament = _tournament(end, [Participant("P", birth_year), Participant("O", 1980)], [("P", "O", result)])
    explanation = explain(tournament, _states(P=(r0, index), O=(1700, 20)), "P")
    assert_composes(explanation)
    terms = explanation.classic or explanation.wo2026
    for field, value in expected.items():
        assert getattr(terms, field) == value
    assert explanation.age_known == (birth_year is not None)


def test_unrated_games_and_newcomers() -> None:
    players = [Participant(p, 1980) for p in ("P", "Q", "R", "S", "T", "U", "N", "G")]
    games = [("N", p, "1/2-1/2") for p in ("P", "Q", "R", "S", "T")]
    games += [("P", "Q", "+-"), ("G", "P", "1-0"), ("P", "R", "1-0")]
    states = _states(P=(1600, 8), Q=(1650, 8), R=(1550, 8), S=(1700, 8), T=(1500, 8))
    tournament = _tournament(CLASSIC_DAY, players, games)
    explained = {pid: explain(tournament, states, pid) for pid in ("P", "N", "G", "Q")}
    for explanation in explained.values():
        assert_composes(explanation)
    reasons = {g.opponent: g.unrated_reason for g in explained["P"].games}
    assert reasons == {"N": None, "Q": "not played", "G": "opponent not rated", "R": None}
    (newcomer,) = (g for g in explained["P"].games if g.opponent == "N")
    assert newcomer.opponent_basis == "first_rating"
    assert explained["N"].row.stage is Stage.STAGE1
    assert {g.opponent_basis for g in explained["N"].games} == {"r0"}
    assert all(g.expected is None for g in explained["N"].games)
    assert [g.unrated_reason for g in explained["G"].games] == ["player not rated"]


def test_an_ausnahmespieler_counts_with_his_performance() -> None:
    opponents = ("A", "B", "C", "D", "E")
    players = [Participant(p, 1980) for p in ("X", *opponents)]
    games = [("X", p, "1-0") for p in opponents]
    states = _states(X=(1200, 10), A=(1800, 10), B=(1850, 10), C=(1900, 10), D=(1750, 10), E=(1800, 10))
    tournament = _tournament(CLASSIC_DAY, players, games)
    assert explain(tournament, states, "X").row.sonder
    explanation = explain(tournament, states, "A")
    assert_composes(explanation)
    (game,) = explanation.games
    assert game.opponent_basis == "rh"


def test_an_established_player_without_rated_games_keeps_his_rating() -> None:
    tournament = _tournament(WO2026_DAY, [Participant("P", 1980), Participant("O", 1980)], [("P", "O", "-+")])
    explanation = explain(tournament, _states(P=(1600, 8), O=(1700, 8)), "P", RULE_SETS[1])
    assert_composes(explanation)
    assert explanation.row.rn == 1600 and explanation.index_used is None


def test_a_stranger_is_refused() -> None:
    tournament = _tournament(CLASSIC_DAY, [Participant("P", 1980), Participant("O", 1980)], [("P", "O", "1-0")])
    with pytest.raises(InvalidInputError) as caught:
        explain(tournament, {}, "Z")
    assert caught.value.place == "pid"
