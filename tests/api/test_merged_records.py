"""A record a merge absorbed is never a candidate again (issue 31, point 2): the project's example
files (``examples/``), unchanged, find their players after Ida Kranz's second record was merged
into her first, through every door that matches people (TRF, SWT, JSON; submission, preview,
correction); a file naming the absorbed number is taken as the survivor.

The register of the example files' people: ``tests/api/example_register.py``.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.example_register import Office, kranz


@pytest.fixture
def office(database_url: str) -> Office:
    return Office(database_url)


def _merged_twin(office: Office) -> tuple[int, int]:
    """Ida Kranz created by the example file, then entered a second time by hand and merged into
    the first: (survivor, absorbed)."""
    submitted = office.trf("POST", "/tournaments/trf", "open.trf")
    assert submitted.status_code == 201, submitted.text
    first = kranz(submitted)
    assert first["created"] is True
    twin = office.admin_post("/players", {"surname": "Kranz", "given_name": "Ida", "sex": "F"})
    assert twin.status_code == 201, twin.text
    merged = office.admin_post(f"/players/{first['pkz']}/merge", {"absorb": twin.json()["pkz"]})
    assert merged.status_code == 200, merged.text
    return first["pkz"], twin.json()["pkz"]


def test_the_unchanged_example_files_find_the_survivor_after_a_merge(office: Office) -> None:
    survivor, absorbed = _merged_twin(office)
    tid = office.client.get("/api/v1/tournaments").json()["items"][0]["id"]
    for path, file in (("/tournaments/preview/trf", "open.trf"), ("/tournaments/preview/trf", "open.SWT")):
        previewed = office.trf("POST", path, file)
        assert previewed.status_code == 200, (file, previewed.text)
        assert kranz(previewed)["pkz"] == survivor
    corrected_preview = office.trf("POST", f"/tournaments/{tid}/preview/trf", "fixed.trf")
    assert corrected_preview.status_code == 200, corrected_preview.text
    corrected = office.trf("PUT", f"/tournaments/{tid}/trf", "fixed.trf")
    assert corrected.status_code == 200, corrected.text
    assert kranz(corrected)["pkz"] == survivor and kranz(corrected)["created"] is False
    found = office.client.get("/api/v1/players", params={"name": "Kranz"}).json()["items"]
    assert [p["pkz"] for p in found] == [survivor] and absorbed != survivor


def test_a_file_naming_the_absorbed_number_is_taken_as_the_survivor(office: Office) -> None:
    survivor, absorbed = _merged_twin(office)
    body = json_body(absorbed)
    headers = {"Authorization": f"Bearer {office.referee}"}
    previewed = office.client.post("/api/v1/tournaments/preview", json=body, headers=headers)
    assert previewed.status_code == 200, previewed.text
    assert [r["pkz"] for r in previewed.json()["rows"]][-1] == survivor
    told = [w for w in previewed.json()["warnings"] if w["place"] == "body.players[3].pkz"]
    assert told and str(survivor) in told[0]["message"], previewed.json()["warnings"]
    stored = office.client.post("/api/v1/tournaments", json=body, headers=headers)
    assert stored.status_code == 201, stored.text
    assert stored.json()["players"][3]["pkz"] == survivor


def json_body(kranz: int) -> dict[str, Any]:
    """Four players named by person number, Ida Kranz by ``kranz``: a round robin in three rounds."""
    return {
        "acronym": "VMS",
        "name": "Vereinsmeisterschaft",
        "federation": "101",
        "end_date": "2026-11-30",
        "time_control": "90 min + 30 s",
        "players": [{"pkz": 10000022}, {"pkz": 10000035}, {"pkz": 10000044}, {"pkz": kranz}],
        "games": [
            {"round": 1, "white": 1, "black": 4, "result": "1-0"},
            {"round": 1, "white": 2, "black": 3, "result": "1/2-1/2"},
            {"round": 2, "white": 4, "black": 3, "result": "0-1"},
            {"round": 2, "white": 1, "black": 2, "result": "1/2-1/2"},
            {"round": 3, "white": 2, "black": 4, "result": "1-0"},
            {"round": 3, "white": 3, "black": 1, "result": "0-1"},
        ],
    }
