"""The standings of a stored tournament and the simulator through the API."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from tests.api.world import REPLAY, World
from tests.conftest import VECTORS

_POINTS = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5), "+-": (1.0, 0.0), "-+": (0.0, 1.0)}


def _points_of(event: dict[str, Any]) -> dict[str, float]:
    points: dict[str, float] = defaultdict(float)
    for game in event["games"]:
        white, black = _POINTS.get(game["result"], (0.0, 0.0))
        points[game["white"]] += white
        points[game["black"]] += black
    return points


def test_standings_of_a_stored_round_robin(world: World) -> None:
    # Tournament 4 of the replay vector is a complete round robin of 8.
    (event,) = (e for e in REPLAY["events"] if e.get("id") == 4)
    response = world.get("/tournaments/4/standings", pairing="round-robin")
    assert response.status_code == 200, response.text
    rows = response.json()["rows"]
    expected = _points_of(event)
    total = sum(expected.values())
    assert {world.pid[int(row["player"])]: row["points"] for row in rows} == expected
    assert sorted(row["rank"] for row in rows)[0] == 1
    for row in rows:  # in a complete round robin, Buchholz = everybody else's points
        assert row["BH"] == total - row["points"]


def test_standings_of_an_unknown_tournament_is_404(world: World) -> None:
    response = world.get("/tournaments/999999/standings")
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("application/problem+json")


def test_simulator_reproduces_the_seed_example(world: World) -> None:
    case = VECTORS["single_player"][0]  # seed 001: adult 1600-12 against 1700
    body = {
        "rating": case["player"]["r0"],
        "index": case["player"]["index"],
        "birth_year": case["player"]["birth_year"],
        "opponents": case["opponents"],
        "end_date": case["end_date"],
        "systems": ["dwz"],
    }
    response = world.client.post("/api/v1/simulator", json=body)
    assert response.status_code == 200, response.text
    (dwz,) = response.json()["systems"]
    (row,) = (o for o in dwz["outcomes"] if o["score"] == case["W"])
    assert row["rating"] == case["expected"]["rn"]
    assert row["K"] == case["expected"]["K"]


def test_simulator_refuses_bad_input_naming_the_field(world: World) -> None:
    response = world.client.post("/api/v1/simulator", json={"rating": 1600, "opponents": [], "end_date": "2026-01-01"})
    assert response.status_code == 422
    assert "opponents" in response.text
