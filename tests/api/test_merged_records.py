"""A record a merge absorbed is never a candidate again (issue 31, point 2): the project's example
files (``examples/``), unchanged, find their players after Ida Kranz's second record was merged
into her first, through every door that matches people (TRF, SWT, JSON; submission, preview,
correction); a file naming the absorbed number is taken as the survivor.

The register holds the example files' people as README's synthetic federation numbers them
(``examples/README.md``), built here by hand: no synthetic load is needed.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from zdb.app import create_app
from zdb.auth.service import create_token
from zdb.config import Settings
from zdb.db import engine_for, unit_of_work
from zdb.federations.models import Club, Federation
from zdb.players.models import Membership
from zdb.players.service import NewPlayer, create_players

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
QUERY = {"acronym": "OPN", "federation": "101"}
#: the example files' known players (examples/README.md): number, surname, given name, FIDE id
PEOPLE = [
    (10000022, "Müller", "Frank", None),
    (10000035, "Schneider", "Björn", None),
    (10000040, "Vogel", "Petra", 4686469),
    (10000044, "Schulze", "Niklas", None),
    (10000069, "Fuchs", "Daniel", 4628716),
]
#: club 10126's membership numbers the files name
MEMBERS = {10000040: 3, 10000022: 52}


class Office:
    """A client on the example register, with the referee's and the rating office's tokens."""

    def __init__(self, url: str) -> None:
        self.client = TestClient(create_app(Settings(database_url=url), recalculation=False))
        with unit_of_work(engine_for(url)) as session:
            for prefix, name, level, parent in (
                ("", "Deutscher Schachbund", 0, None),
                ("1", "Badischer Schachverband", 1, ""),
                ("101", "Bezirk 101", 2, "1"),
            ):
                session.add(Federation(prefix=prefix, name=name, level=level, parent_prefix=parent))
                session.flush()
            session.add(Club(code="10126", name="Post SV Sankt Rosenheim", federation_prefix="101"))
            session.flush()
            create_players(
                session,
                [NewPlayer(surname=s, given_name=g, fide_id=f, pkz=pkz, nation="GER") for pkz, s, g, f in PEOPLE],
            )
            for pkz, number in MEMBERS.items():
                joined = date(2020, 1, 1)
                session.add(Membership(player_pkz=pkz, club_code="10126", member_no=number, valid_from=joined))
            self.referee = create_token(session, "referee", "1", label="referee").secret
            self.admin = create_token(session, "admin", None, label="office").secret

    def trf(self, method: str, path: str, file: str, **more: str) -> Any:
        headers = {"Authorization": f"Bearer {self.referee}", "Content-Type": "application/octet-stream"}
        data = (EXAMPLES / file).read_bytes()
        return self.client.request(method, f"/api/v1{path}", params={**QUERY, **more}, content=data, headers=headers)

    def admin_post(self, path: str, body: dict[str, Any]) -> Any:
        return self.client.post(f"/api/v1{path}", json=body, headers={"Authorization": f"Bearer {self.admin}"})


@pytest.fixture
def office(database_url: str) -> Office:
    return Office(database_url)


def _kranz(answer: Any) -> dict[str, Any]:
    """Ida Kranz's row of a submission's or preview's answer: start number 6 in every example file."""
    rows = answer.json().get("players") or answer.json()["rows"]
    return next(r for r in rows if r["start_no"] == 6)


def _merged_twin(office: Office) -> tuple[int, int]:
    """Ida Kranz created by the example file, then entered a second time by hand and merged into
    the first: (survivor, absorbed)."""
    submitted = office.trf("POST", "/tournaments/trf", "open.trf")
    assert submitted.status_code == 201, submitted.text
    first = _kranz(submitted)
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
        assert _kranz(previewed)["pkz"] == survivor
    corrected_preview = office.trf("POST", f"/tournaments/{tid}/preview/trf", "fixed.trf")
    assert corrected_preview.status_code == 200, corrected_preview.text
    corrected = office.trf("PUT", f"/tournaments/{tid}/trf", "fixed.trf")
    assert corrected.status_code == 200, corrected.text
    assert _kranz(corrected)["pkz"] == survivor and _kranz(corrected)["created"] is False
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
