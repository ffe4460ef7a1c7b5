"""A simulation as a JSON-ready document (``zdb simulate --json``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from zdb.simulator.conversions import Approximation
from zdb.simulator.model import Outcome, Simulation, SystemResult

__all__ = ["dump_approximation", "dump_simulation"]


def _number(value: Fraction | None) -> float | None:
    return None if value is None else float(value)


def _outcome(outcome: Outcome, coefficient: str) -> dict[str, Any]:
    item: dict[str, Any] = {"score": float(outcome.score), "rating": outcome.rating, "change": outcome.change}
    if coefficient:
        item[coefficient] = _number(outcome.coefficient)
    if outcome.performance is not None:
        item["performance"] = float(outcome.performance)
    if outcome.notes:
        item["notes"] = list(outcome.notes)
    return item


def _result(result: SystemResult) -> dict[str, Any]:
    return {
        "system": result.system.value,
        "rule_set": result.rule_set,
        "scale": result.scale,
        "lower_is_better": result.lower_is_better,
        "expected": result.expected,
        "outcomes": [_outcome(outcome, result.coefficient) for outcome in result.outcomes],
    }


def dump_approximation(approximation: Approximation) -> dict[str, Any]:
    return {
        "scale": approximation.scale.value,
        "value": float(approximation.value),
        "approximate": approximation.approximate,
        "formulas": list(approximation.formulas),
        "source": approximation.source,
    }


def dump_simulation(simulation: Simulation, equivalents: tuple[Approximation, ...] = ()) -> dict[str, Any]:
    request = simulation.request
    document: dict[str, Any] = {
        "player": {
            "rating": request.rating,
            "index": request.index,
            "birth_year": request.birth_year,
            "age": request.age,
            "games_played": request.games_played,
            "reached_2400": request.reached_2400,
        },
        "opponents": list(request.opponents),
        "end_date": request.end_date.isoformat(),
        "systems": [_result(result) for result in simulation.results],
    }
    if equivalents:
        document["equivalents"] = [dump_approximation(item) for item in equivalents]
    return document
