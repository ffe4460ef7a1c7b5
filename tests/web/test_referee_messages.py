"""The referee's upload page says what is wrong with a JSON file in German: the field, the value,
the form expected and an example (pydantic's English never reaches the page)."""

from __future__ import annotations

import json

import pytest

from tests.api.world import World, build_world
from tests.web.html_text import text_of
from tests.web.signed_in import signed_in


@pytest.fixture
def fresh(database_url: str) -> World:
    return build_world(database_url)


def test_json_type_errors_in_german(fresh: World) -> None:
    body = {
        "acronym": "JSN",
        "federation": "C03",
        "end_date": "26.11.2026",
        "time_control": "90 min + 30 s",
        "players": [{"pkz": "abc"}, {"pkz": fresh.pkz["A"]}],
    }
    page = signed_in(fresh).post(
        "/referee/upload", data={"action": "preview"}, files={"file": ("t.json", json.dumps(body).encode())}
    )
    assert page.status_code == 422
    text = text_of(page.text)
    assert '"26.11.2026" ist kein Datum im Format JJJJ-MM-TT, z. B. 2026-11-26' in text
    assert '"abc" ist keine ganze Zahl; eine Zahl wird ohne Anführungszeichen geschrieben, z. B. 10000042' in text
    assert "Input should be" not in text
