"""FIDE Elo: the rules of FIDE Handbook B.02 (Rating Regulations effective 1 March 2024, with the
amendment of art. 8.3.1 effective 1 October 2025) and seed 003's historical rule, one by one."""

from __future__ import annotations

from datetime import date
from fractions import Fraction

import pytest

from zdb.simulator import (
    SimulationRequest,
    expected_points,
    fide_rule_set,
    fide_rule_set_for,
    k_factor,
    pd,
    simulate_fide,
)
from zdb.simulator.fide import round_away_from_zero

CURRENT = fide_rule_set("fide-2025-10")
BEFORE_OCTOBER_2025 = fide_rule_set("fide-2024")
SEED_003 = fide_rule_set("fide-seed003")
END = date(2026, 9, 27)


@pytest.mark.parametrize(
    ("difference", "expected"),
    [
        (0, "0.50"),  # table 8.1.2: 0-3 -> .50
        (3, "0.50"),
        (4, "0.51"),  # 4-10 -> .51
        (-4, "0.49"),  # the L column
        (100, "0.64"),  # 99-106
        (-100, "0.36"),
        (400, "0.92"),  # 392-411
        (-400, "0.08"),
        (413, "0.93"),  # 412-432
        (484, "0.95"),  # 457-484
        (485, "0.96"),  # 485-517
        (735, "0.99"),  # 620-735
        (736, "1"),  # > 735 -> 1.0 / .00
        (-800, "0"),
    ],
)
def test_table_8_1_2(difference: int, expected: str) -> None:
    assert pd(difference) == Fraction(expected)


def _request(rating: int, *opponents: int, **details: object) -> SimulationRequest:
    return SimulationRequest(rating, opponents, details.pop("end_date", END), **details)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("request_", "k"),
    [
        (_request(1800, 1800, games_played=10), 40),  # art. 8.3.3: new player, fewer than 30 games
        (_request(1800, 1800, games_played=30), 20),  # "under 2400"
        (_request(2000, 2000), 20),  # games unknown: at least 30
        (_request(2450, 2400, games_played=5), 10),  # "once a player's published rating has reached 2400"
        (_request(2350, 2400, reached_2400=True), 10),  # "... even if the rating drops below 2400"
        (_request(2200, 2200, birth_year=2010), 40),  # junior under 2300
        (_request(2200, 2200, birth_year=2008), 40),  # "until the end of the year of their 18th birthday"
        (_request(2200, 2200, birth_year=2007), 20),  # 19 in the year of the end date
        (_request(2300, 2300, birth_year=2010), 20),  # "as long as their rating remains under 2300"
    ],
)
def test_k_lines_of_art_8_3_3(request_: SimulationRequest, k: int) -> None:
    assert k_factor(CURRENT, request_) == k


def test_k_times_games_at_most_700() -> None:
    # art. 8.3.3: "K shall be the largest whole number such that K x n does not exceed 700"
    assert k_factor(CURRENT, _request(2000, *([2000] * 39))) == 17  # 20 * 39 = 780 -> 700 // 39 = 17
    assert k_factor(CURRENT, _request(2000, *([2000] * 35))) == 20  # 20 * 35 = 700 is allowed
    assert k_factor(CURRENT, _request(1500, *([1500] * 18), games_played=3)) == 38  # 40 * 18 = 720


def test_rating_change_worked_by_hand() -> None:
    # 2000 (K 20) against 1900, 2100, 2500: PD .64 + .36 + .08 (the 2500 counts as 400 above,
    # art. 8.3.1) = 1.08. With 2 points: 20 * (2 - 1.08) = 18.4 -> +18 (art. 8.3.2 d, 8.3.4).
    result = simulate_fide(_request(2000, 1900, 2100, 2500))
    assert result.expected == pytest.approx(1.08)
    assert result.at(Fraction(2)).change == 18
    assert result.at(Fraction(2)).rating == 2018
    assert result.at(Fraction(0)).change == round_away_from_zero(Fraction(20) * Fraction(-108, 100)) == -22


