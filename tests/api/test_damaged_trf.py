"""A damaged TRF submitted by a referee is refused (422) naming its line and field, where it
was accepted (201): a control character in a name, a player line cut before its round
results, a start date of ``0001/01/01``."""

from __future__ import annotations

import pytest

from tests.api.world import World, build_world
from tests.web.trf_files import good_trf

FIELDS = {"acronym": "HBT", "federation": "C03"}


@pytest.fixture
def fresh(database_url: str) -> World:
    return build_world(database_url)


def _submit(world: World, text: str) -> tuple[int, list[tuple[str, str]]]:
    answer = world.client.post(
        "/api/v1/tournaments/trf",
        params=FIELDS,
        content=text.encode(),
        headers={"Authorization": f"Bearer {world.tokens['referee_c']}", "Content-Type": "text/plain"},
    )
    errors = answer.json().get("errors", []) if answer.status_code == 422 else []
    return answer.status_code, [(e["place"], e["message"]) for e in errors]


def _changed(text: str, prefix: str, change: object) -> tuple[str, int]:
    lines = text.splitlines()
    k = next(k for k, line in enumerate(lines) if line.startswith(prefix))
    lines[k] = change(lines[k])  # type: ignore[operator]
    return "\n".join(lines) + "\n", k + 1


def test_damaged_files_are_refused_naming_line_and_field(fresh: World) -> None:
    good = good_trf(fresh)
    player = next(line for line in good.splitlines() if line.startswith("001    1"))
    name = player[14:47].strip()

    text, line = _changed(good, "001    1", lambda row: row.replace(name, name[:3] + "\x1b" + name[4:], 1))
    status, errors = _submit(fresh, text)
    assert status == 422
    assert [(place, message.split(":")[0]) for place, message in errors] == [(f"line {line}", "column 18, name")]
    assert "a control character (ESC) in column 18" in errors[0][1]

    text, line = _changed(good, "001    1", lambda row: row[:60])
    status, errors = _submit(fresh, text)
    assert status == 422
    assert any(place.startswith(f"line {line}") and "it is cut off" in message for place, message in errors), errors

    text, line = _changed(good, "042", lambda _: "042 0001/01/01")
    status, errors = _submit(fresh, text)
    assert status == 422
    expected = "042: '0001/01/01' is not a plausible date: a tournament's dates lie between 1900 and 2099"
    assert (f"line {line}", expected) in errors, errors
