"""The rating simulator: a player's new rating for every score he could make (seed 003).

A pure library (no I/O, no clock). Given the player's rating, index, age and games played, his
opponents' ratings and the tournament's end date, it answers for every score from 0 to n in
half points: the DWZ through the rating engine (the rule set of the end date), the FIDE Elo
under the FIDE rule set of the end date (FIDE Handbook B.02; seed 003's older rule as the
historical row), the FCR of seed 003 and the Ingo number of seed 002; plus the approximate
conversions between scales that seed 002 gives.
"""

from zdb.simulator.conversions import Approximation, Scale, convert, equivalents
from zdb.simulator.documents import dump_approximation, dump_simulation
from zdb.simulator.dwz import simulate_dwz, simulated_tournament
from zdb.simulator.fcr import FCR_RULES, FcrRules, simulate_fcr
from zdb.simulator.fide import expected_points, k_factor, simulate_fide
from zdb.simulator.fide_rules import (
    FIDE_RULE_SETS,
    Expectation,
    FideRuleSet,
    KFactorRules,
    fide_rule_set,
    fide_rule_set_for,
    pd,
)
from zdb.simulator.ingo import INGO_RULES, IngoRules, ingo_performance, simulate_ingo
from zdb.simulator.model import Outcome, Simulation, SimulationRequest, System, SystemResult, possible_scores
from zdb.simulator.simulate import DEFAULT_SYSTEMS, simulate

__all__ = [
    "DEFAULT_SYSTEMS",
    "FCR_RULES",
    "FIDE_RULE_SETS",
    "INGO_RULES",
    "Approximation",
    "Expectation",
    "FcrRules",
    "FideRuleSet",
    "IngoRules",
    "KFactorRules",
    "Outcome",
    "Scale",
    "Simulation",
    "SimulationRequest",
    "System",
    "SystemResult",
    "convert",
    "dump_approximation",
    "dump_simulation",
    "equivalents",
    "expected_points",
    "fide_rule_set",
    "fide_rule_set_for",
    "ingo_performance",
    "k_factor",
    "pd",
    "possible_scores",
    "simulate",
    "simulate_dwz",
    "simulate_fcr",
    "simulate_fide",
    "simulate_ingo",
    "simulated_tournament",
]
