"""The complaint pages in German (issue 35, items 5 and 6): a player files a complaint on the
form and follows it on his private page (the e-mail address never on it); the officer it was
routed to reads it with the address and decides on his page, a decision sent from a page read
before another's is refused (409 page); a referee of another region is refused; the tournament
and player pages mark a provisional evaluation. On PostgreSQL and SQLite."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.api.world import World, build_world
from tests.web.html_text import text_of
from tests.web.same_site import SAME_SITE
from tests.web.signed_in import audit_actions, signed_in

EMAIL = "anna.mueller@example.org"


@pytest.fixture
def world(database_url: str) -> World:
    return build_world(database_url)


def _file(world: World, client: TestClient, **changes: str) -> str:
    form = {
        "subject": "evaluation",
        "tournament": "1",
        "person": str(world.pkz["A"]),
        "pkz": str(world.pkz["A"]),
        "email": EMAIL,
        "text": "Runde 2 endete remis.\n<b>nicht</b> 0-1",
        **changes,
    }
    answer = client.post("/complaints/new", data=form)
    assert answer.status_code == 303, answer.text
    location = answer.headers["location"]
    assert location.startswith("/complaints/follow/") and location.endswith("?done=filed")
    return location


def test_a_player_files_on_the_form_and_the_officer_decides_on_his_page(world: World) -> None:
    public = TestClient(world.client.app, follow_redirects=False, headers=SAME_SITE)
    form = public.get("/complaints/new?tournament=1")
    assert form.status_code == 200 and "Reklamation einreichen" in form.text and 'value="1"' in form.text
    follow = _file(world, public)
    mine = public.get(follow)
    assert mine.status_code == 200
    words = text_of(mine.text)
    assert "Ihre Reklamation ist eingegangen" in words and "neu" in words
    assert "dem zuständigen Wertungsreferenten" in words
    assert "&lt;b&gt;nicht&lt;/b&gt;" in mine.text  # plain text, never markup
    assert EMAIL not in mine.text
    assert audit_actions(world, "complaint 1") == ["complaint.file"]

    assert signed_in(world, "referee_d").get("/staff/complaints/1").status_code == 403
    officer = signed_in(world, "referee_c")
    assert 'href="/staff/complaints"' in officer.get("/referee").text  # the officer's way to them
    listed = officer.get("/staff/complaints")
    assert listed.status_code == 200 and "die Auswertung des Turniers 1" in text_of(listed.text)
    page = officer.get("/staff/complaints/1")
    assert page.status_code == 200 and EMAIL in page.text and 'name="revision" value="0"' in page.text
    office = signed_in(world, "admin")
    assert (
        office.post(
            "/staff/complaints/1", data={"revision": "0", "state": "in_progress", "note": "Ich prüfe."}
        ).status_code
        == 303
    )
    late = officer.post("/staff/complaints/1", data={"revision": "0", "state": "resolved", "note": "Erledigt."})
    assert late.status_code == 409 and "inzwischen geändert" in text_of(late.text)
    done = officer.post(
        "/staff/complaints/1", data={"revision": "1", "state": "resolved", "note": "Ergebnis korrigiert."}
    )
    assert done.status_code == 303 and done.headers["location"] == "/staff/complaints/1?done=saved"
    again = text_of(public.get(follow.split("?")[0]).text)
    assert "erledigt" in again and "Ergebnis korrigiert." in again and "Ich prüfe." in again
    assert "admin" not in again and "referee" not in again  # who wrote a note is the staff's


def test_bad_input_on_the_form_names_the_field_in_german(world: World) -> None:
    public = TestClient(world.client.app, follow_redirects=False, headers=SAME_SITE)
    form = {"subject": "evaluation", "tournament": "1", "pkz": str(world.pkz["A"]), "email": "kein", "text": "x"}
    refused = public.post("/complaints/new", data=form)
    assert refused.status_code == 422 and "ist nicht gültig" in text_of(refused.text)
    foreign = TestClient(world.client.app, follow_redirects=False, headers={"Origin": "https://elsewhere.example"})
    assert foreign.post("/complaints/new", data={**form, "email": EMAIL}).status_code == 403
    assert audit_actions(world, "complaint 1") == []


def test_the_pages_mark_a_provisional_evaluation(world: World) -> None:
    public = TestClient(world.client.app, follow_redirects=False, headers=SAME_SITE)
    tournament = text_of(public.get("/tournaments/1").text)
    # no edition is published in the world: every evaluation is open to complaint
    assert "Diese Auswertung ist vorläufig: Reklamationsfrist: noch nicht veröffentlicht" in tournament
    player = public.get(f"/players/{world.pkz['A']}").text
    assert 'data-testid="provisional"' in player and "vorläufig" in player
