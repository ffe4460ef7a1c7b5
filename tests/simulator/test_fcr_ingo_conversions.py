"""FCR as seed 003 words it, the Ingo system and the scale conversions of seed 002."""

from __future__ import annotations

from datetime import date
from fractions import Fraction
from math import exp

import pytest

from zdb.simulator import Scale, SimulationRequest, convert, equivalents, ingo_performance, simulate_fcr, simulate_ingo

END = date(2025, 5, 1)


def _logistic(own: int, opponent: int) -> float:
    return 1 / (1 + 10 ** ((opponent - own) / 400))


def test_fcr_adult_by_hand() -> None:
    # seed 003 line 27: E = J + (R / 1000)^4 with J = 15 for 25 and older: 15 + 1.6^4 = 21.5536 -> 22;
    # Rn = R + 800 * (W - We) / (E + n); We with the Elo expectation (line 25, line 17).
    request = SimulationRequest(1600, (1500, 1700), END, index=10, birth_year=1980)
    we = _logistic(1600, 1500) + _logistic(1600, 1700)
    result = simulate_fcr(request)
    assert result.expected == pytest.approx(we)
    assert result.at(Fraction(2)).coefficient == 22
    assert result.at(Fraction(2)).rating == round(1600 + 800 * (2 - we) / (22 + 2))


@pytest.mark.parametrize(("age", "j"), [(19, 5), (20, 10), (24, 10), (25, 15)])
def test_fcr_age_classes(age: int, j: int) -> None:
    # seed 003 line 27: "unter 20 Jahren beträgt J 5, bei Spielern unter 25 Jahren 10 und ansonsten 15"
    # A draw against an equal opponent is exactly as expected: no acceleration, no brake.
    request = SimulationRequest(2000, (2000,), END, index=20, birth_year=END.year - age)
    assert simulate_fcr(request).at(Fraction(1, 2)).coefficient == 16 + j


def test_fcr_acceleration_only_between_1000_and_2000() -> None:
    # seed 003 line 29: fB only for players under 20 between 1000 and 2000 who beat expectation;
    # its value R / 2000 is the classic DWZ's (dwz-rules.md §6): (1.5^4 + 5) * 0.75 = 7.55 -> 8.
    youth = SimulationRequest(1500, (1500,), END, index=20, birth_year=2010)
    assert simulate_fcr(youth).at(Fraction(1)).coefficient == 8
    assert simulate_fcr(youth).at(Fraction(1, 2)).coefficient == 10  # not above expectation: 10.0625 -> 10
    low = SimulationRequest(900, (900,), END, index=20, birth_year=2010)
    assert simulate_fcr(low).at(Fraction(1)).coefficient == 6  # 0.9^4 + 5 = 5.66 -> 6, no factor below 1000


def test_fcr_brake_and_its_cap() -> None:
    # seed 003 line 31: below 1300 and at most the expected points: SBr = e^((1300 - R)/150) - 1
    # is added (dwz-rules.md §6), E at most 150.
    request = SimulationRequest(1000, (1000,), END, index=3, birth_year=1980)
    e = round(1.0 + 15 + exp(2) - 1)
    assert simulate_fcr(request).at(Fraction(1, 2)).coefficient == e  # W = We counts ("maximal")
    very_low = SimulationRequest(500, (500,), END, index=3, birth_year=1980)
    assert simulate_fcr(very_low).at(Fraction(0)).coefficient == 150


def test_fcr_index_cap_and_minimum() -> None:
    # seed 003 line 31: at least 5, at most 5 times the index (no cap of 30 in the seed's words)
    assert simulate_fcr(SimulationRequest(2000, (2000,), END, index=1)).at(Fraction(1)).coefficient == 5
    assert simulate_fcr(SimulationRequest(2200, (2200,), END, index=20)).at(Fraction(1)).coefficient == 38


def test_ingo_formula() -> None:
    # seed 002 line 15: new = 0.75 * old + 0.25 * performance; line 13 with the sign of line 11
    # (lower is better): 100 % is 50 below the opponents' average, 0 % 50 above it.
    assert ingo_performance((110, 130), Fraction(2)) == 70
    assert ingo_performance((110, 130), Fraction(0)) == 170
    assert ingo_performance((110, 130), Fraction(1)) == 120
    result = simulate_ingo(SimulationRequest(120, (110, 130), END))
    assert result.lower_is_better
    assert [outcome.rating for outcome in result.outcomes] == [133, 126, 120, 114, 108]  # 0.75*120 + 0.25*perf


def test_ingo_bounds() -> None:
    # seed 002 line 11: the theoretical best is 1, the worst 300
    assert simulate_ingo(SimulationRequest(2, (1, 1), END)).at(Fraction(2)).rating == 1
    assert simulate_ingo(SimulationRequest(299, (300, 300), END)).at(Fraction(0)).rating == 300


def test_conversions_of_seed_002() -> None:
    # seed 002 line 17 / 39: Elo = 2840 - 8 * Ingo
    assert convert(120, Scale.INGO, Scale.ELO).value == 1880
    assert convert(1880, Scale.ELO, Scale.INGO).value == 120
    # seed 002 line 40: Elo = 600 + 8 * BCF
    assert convert(150, Scale.BCF, Scale.ELO).value == 1800
    assert convert(1800, Scale.ELO, Scale.BCF).value == 150
    # seed 002 line 38: DWZ = Elo - 100
    assert convert(1700, Scale.ELO, Scale.DWZ).value == 1600
    assert convert(1600, Scale.DWZ, Scale.ELO).value == 1700
    chained = convert(1600, Scale.DWZ, Scale.INGO)
    assert chained.value == Fraction(2840 - 1700, 8)
    assert chained.formulas == ("Elo ≈ DWZ + 100", "Ingo ≈ (2840 - Elo) / 8")


def test_every_conversion_is_labelled_an_approximation() -> None:
    items = equivalents(1600, Scale.DWZ)
    assert [item.scale for item in items] == [Scale.ELO, Scale.INGO, Scale.BCF]
    assert all(item.approximate and "approximation" in item.source for item in items)
