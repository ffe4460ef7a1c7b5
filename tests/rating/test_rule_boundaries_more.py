"""Boundaries of the rules that neither the vectors nor the other unit tests reach, each found
by a change to the engine (a mutant, docs/mutation.md) that every other test let pass.

The expected values come from the spec's text (the section is named at each test), never from
the engine.
"""

from __future__ import annotations

from datetime import date
from fractions import Fraction
from math import erf

import numpy as np

from zdb.rating import (
    Game,
    LeftoverGame,
    Participant,
    PlayerState,
    ResultCode,
    Tournament,
    evaluate_tournament,
    solve_rating,
)
from zdb.rating.joint import JointEquation, solve_jointly
from zdb.rating.rounding import round_float_to, rounded_float, rounded_floats
from zdb.rating.rulesets import CONVERSIONS, conversions_between

#: 0.25 − 4.6·10⁻¹⁰: to 9 decimals 0.250000000 (the tenth digit is 5), so one decimal half up is 0.3
NEAR_A_TIE = 0.24999999954


# spec §5: a float is first rounded to 9 decimals, then half up. A value closer to a tie than
# 5·10⁻¹⁰ (in units of its last decimal place) becomes the tie and rounds up, although it lies
# below it; only the exact path sees this, so the fast path must leave such values to it.
def test_a_float_within_half_a_ninth_decimal_below_a_tie_rounds_up() -> None:
    assert round_float_to(NEAR_A_TIE, 1) == Fraction(3, 10)
    assert rounded_float(NEAR_A_TIE, 1) == 0.3
    assert rounded_floats(np.array([NEAR_A_TIE, 0.2499999994]), 1).tolist() == [0.3, 0.2]


# spec §8 and §13.6: the conversion is ordered after every tournament ending on 2026-06-07, so
# a leftover opponent rating is converted only for a tournament ending on 2026-06-08 or later.
def test_a_tournament_ending_on_the_conversion_day_uses_leftover_ratings_unconverted() -> None:
    assert conversions_between(date(2026, 5, 1), date(2026, 6, 7)) == ()
    assert conversions_between(date(2026, 6, 7), date(2026, 6, 8)) == CONVERSIONS
    assert conversions_between(date(2026, 6, 8), date(2026, 6, 9)) == ()


# spec §4 and §9.5: the rating R with Σ P(R − R_opp) = W, whatever the solver starts from. Four
# opponents of 1500 and one point: P(R − 1500) = 0.25. Started at 1500, the first sum is 2, one
# point more than W (a value of exactly 1.0), which is no solution.
def test_a_performance_started_one_point_off_still_solves_the_equation() -> None:
    rating = solve_rating([1500.0] * 4, 1.0, start=1500.0)
    assert abs(4 * 0.5 * (1 + erf((rating - 1500) / 400)) - 1.0) < 1e-9
    assert round(rating) == 1309  # 1500 + 400 · erfinv(−0.5) = 1500 − 190.77


# spec §9.4 and §13.13: the joint iteration solves Σ P(Ri − R_opp) = W for every newcomer to
# 1e-9. Two newcomers far from their fixed opponents: A drew a 3000 and scored 4 of 7 against
# B; B scored ½ against 2900, 800 and 3000 and 3 of 7 against A. The Newton step and its half
# overshoot: the step must be halved more than once before it descends.
def test_the_joint_iteration_solves_a_group_whose_steps_must_be_halved_twice() -> None:
    equations = [
        JointEquation(fixed=(3000.0,), coupled=(1,) * 7, points=4.5),
        JointEquation(fixed=(2900.0, 800.0, 3000.0), coupled=(0,) * 7, points=3.5),
    ]
    x = solve_jointly(equations)
    for a, equation in enumerate(equations):
        total = sum(0.5 * (1 + erf((x[a] - r) / 400)) for r in equation.fixed)
        total += sum(0.5 * (1 + erf((x[a] - x[b]) / 400)) for b in equation.coupled)
        assert abs(total - equation.points) < 1e-9


# spec §9.9, §10, §13.5: a newcomer left without a first rating keeps his games against rated
# opponents, each with the opponent's R0; an R0 that is a FIDE start value is marked as such
# (it is never converted, §13.6), a DWZ is not.
def test_a_leftover_game_against_a_fide_start_value_is_marked_fide() -> None:
    players = (Participant("N", 1990), Participant("F", 1980, fide_rating=1900), Participant("D", 1980))
    games = (Game("N", "F", ResultCode.DRAW), Game("D", "N", ResultCode.WHITE_WINS))
    tournament = Tournament(31, "LFT", date(2025, 5, 4), players, games)
    after = evaluate_tournament(tournament, {"D": PlayerState(1700, 9)}).states["N"]
    assert after.rating is None
    assert after.leftover == (
        LeftoverGame(31, date(2025, 5, 4), 1900, 0.5, True),
        LeftoverGame(31, date(2025, 5, 4), 1700, 0.0, False),
    )
    assert [game.opp_fide for game in after.leftover] == [True, False]


# The spec's notation: a rating is a DWZ and always an integer, written rating-index; the report's E (spec §6)
# is an integer too. A float 1650.0 equals 1650, but is written "1650.0" wherever it goes.
def test_ratings_indexes_and_e_come_out_as_integers() -> None:
    players = (*(Participant(p, 1980) for p in "ABCDEF"), Participant("F2", 1980, fide_rating=1800))
    opponents = "ABCDE"
    games = (*(Game("F", p, ResultCode.DRAW) for p in opponents), Game("F2", "A", ResultCode.WHITE_WINS))
    states = {p: PlayerState(1500 + 50 * k, 8) for k, p in enumerate(opponents)}
    evaluation = evaluate_tournament(Tournament(32, "INT", date(2025, 5, 4), players, games), states)
    for row in evaluation.rows:
        assert row.rn is not None and type(row.rn) is int and type(row.i_new) is int, row.pid
        assert row.e is None or type(row.e) is int, row.pid
    assert {row.pid for row in evaluation.rows if row.e is not None} == {"A", "B", "C", "D", "E", "F2"}
    for pid, state in evaluation.states.items():
        assert type(state.rating) is int and type(state.index) is int, pid
