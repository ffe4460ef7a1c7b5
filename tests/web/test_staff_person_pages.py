"""The staff's person page without a browser: an admin corrects a record and merges a second
record of the same person into it, through the services the API uses; others are sent away, and a
bad field is refused naming it with nothing stored."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.api.test_office_records import _send
from tests.api.world import World, build_world
from tests.web.html_text import text_of
from tests.web.same_site import SAME_SITE
from tests.web.signed_in import audit_actions as _actions
from tests.web.signed_in import signed_in as _signed_in


@pytest.fixture
def world(database_url: str) -> World:
    return build_world(database_url)


def test_an_admin_corrects_a_record_and_merges_a_second_one(world: World) -> None:
    d = world.pkz["D"]  # Dieter Schmidt of club D0001
    anonymous = TestClient(world.client.app, follow_redirects=False, headers=SAME_SITE).get(f"/staff/players/{d}")
    assert anonymous.status_code == 303 and anonymous.headers["location"].startswith("/referee/sign-in")
    assert _signed_in(world, "referee_c").get(f"/staff/players/{d}").status_code == 403

    client = _signed_in(world, "admin")
    page = client.get(f"/staff/players/{d}")
    assert page.status_code == 200 and "Datensatz berichtigen" in page.text and 'value="Schmidt"' in page.text
    form = {"surname": "Schmidt", "given_name": "Dieter", "birth_year": "", "sex": "M", "fide_id": "", "nation": "ger"}
    refused = client.post(f"/staff/players/{d}", data={**form, "fide_id": "46OO1"})
    assert refused.status_code == 422 and "FIDE-ID:" in text_of(refused.text)
    assert _actions(world, f"player {d}") == []

    saved = client.post(f"/staff/players/{d}", data={**form, "given_name": "Dieter Karl"})
    # The form sent no birth year: clearing his is an input of his evaluations, and the page says so.
    assert saved.status_code == 303 and saved.headers["location"].startswith(
        f"/staff/players/{d}?done=saved&redo_from="
    )
    shown = client.get(saved.headers["location"]).text
    assert "Der Datensatz ist gespeichert." in shown and "Die Neuberechnung wertet ab Turnier" in shown
    record = world.get(f"/players/{d}", "admin").json()
    assert (record["given_name"], record["nation"]) == ("Dieter Karl", "GER")
    assert _actions(world, f"player {d}") == ["player.edit"]

    created = _send(world, "POST", "/players", {"surname": "Schmid", "given_name": "Dieter", "sex": "M"})
    assert created.status_code == 201, created.text
    twin = created.json()["pkz"]
    merged = client.post(f"/staff/players/{d}/merge", data={"absorb": str(twin)})
    assert merged.status_code == 303 and merged.headers["location"].startswith(
        f"/staff/players/{d}?done=merged&redo_from="
    )
    moved = world.client.get(f"/api/v1/players/{twin}", follow_redirects=False)
    assert moved.status_code == 308 and moved.headers["location"].endswith(f"/api/v1/players/{d}")
    again = client.post(f"/staff/players/{d}/merge", data={"absorb": "x"})
    assert again.status_code == 422 and "Personenkennzahl, die in diese übergeht:" in text_of(again.text)


def test_the_staff_pages_of_an_absorbed_record_move_to_the_survivors(world: World) -> None:
    """Issue 31, point 2: a number a merge absorbed answers as its survivor on the staff's pages
    too (it once answered 409, as though it were a person to correct)."""
    d = world.pkz["D"]
    created = _send(world, "POST", "/players", {"surname": "Schmid", "given_name": "Dieter", "sex": "M"})
    twin = created.json()["pkz"]
    client = _signed_in(world, "admin")
    assert client.post(f"/staff/players/{d}/merge", data={"absorb": str(twin)}).status_code == 303
    for page in ("", "/memberships"):
        moved = client.get(f"/staff/players/{twin}{page}")
        assert moved.status_code == 301 and moved.headers["location"] == f"/staff/players/{d}{page}", page
        assert client.get(moved.headers["location"]).status_code == 200
