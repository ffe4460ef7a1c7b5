"""The simulator's request refuses what no rating system can answer, naming the field."""

from __future__ import annotations

from datetime import date
from fractions import Fraction
from typing import Any

import pytest

from zdb.rating import InvalidInputError
from zdb.simulator import SimulationRequest, System, possible_scores, simulate

END = date(2025, 5, 1)


@pytest.mark.parametrize(
    ("fields", "place"),
    [
        ({"opponents": ()}, "opponents"),
        ({"rating": 0}, "rating"),
        ({"opponents": (1500, 0)}, "opponents[1]"),
        ({"index": -1}, "index"),
        ({"games_played": -1}, "games_played"),
        ({"birth_year": 2026}, "birth_year"),
    ],
)
def test_invalid_requests(fields: dict[str, Any], place: str) -> None:
    values: dict[str, Any] = {"rating": 1500, "opponents": (1500,), "end_date": END} | fields
    with pytest.raises(InvalidInputError) as error:
        SimulationRequest(**values)
    assert error.value.place == place


def test_age_is_counted_in_years_of_the_end_date() -> None:
    assert SimulationRequest(1500, (1500,), END, birth_year=2005).age == 20
    assert SimulationRequest(1500, (1500,), END).age is None


def test_possible_scores() -> None:
    assert possible_scores(0) == (Fraction(0),)
    assert possible_scores(2) == (0, Fraction(1, 2), 1, Fraction(3, 2), 2)


def test_systems_come_in_the_order_asked_and_once() -> None:
    request = SimulationRequest(1500, (1500, 1600), END)
    simulation = simulate(request, (System.FCR, System.DWZ, System.FCR))
    assert [result.system for result in simulation.results] == [System.FCR, System.DWZ]
    with pytest.raises(KeyError):
        simulation.results[0].at(Fraction(5))
