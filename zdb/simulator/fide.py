"""FIDE Elo for every possible score, under the FIDE rule set of the end date (``fide_rules``).

The simulator treats the tournament as the player's whole rating period: the change is K times
the sum of (score - PD) over its games (B.02 art. 8.3.2), K capped by its games (art. 8.3.3),
rounded once (art. 8.3.4). Every opponent is taken as rated.
"""

from __future__ import annotations

from fractions import Fraction
from math import floor

from zdb.rating.rounding import FLOAT_DECIMALS, round_float_to
from zdb.simulator.fide_rules import Expectation, FideRuleSet, fide_rule_set_for, pd
from zdb.simulator.model import Outcome, SimulationRequest, System, SystemResult, possible_scores

__all__ = ["expected_points", "k_factor", "round_away_from_zero", "simulate_fide"]


def round_away_from_zero(value: Fraction) -> int:
    """B.02 art. 8.3.4: "rounded to the nearest whole number. 0.5 is rounded away from zero"."""
    magnitude = floor(abs(value) + Fraction(1, 2))
    return magnitude if value >= 0 else -magnitude


def _difference(rules: FideRuleSet, own: int, opponent: int) -> int:
    difference = own - opponent
    if rules.cap_exempt_from is not None and own >= rules.cap_exempt_from:
        return difference  # art. 8.3.1 (from 1 October 2025): "the difference ... used in all cases"
    return max(-rules.difference_cap, min(rules.difference_cap, difference))  # art. 8.3.1; seed 003


def expected_points(rules: FideRuleSet, own: int, opponents: tuple[int, ...]) -> Fraction:
    """The sum of the player's scoring probabilities against ``opponents``."""
    total = Fraction(0)
    for opponent in opponents:
        difference = _difference(rules, own, opponent)
        if rules.expectation is Expectation.FIDE_TABLE:
            total += pd(difference)
        else:  # seed 003: 1 / (1 + 10^((R_G - R_E) / 400)), kept exact to 9 decimals (dwz-rules.md §5)
            total += round_float_to(1.0 / (1.0 + float(10.0 ** (-difference / 400.0))), FLOAT_DECIMALS)
    return total


def k_factor(rules: FideRuleSet, request: SimulationRequest) -> int:
    """B.02 art. 8.3.3 (seed 003 for the historical rule set), in the order ``KFactorRules`` states."""
    k_rules = rules.k
    age = request.age
    if request.reached_2400 or request.rating >= k_rules.high_from:
        k = k_rules.high_k
    elif (
        k_rules.junior_k is not None
        and age is not None
        and age <= k_rules.junior_age
        and request.rating < k_rules.junior_below
    ):
        k = k_rules.junior_k
    elif request.games_played is not None and request.games_played < k_rules.new_player_games:
        k = k_rules.new_player_k
    else:
        k = k_rules.standard_k
    if k_rules.games_cap is not None and k * request.games > k_rules.games_cap:
        k = k_rules.games_cap // request.games  # "the largest whole number such that K x n does not exceed 700"
    return k


def simulate_fide(request: SimulationRequest, rule_set: FideRuleSet | None = None) -> SystemResult:
    rules = rule_set or fide_rule_set_for(request.end_date)
    expected = expected_points(rules, request.rating, request.opponents)
    k = k_factor(rules, request)
    outcomes = []
    for score in possible_scores(request.games):
        change = round_away_from_zero(k * (score - expected))
        rating = request.rating + change
        notes: tuple[str, ...] = ()
        if rules.list_floor is not None and rating < rules.list_floor:
            notes = (f"below {rules.list_floor}: shown as unrated on the next list (B.02 art. 7.2.1)",)
        outcomes.append(Outcome(score, rating, change, Fraction(k), notes=notes))
    return SystemResult(
        system=System.FIDE,
        rule_set=rules.name,
        scale="Elo",
        coefficient="K",
        expected=float(expected),
        lower_is_better=False,
        outcomes=tuple(outcomes),
    )
