"""The Ingo system (West Germany 1947 to 1991/92), for historical records: seed 002.

Ingo numbers run the other way round: lower is stronger, 1 the theoretical best and 300 the
theoretical worst, reached by losing every game (seed 002). A tournament's performance is the
opponents' average Ingo corrected by the percentage scored, and the new number is
``0.75 * old + 0.25 * performance`` (seed 002).

seed 002 writes the performance as ``average - [50 - (100 * points / games)]``. Read literally
that gives a 100 % score a performance 50 points *worse* than the opponents' average, against
the seed's own statements that lower is better and that losing every game leads to the worst
number. The correction therefore enters with the sign that makes a better score a lower
number: ``average - (100 * points / games - 50)``, i.e. 50 below the average for 100 % and 50
above it for 0 % (through the seed's conversion Elo = 2840 - 8 * Ingo, a better score is then
a higher Elo, as it must be). The seed names no rounding: the new number is rounded half up to
a whole number (dwz-rules.md §5) and kept between 1 and 300.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from zdb.rating.rounding import round_half_up
from zdb.simulator.model import Outcome, SimulationRequest, System, SystemResult, possible_scores

__all__ = ["INGO_RULES", "IngoRules", "ingo_performance", "simulate_ingo"]


@dataclass(frozen=True, slots=True)
class IngoRules:
    name: str = "ingo-seed002"
    par: int = 50  # seed 002: "[50 - (100*Punkte/Spiele)]"
    old_weight: Fraction = Fraction(3, 4)  # seed 002: "0,75 * Ingo-Zahl alt"
    performance_weight: Fraction = Fraction(1, 4)  # seed 002: "+ 0,25 * Ingo-Leistung"
    best: int = 1  # seed 002: "Die theoretisch beste Ingo-Zahl ist 1"
    worst: int = 300  # seed 002: "Die theoretisch schlechteste Ingo-Zahl ist 300"


INGO_RULES = IngoRules()


def ingo_performance(opponents: tuple[int, ...], score: Fraction, rules: IngoRules = INGO_RULES) -> Fraction:
    average = Fraction(sum(opponents), len(opponents))
    percentage = 100 * score / len(opponents)
    return average - (percentage - rules.par)


def simulate_ingo(request: SimulationRequest, rules: IngoRules = INGO_RULES) -> SystemResult:
    outcomes = []
    for score in possible_scores(request.games):
        performance = ingo_performance(request.opponents, score, rules)
        value = rules.old_weight * request.rating + rules.performance_weight * performance
        rating = min(rules.worst, max(rules.best, round_half_up(value)))
        outcomes.append(Outcome(score, rating, rating - request.rating, performance=performance))
    return SystemResult(
        system=System.INGO,
        rule_set=rules.name,
        scale="Ingo",
        coefficient="",
        expected=None,
        lower_is_better=True,
        outcomes=tuple(outcomes),
    )
