"""Boundaries of the rules that neither the vectors nor the other unit tests reach, each found
by a change to the engine (a mutant, docs/mutation.md) that every other test let pass.

The expected values come from the spec's text (the section is named at each test), never from
the engine.
"""

from __future__ import annotations

from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from math import erf

import numpy as np
import pytest

from zdb.rating import (
    RULE_SETS,
    Game,
    LeftoverGame,
    Participant,
    PlayerState,
    ResultCode,
    Tournament,
    evaluate_tournament,
    evaluate_tournaments,
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


def _one_game(players: tuple[Participant, ...], result: ResultCode = ResultCode.DRAW) -> Tournament:
    return Tournament(33, "ONE", date(2025, 5, 4), players, (Game(players[0].pid, players[1].pid, result),))


# spec §4, §13.15: We is reported rounded half up to 6 decimals. P(100) = 0.63816319508…
def test_we_is_reported_to_six_decimals() -> None:
    expected = Decimal(repr(0.5 * (1 + erf(100 / 400)))).quantize(Decimal("0.000001"), ROUND_HALF_UP)
    assert expected == Decimal("0.638163")
    tournament = _one_game((Participant("A", 1980), Participant("B", 1980)))
    (row, _) = evaluate_tournament(tournament, {"A": PlayerState(1700, 9), "B": PlayerState(1600, 9)}).rows
    assert row.we == float(expected)


# spec §10, §13.10: from a DWZ of 2400 on, a FIDE rating given counts as R0; below, the DWZ.
# A leftover game against such a player stores that FIDE R0, marked (§13.5).
@pytest.mark.parametrize(("dwz", "r0"), [(2400, 2450), (2399, 2399)])
def test_a_fide_rating_counts_from_a_dwz_of_2400(dwz: int, r0: int) -> None:
    players = (Participant("T", 1980, fide_rating=2450), Participant("N", 1990))
    evaluation = evaluate_tournament(_one_game(players), {"T": PlayerState(dwz, 9)})
    assert {row.pid: row.r0 for row in evaluation.rows} == {"T": r0, "N": None}
    (game,) = evaluation.states["N"].leftover
    assert (game.opp_rating, game.opp_fide) == (r0, dwz == 2400)


# spec §13.12: a player with a stored DWZ or stored leftover games counts as a member whatever
# the submission says: his new DWZ, or his new leftover games, are stored.
def test_a_player_with_a_dwz_or_leftover_games_is_never_a_guest() -> None:
    leftover = (LeftoverGame(1, date(2025, 1, 5), 1500, 1.0),)
    players = (
        Participant("R", 1980, member=False),
        Participant("L", 1990, member=False),
        Participant("G", 1990, member=False),
        Participant("D", 1980),
    )
    games = (Game("R", "L", ResultCode.DRAW), Game("R", "G", ResultCode.DRAW), Game("R", "D", ResultCode.DRAW))
    tournament = Tournament(34, "GST", date(2025, 5, 4), players, games)
    states = {"R": PlayerState(1600, 9), "L": PlayerState(leftover=leftover), "D": PlayerState(1600, 9)}
    evaluation = evaluate_tournament(tournament, states)
    rows = {row.pid: row for row in evaluation.rows}
    assert (rows["R"].member, rows["L"].member, rows["G"].member) == (True, True, False)
    assert rows["R"].stored and evaluation.states["R"] == PlayerState(1600, 10)
    assert len(evaluation.states["L"].leftover) == 2 and evaluation.states["G"] == PlayerState()


# spec §13.7, evaluated in a batch (each tournament exactly as alone): a leftover game expires
# against the end date of the newcomer's own tournament, not of another one of the batch.
def test_leftover_games_expire_by_the_end_date_of_their_own_tournament_in_a_batch() -> None:
    early = _one_game((Participant("A", 1980), Participant("B", 1980)))
    late = Tournament(
        35,
        "LATE",
        date(2027, 1, 20),
        (Participant("N", 1990), Participant("C", 1980)),
        (Game("N", "C", ResultCode.DRAW),),
    )
    leftover = (LeftoverGame(2, date(2025, 1, 15), 1500, 1.0),)  # 2027-01-15 < 2027-01-20: expired
    states = {"A": PlayerState(1600, 9), "B": PlayerState(1600, 9), "C": PlayerState(1600, 9)}
    states["N"] = PlayerState(leftover=leftover)
    _, evaluation = evaluate_tournaments([early, late], states, RULE_SETS[0])
    (row,) = (row for row in evaluation.rows if row.pid == "N")
    assert row.leftover_used == 0
    assert evaluation.states["N"].leftover == (LeftoverGame(35, date(2027, 1, 20), 1600, 0.5),)


def test_tournaments_evaluated_together_may_not_share_a_player() -> None:
    first = _one_game((Participant("A", 1980), Participant("B", 1980)))
    second = Tournament(36, "TWO", date(2025, 5, 5), first.players, first.games)
    with pytest.raises(ValueError, match=r"^tournaments evaluated together must not share a player$"):
        evaluate_tournaments([first, second], {}, RULE_SETS[0])
