"""One call for every system the player asks about: the simulator's entry point."""

from __future__ import annotations

from collections.abc import Sequence

from zdb.rating import RuleSet
from zdb.simulator.dwz import simulate_dwz
from zdb.simulator.fcr import FCR_RULES, FcrRules, simulate_fcr
from zdb.simulator.fide import simulate_fide
from zdb.simulator.fide_rules import FideRuleSet
from zdb.simulator.ingo import INGO_RULES, IngoRules, simulate_ingo
from zdb.simulator.model import Simulation, SimulationRequest, System, SystemResult

__all__ = ["DEFAULT_SYSTEMS", "simulate"]

#: seed 003's simulator: "Elo, DWZ und FCR für alle Ergebnisse berechnen"
DEFAULT_SYSTEMS = (System.DWZ, System.FIDE, System.FCR)


def simulate(
    request: SimulationRequest,
    systems: Sequence[System] = DEFAULT_SYSTEMS,
    *,
    dwz_rules: RuleSet | None = None,
    fide_rules: FideRuleSet | None = None,
    fcr_rules: FcrRules = FCR_RULES,
    ingo_rules: IngoRules = INGO_RULES,
) -> Simulation:
    """Every possible score under each of ``systems``, in the order given. The DWZ and FIDE rule
    sets default to those in force on the request's end date."""
    results: list[SystemResult] = []
    for system in dict.fromkeys(systems):
        if system is System.DWZ:
            results.append(simulate_dwz(request, dwz_rules))
        elif system is System.FIDE:
            results.append(simulate_fide(request, fide_rules))
        elif system is System.FCR:
            results.append(simulate_fcr(request, fcr_rules))
        else:
            results.append(simulate_ingo(request, ingo_rules))
    return Simulation(request, tuple(results))
