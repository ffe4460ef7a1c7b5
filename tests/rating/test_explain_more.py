"""What an explanation names besides its figures (the player, his age and index, each game's
place, colour and result, the rule set asked for), each found by a change to ``explain`` (a
mutant, docs/mutation.md) that the composition tests of ``test_explain.py`` let pass.

The expected values come from the inputs and the spec's text (the section is named at each
test), never from the engine.
"""

from __future__ import annotations

from datetime import date

import pytest

from zdb.rating import RULE_SETS, Game, InvalidInputError, Participant, PlayerState, ResultCode, Tournament
from zdb.rating.explain import explain

CLASSIC_DAY = date(2025, 3, 1)
WO2026_DAY = date(2026, 9, 1)
WO2026 = next(rules for rules in RULE_SETS if rules.name == "wo2026")


def _tournament(end: date, players: list[Participant], games: list[tuple[str, str, str]]) -> Tournament:
    return Tournament(7, "EXM", end, tuple(players), tuple(Game(w, b, ResultCode(r)) for w, b, r in games))


def test_each_game_is_named_by_its_place_colour_and_result() -> None:
    players = [Participant(p, 1980) for p in ("P", "O", "Q")]
    games = [("O", "P", "1-0"), ("Q", "O", "0-1"), ("P", "Q", "1/2-1/2")]
    states = {p: PlayerState(1700, 9) for p in ("P", "O", "Q")}
    explanation = explain(_tournament(CLASSIC_DAY, players, games), states, "P")
    assert explanation.pid == "P"
    assert [(g.game, g.opponent, g.white, g.result, g.points) for g in explanation.games] == [
        (0, "O", False, "1-0", 0.0),
        (2, "Q", True, "1/2-1/2", 0.5),
    ]


# spec §6, §13.11: the age is the end date's year minus the birth year, an unknown birth year
# counts as 26 or older; a stored index 0 counts as index 1.
@pytest.mark.parametrize(("birth_year", "age"), [(2006, 19), (1960, 65)])
def test_the_age_and_the_index_used(birth_year: int, age: int) -> None:
    tournament = _tournament(CLASSIC_DAY, [Participant("P", birth_year), Participant("O", 1980)], [("P", "O", "1-0")])
    states = {"P": PlayerState(1500, 0), "O": PlayerState(1600, 12)}
    explanation = explain(tournament, states, "P")
    assert (explanation.age, explanation.age_known, explanation.index_used) == (age, True, 1)
    assert explain(tournament, states, "O").index_used == 12


def test_an_unknown_birth_year_counts_as_an_adult() -> None:
    tournament = _tournament(CLASSIC_DAY, [Participant("P", None), Participant("O", 1980)], [("P", "O", "1-0")])
    explanation = explain(tournament, {"P": PlayerState(1500, 4), "O": PlayerState(1600, 12)}, "P")
    assert explanation.age >= 26 and not explanation.age_known
    assert explanation.index_used == 4


# spec §6 (the classic cap uses i = 1 for a FIDE start value) and §7 (WO 2026 uses its index 6).
@pytest.mark.parametrize(("end", "index"), [(CLASSIC_DAY, 1), (WO2026_DAY, 6)])
def test_a_fide_start_value_uses_its_rule_sets_index(end: date, index: int) -> None:
    players = [Participant("P", 1980, fide_rating=1800), Participant("O", 1980)]
    explanation = explain(_tournament(end, players, [("P", "O", "1-0")]), {"O": PlayerState(1700, 12)}, "P")
    assert explanation.row.r0 == 1800
    assert explanation.index_used == index


# A rule set given explicitly is the one evaluated, whatever the end date's rule set is: WO 2026
# reports K and no E (spec §7, §13.15).
def test_the_rule_set_given_is_the_one_explained() -> None:
    tournament = _tournament(CLASSIC_DAY, [Participant("P", 1980), Participant("O", 1980)], [("P", "O", "1-0")])
    explanation = explain(tournament, {"P": PlayerState(1600, 12), "O": PlayerState(1700, 12)}, "P", WO2026)
    assert explanation.rule_set == "wo2026"
    assert explanation.row.e is None and explanation.row.k is not None
    assert explanation.wo2026 is not None and explanation.classic is None


def test_a_stranger_is_refused_by_name() -> None:
    tournament = _tournament(CLASSIC_DAY, [Participant("P", 1980), Participant("O", 1980)], [("P", "O", "1-0")])
    with pytest.raises(InvalidInputError) as caught:
        explain(tournament, {}, "Z")
    assert "'Z'" in caught.value.problem and "7" in caught.value.problem
