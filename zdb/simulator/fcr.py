"""FCR, the Freechess rating, as seed 003 describes it: the classic DWZ formula in its words.

seed 003 ("DWZ und FCR"): the expected points, as for the Elo, are taken from the points
scored; the difference is multiplied by 800 / (E + n). E is J + (R / 1000)^4, J being 5 under
20 years, 10 under 25, else 15; times the acceleration factor for players under 20 whose rating
is between 1000 and 2000 and who scored more than expected; plus the brake for a rating below
1300 and at most the expected points; at least 5, at most 150 with the brake, else at most
5 times the index.

The seed does not give the two factors' formulas; they are the classic DWZ's (dwz-rules.md §6):
fB = R / 2000 and SBr = e^((1300 - R) / 150) - 1. Where the seed's words differ from the DWZ
rule set the engine applies, this follows the seed (parameters below): the age limits "under
20" and "under 25", ``W > We`` and ``W <= We``, fB only between 1000 and 2000, no cap of 30 for
indices above 5, and the expected score of the Elo paragraph, 1 / (1 + 10^((R_G - R_E) / 400))
(seed 003: "verwenden ebenso wie die Elo die Punkterwartung"; the cut of differences above 400
belongs to the Elo paragraph and is not applied).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import exp

from zdb.rating.rounding import round_float, round_half_up
from zdb.simulator.model import Outcome, SimulationRequest, System, SystemResult, possible_scores

__all__ = ["FCR_RULES", "FcrRules", "simulate_fcr"]


@dataclass(frozen=True, slots=True)
class FcrRules:
    name: str = "fcr-seed003"
    youth_below: int = 20  # seed 003: "unter 20 Jahren ... 5"
    junior_below: int = 25  # seed 003: "unter 25 Jahren 10"
    j_youth: int = 5
    j_junior: int = 10
    j_adult: int = 15
    acceleration_from: int = 1000  # seed 003: "nicht größer als 2.000 und nicht kleiner als 1.000"
    acceleration_to: int = 2000
    acceleration_divisor: int = 2000  # fB = R / 2000 (dwz-rules.md §6)
    brake_below: int = 1300  # seed 003: "unterhalb von 1.300"
    brake_scale: int = 150  # SBr = e^((1300 - R) / 150) - 1 (dwz-rules.md §6)
    e_min: int = 5  # seed 003: "mindestens 5"
    e_max_with_brake: int = 150  # seed 003: "nicht größer ... als 150, wenn der Bremszuschlag zum tragen kommt"
    e_per_index: int = 5  # seed 003: "nicht größer als das Produkt aus Wertungsindex und 5"
    scale: int = 800  # seed 003: "der Quotient aus 800 und der Summe ..."


FCR_RULES = FcrRules()


def _expected(own: int, opponents: tuple[int, ...]) -> float:
    return sum(1.0 / (1.0 + float(10.0 ** ((opponent - own) / 400.0))) for opponent in opponents)


def _coefficient(rules: FcrRules, request: SimulationRequest, above_expected: bool) -> int:
    rating, age = request.rating, request.age
    if age is not None and age < rules.youth_below:
        j = rules.j_youth
    elif age is not None and age < rules.junior_below:
        j = rules.j_junior
    else:
        j = rules.j_adult
    e0 = Fraction(rating, 1000) ** 4 + j
    youth = age is not None and age < rules.youth_below
    if youth and above_expected and rules.acceleration_from <= rating <= rules.acceleration_to:
        e0 *= Fraction(rating, rules.acceleration_divisor)
    if rating < rules.brake_below and not above_expected:
        brake = exp((rules.brake_below - rating) / rules.brake_scale) - 1.0
        return min(max(rules.e_min, round_float(float(e0) + brake)), rules.e_max_with_brake)
    index = max(1, request.index)  # an index 0 counts as 1 (dwz-rules.md §13.11)
    return min(max(rules.e_min, round_half_up(e0)), rules.e_per_index * index)


def simulate_fcr(request: SimulationRequest, rules: FcrRules = FCR_RULES) -> SystemResult:
    expected = _expected(request.rating, request.opponents)
    outcomes = []
    for score in possible_scores(request.games):
        above = float(score) > round(expected, 9)  # seed 003: "mehr Punkte ... als erwartet"
        e = _coefficient(rules, request, above)
        rating = round_float(request.rating + rules.scale * (float(score) - expected) / (e + request.games))
        outcomes.append(Outcome(score, rating, rating - request.rating, Fraction(e)))
    return SystemResult(
        system=System.FCR,
        rule_set=rules.name,
        scale="FCR",
        coefficient="E",
        expected=expected,
        lower_is_better=False,
        outcomes=tuple(outcomes),
    )
