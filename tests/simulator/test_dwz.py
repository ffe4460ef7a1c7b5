"""The simulator's DWZ rows come from the rating engine: every single-player vector and the
published examples of dwz-rules.md reproduce through it."""

from __future__ import annotations

from datetime import date
from fractions import Fraction
from typing import Any

import pytest

from tests.conftest import VECTORS
from zdb.rating import RULE_SETS
from zdb.simulator import SimulationRequest, System, possible_scores, simulate, simulate_dwz

CASES = [case for case in VECTORS["single_player"] if not case["player"]["fide_start"]]


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_single_player_vectors(case: dict[str, Any]) -> None:
    player = case["player"]
    request = SimulationRequest(
        rating=player["r0"],
        opponents=tuple(case["opponents"]),
        end_date=date.fromisoformat(case["end_date"]),
        index=player["index"],
        birth_year=player["birth_year"],
    )
    result = simulate_dwz(request)
    assert result.rule_set == case["rule_set"]
    outcome = result.at(Fraction(case["W"]))
    expected = case["expected"]
    assert outcome.rating == expected["rn"]
    assert outcome.coefficient == (
        Fraction(expected["E"]) if expected["E"] is not None else Fraction(str(expected["K"]))
    )
    assert result.expected == pytest.approx(expected["We"], abs=1e-6)


def test_classic_real_evaluation() -> None:
    # dwz-rules.md §6: 1896-21 (age 26) against 1432, 1806, 1808, 1877, 1772 with 3 points -> E = 28, Rn = 1886
    request = SimulationRequest(1896, (1432, 1806, 1808, 1877, 1772), date(2019, 6, 30), index=21, birth_year=1993)
    result = simulate_dwz(request)
    assert result.coefficient == "E"
    assert (result.at(Fraction(3)).rating, result.at(Fraction(3)).coefficient) == (1886, Fraction(28))


def test_wo2026_seed_examples() -> None:
    # dwz-rules.md §7 (seed 001): 1600-12 adult against 1700: win 1618, draw 1604, loss 1590 (K = 28)
    adult = simulate_dwz(SimulationRequest(1600, (1700,), date(2026, 9, 27), index=12, birth_year=1986))
    assert adult.coefficient == "K"
    assert [outcome.rating for outcome in adult.outcomes] == [1590, 1604, 1618]
    assert {outcome.coefficient for outcome in adult.outcomes} == {28}
    # youth (14) 1400-3 against 1500: win K = 68 -> 1443; loss K = 44 -> 1384
    youth = simulate_dwz(SimulationRequest(1400, (1500,), date(2026, 9, 27), index=3, birth_year=2012))
    assert (youth.at(Fraction(1)).rating, youth.at(Fraction(1)).coefficient) == (1443, Fraction(68))
    assert (youth.at(Fraction(0)).rating, youth.at(Fraction(0)).coefficient) == (1384, Fraction(44))


def test_every_score_in_half_points() -> None:
    request = SimulationRequest(1700, (1600, 1650, 1800), date(2025, 1, 12), index=8)
    result = simulate_dwz(request)
    assert [outcome.score for outcome in result.outcomes] == list(possible_scores(3))
    assert [float(s) for s in possible_scores(3)] == [0, 0.5, 1, 1.5, 2, 2.5, 3]


def test_the_rule_set_follows_the_end_date_unless_forced() -> None:
    request = SimulationRequest(1700, (1600,), date(2026, 6, 7), index=8)
    assert simulate_dwz(request).rule_set == "classic"  # dwz-rules.md §1: up to and including 2026-06-07
    later = SimulationRequest(1700, (1600,), date(2026, 6, 8), index=8)
    assert simulate_dwz(later).rule_set == "wo2026"
    (classic,) = (rule_set for rule_set in RULE_SETS if rule_set.name == "classic")
    assert simulate(later, (System.DWZ,), dwz_rules=classic).results[0].rule_set == "classic"


def test_performance_is_reported_from_five_games() -> None:
    request = SimulationRequest(1700, (1600, 1650, 1700, 1750, 1800), date(2025, 1, 12), index=8)
    result = simulate_dwz(request)
    assert result.at(Fraction(0)).performance is None  # dwz-rules.md §9.5: no performance with 0 %
    assert result.at(Fraction(5, 2)).performance is not None
    short = simulate_dwz(SimulationRequest(1700, (1600, 1650), date(2025, 1, 12), index=8))
    assert all(outcome.performance is None for outcome in short.outcomes)