def test_half_points_are_rounded_away_from_zero() -> None:
    # art. 8.3.4: "0.5 is rounded away from zero". 2600 (K 10) draws 2410: D 190 -> PD .75,
    # change 10 * (0.5 - 0.75) = -2.5 -> -3; the 2410 (K 10) draws 2600: +2.5 -> +3.
    assert simulate_fide(_request(2600, 2410)).at(Fraction(1, 2)).change == -3
    assert simulate_fide(_request(2410, 2600)).at(Fraction(1, 2)).change == 3
    assert round_away_from_zero(Fraction(5, 2)) == 3
    assert round_away_from_zero(Fraction(-5, 2)) == -3
    assert round_away_from_zero(Fraction(-249, 100)) == -2


def test_400_point_rule_and_its_2650_exemption() -> None:
    # art. 8.3.1 from 1 October 2025: the cap is for players rated below 2650 only.
    assert expected_points(CURRENT, 2813, (2400,)) == Fraction("0.93")  # D = 413 used as it is
    assert expected_points(BEFORE_OCTOBER_2025, 2813, (2400,)) == Fraction("0.92")  # capped at 400
    assert expected_points(CURRENT, 2400, (2813,)) == Fraction("0.08")  # the lower-rated player: capped


def test_rule_set_by_end_date() -> None:
    assert fide_rule_set_for(date(2024, 2, 29)).name == "fide-seed003"
    assert fide_rule_set_for(date(2024, 3, 1)).name == "fide-2024"
    assert fide_rule_set_for(date(2025, 9, 30)).name == "fide-2024"
    assert fide_rule_set_for(date(2025, 10, 1)).name == "fide-2025-10"
    assert simulate_fide(_request(2000, 2000, end_date=date(2020, 1, 1))).rule_set == "fide-seed003"


def test_below_the_floor_is_noted() -> None:
    # art. 7.2.1: "Players whose ratings drop below 1400 are shown as unrated on the next list."
    result = simulate_fide(_request(1405, 1600, 1600))
    assert result.at(Fraction(0)).rating < 1400
    assert "B.02 art. 7.2.1" in result.at(Fraction(0)).notes[0]
    assert result.at(Fraction(2)).notes == ()


# seed 003 (shared/seeds/003_5aa285c0847b5996.txt) line 21: "Für k wird normalerweise 15
# eingesetzt. Bei Spielern mit weniger als 30 gewerteten Partien ist k = 25. Bei Spielern mit
# einer Elo von 2.400 und mehr ist k = 10."
@pytest.mark.parametrize(
    ("request_", "k"),
    [
        (_request(2000, 2000, games_played=100), 15),
        (_request(2000, 2000, games_played=29), 25),
        (_request(2400, 2000, games_played=100), 10),
        (_request(2300, 2000, reached_2400=True), 10),  # line 21: "auch dann, wenn ... zurückfiel"
        (_request(1800, 1800, birth_year=2012), 15),  # no junior rule in the seed
        (_request(2000, *([2000] * 60)), 15),  # and no cap of 700
    ],
)
def test_seed_003_k(request_: SimulationRequest, k: int) -> None:
    assert k_factor(SEED_003, request_) == k


def test_seed_003_expected_score() -> None:
    # seed 003 line 17: 1 / (1 + 10^((R_G - R_E) / 400)); line 19: differences above 400 cut to 400
    assert expected_points(SEED_003, 2000, (2000,)) == Fraction(1, 2)
    assert float(expected_points(SEED_003, 2000, (2200,))) == pytest.approx(1 / (1 + 10**0.5), abs=1e-9)
    assert expected_points(SEED_003, 2000, (2600,)) == expected_points(SEED_003, 2000, (2400,))
    assert float(expected_points(SEED_003, 2000, (2400,))) == pytest.approx(1 / 11, abs=1e-9)


def test_seed_003_change() -> None:
    # 2000 (k 15) beats an equal opponent: 15 * (1 - 0.5) = 7.5 -> +8; loses: -7.5 -> -8
    result = simulate_fide(_request(2000, 2000, end_date=date(2010, 5, 1)))
    assert result.rule_set == "fide-seed003"
    assert [outcome.change for outcome in result.outcomes] == [-8, 0, 8]
