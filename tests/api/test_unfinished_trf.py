"""A referee's file of a tournament that is not finished, or that contradicts itself, is not
previewed as ratable: the preview answers 422 with the reader's errors."""

from __future__ import annotations

import pytest

from tests.api.world import World, build_world
from tests.web.trf_files import good_trf

FIELDS = {"acronym": "HBT", "federation": "C03"}


@pytest.fixture
def fresh(database_url: str) -> World:
    return build_world(database_url)


def _preview(world: World, text: str) -> tuple[int, list[tuple[str, str]]]:
    answer = world.client.post(
        "/api/v1/tournaments/preview/trf",
        params=FIELDS,
        content=text.encode(),
        headers={"Authorization": f"Bearer {world.tokens['referee_c']}", "Content-Type": "text/plain"},
    )
    errors = answer.json().get("errors", []) if answer.status_code == 422 else []
    return answer.status_code, [(e["place"], e["message"]) for e in errors]


def test_unfinished_or_contradicting_files_are_not_previewed_as_ratable(fresh: World) -> None:
    good = good_trf(fresh)
    assert _preview(fresh, good)[0] == 200  # the round robin of four, three rounds: finished

    status, errors = _preview(fresh, good + "XXR 9\n")  # nine rounds announced, three played
    assert status == 422
    assert any("not finished" in message and "rounds 4 to 9" in message for _, message in errors), errors

    lines = good.splitlines()
    end = next(k for k, line in enumerate(lines) if line.startswith("052"))
    lines.insert(end + 1, "052 2026/11/31")  # a second end date, one that cannot be
    status, errors = _preview(fresh, "\n".join(lines) + "\n")
    assert status == 422
    place = f"line {end + 2}"
    assert (place, "052: '2026/11/31' is not a valid date") in errors, errors
    assert any(p == place and "given twice" in m for p, m in errors), errors
