"""Dates and date-times of a query are ISO 8601 and nothing else: ``changed_since=0.5`` was read
as half a second after 1970 (pydantic's lax parsing of numbers), a client's mistake answered
with every change instead of a refusal. A value that is not ISO 8601 is a 400 naming the
parameter, with an example of what it takes."""

from __future__ import annotations

import pytest

from tests.api.world import World

BAD = ["0.5", "1733000000", "2026-12-01T08", "1.12.2026", "today"]


@pytest.mark.parametrize("value", BAD)
def test_a_change_feed_polled_with_a_number_is_refused_naming_the_parameter(world: World, value: str) -> None:
    answer = world.get("/ratings/changes", changed_since=value)
    assert answer.status_code == 400, answer.text
    problem = answer.json()
    assert problem["errors"][0]["place"] == "query.changed_since"
    assert "ISO 8601" in problem["errors"][0]["message"] and "2026-12-01T08:00:00Z" in problem["errors"][0]["message"]


@pytest.mark.parametrize(
    ("path", "parameter"),
    [
        ("/clubs/C0327/ratings", "changed_since"),
        ("/audit-log", "since"),
        ("/ratings/top", "at"),
        ("/tournaments", "from"),
    ],
)
def test_every_date_parameter_refuses_a_number(world: World, path: str, parameter: str) -> None:
    answer = world.get(path, "admin", **{parameter: "0.5"})
    assert answer.status_code == 400, answer.text
    assert answer.json()["errors"][0]["place"] == f"query.{parameter}"


@pytest.mark.parametrize("value", ["2026-01-01", "2026-01-01T00:00:00Z", "2026-01-01T01:00:00+01:00"])
def test_iso_dates_and_date_times_are_taken(world: World, value: str) -> None:
    answer = world.get("/ratings/changes", changed_since=value)
    assert answer.status_code == 200, answer.text


def test_an_impossible_iso_date_stays_a_422(world: World) -> None:
    assert world.get("/ratings/changes", changed_since="2026-02-30").status_code == 422
