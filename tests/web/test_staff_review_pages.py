"""The staff's page of a federation's review setup (issue 35, item 3), without a browser: an
admin sets a federation's review rule (inherited down the tree, trusted referees exempt) and
names and removes its rating officer through the page; the API answers the change, the audit log
records it as the API's writes do, the officer's address is never shown; a bad field is refused
naming it and stores nothing; a referee is refused. On PostgreSQL and SQLite.

The known answers by construction: the world (``tests/api/world.py``) states no review rule and
names no officer anywhere, so everything is rated at once and the rating office is responsible;
C03 lies below region C."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.api.world import World, build_world
from tests.web.html_text import text_of
from tests.web.signed_in import audit_actions, signed_in
from tests.web.test_no_slugs import _slugs
from zdb.auth.service import create_token
from zdb.db import engine_for, unit_of_work

GERMAN = {"Accept-Language": "de"}
ADDRESS = "olga@example.org"


@pytest.fixture
def world(database_url: str) -> World:
    return build_world(database_url)


def _page(client: TestClient, path: str) -> str:
    page = client.get(path, headers=GERMAN)
    assert page.status_code == 200, page.text
    assert _slugs(page.text) == []
    return text_of(page.text)


def _done(client: TestClient, answer: Any, *words: str) -> str:
    assert answer.status_code == 303, answer.text
    shown = _page(client, answer.headers["location"])
    for word in words:
        assert word in shown, (word, shown)
    return shown


def _refused(answer: Any, *words: str) -> None:
    assert answer.status_code == 422, answer.text
    shown = text_of(answer.text)
    for word in words:
        assert word in shown, (word, shown)


def _token(world: World, role: str, scope: str) -> int:
    with unit_of_work(engine_for(world.url)) as session:
        return create_token(session, role, scope, label=f"{role} {scope}").token.id


def test_an_admin_sets_the_review_rule_which_the_tree_inherits(world: World) -> None:
    client = signed_in(world, "admin")
    shown = _page(client, "/staff/federations/C03/review")
    assert "Einsendungen werden sofort ausgewertet (Voreinstellung)" in shown
    assert "die Wertungsstelle" in shown
    answer = client.post(
        "/staff/federations/C/review", data={"review": "required", "trusted_exempt": "yes"}, headers=GERMAN
    )
    _done(client, answer, "Gespeichert: die Prüfregel.", "Einsendungen warten", "(eigene)")
    below = world.get("/federations/C03/review").json()
    assert (below["review"], below["review_from"], below["trusted_exempt"]) == ("required", "C", True)
    assert "(von Verband C)" in _page(client, "/staff/federations/C03/review")
    # audited as the API's write is: who, before and after
    assert audit_actions(world, "federation C") == ["federation.review"]
    [entry] = world.get("/audit-log", "admin", action="federation.review").json()["items"]
    assert entry["detail"]["before"] == {"review": None, "trusted_exempt": None}
    assert entry["detail"]["after"] == {"review": "required", "trusted_exempt": True}
    # C03 says off for itself: its own rule wins over the region's
    client.post("/staff/federations/C03/review", data={"review": "off", "trusted_exempt": ""})
    assert world.get("/federations/C03/review").json()["review"] == "off"
    assert world.get("/federations/C01/review").json()["review"] == "required"
    _refused(client.post("/staff/federations/C/review", data={"review": "always"}, headers=GERMAN), "form.review")
    assert audit_actions(world, "federation C") == ["federation.review"]
    assert _page(client, "/staff/federations/-/review")  # the national federation's own page


def test_an_admin_names_and_removes_an_officer(world: World) -> None:
    client = signed_in(world, "admin")
    officer_token = _token(world, "referee", "C")
    club_token = _token(world, "club", "C0327")
    named = client.post(
        "/staff/federations/C/officer",
        data={"name": "Olga Offizier", "email": ADDRESS, "token_id": str(officer_token)},
        headers=GERMAN,
    )
    shown = _done(client, named, "Gespeichert: der Wertungsreferent.", "Olga Offizier")
    assert ADDRESS not in shown
    below = _page(client, "/staff/federations/C03/review")
    assert "Olga Offizier (von Verband C)" in below and ADDRESS not in below
    assert world.get("/directory/clubs/C0327").json()["officer"] == "Olga Offizier"
    [entry] = world.get("/audit-log", "admin", action="federation.officer").json()["items"]
    assert entry["detail"]["after"] == {"name": "Olga Offizier", "token_id": officer_token, "email_set": True}
    # refused, naming the field; nothing stored
    for data, words in (
        ({"name": "Otto", "email": "kein-at", "token_id": ""}, ("form.email",)),
        ({"name": "Otto", "email": ADDRESS, "token_id": "zwölf"}, ("form.token_id",)),
        ({"name": "Otto", "email": ADDRESS, "token_id": str(club_token)}, ("body.token_id", str(club_token))),
    ):
        _refused(client.post("/staff/federations/C/officer", data=data, headers=GERMAN), *words)
    assert audit_actions(world, "federation C") == ["federation.officer"]
    removed = client.post("/staff/federations/C/officer/removal", headers=GERMAN)
    _done(client, removed, "keinen eigenen Wertungsreferenten")
    assert world.get("/directory/clubs/C0327").json()["officer"] is None
    assert audit_actions(world, "federation C") == ["federation.officer", "federation.officer"]
    # nothing to remove now: refused with the service's reason
    again = client.post("/staff/federations/C/officer/removal", headers=GERMAN)
    assert again.status_code == 404, again.text


def test_a_referee_is_refused(world: World) -> None:
    client = signed_in(world, "referee_c")
    assert client.get("/staff/federations/C/review").status_code == 403
    refused = client.post("/staff/federations/C/review", data={"review": "required"})
    assert refused.status_code == 403
    assert audit_actions(world, "federation C") == []
