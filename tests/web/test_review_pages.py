"""The review on the pages, in German: a referee's upload to a federation that asks for review
leads to the review's page (waiting), the responsible officer sees the evaluation it would get
and what it would move, rejects it with a reason, and the referee's list shows the state and the
reason; the public directory names the officer (never an address) and its contact form reaches
him, at most five messages an hour from one address. On PostgreSQL and SQLite."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from tests.api.test_reviews import OFFICER, _review_on
from tests.api.world import World, build_world
from tests.web.html_text import text_of
from tests.web.signed_in import audit_actions, signed_in
from tests.web.test_referee_pages import FIELDS, _hidden, _upload
from tests.web.trf_files import good_trf
from zdb.auth.service import create_token
from zdb.db import engine_for, unit_of_work


@pytest.fixture
def fresh(database_url: str) -> World:
    return build_world(database_url)


def _officer_client(world: World, prefix: str = "C", name: str = OFFICER) -> TestClient:
    """A page client signed in as the officer of ``prefix``, named in the directory."""
    with unit_of_work(engine_for(world.url)) as session:
        made = create_token(session, "referee", prefix, label=f"officer {prefix}")
        token_id, secret = made.token.id, made.secret
    named = world.client.put(
        f"/api/v1/federations/{prefix}/officer",
        json={"name": name, "email": "officer@example.org", "token_id": token_id},
        headers={"Authorization": f"Bearer {world.tokens['admin']}"},
    )
    assert named.status_code == 200, named.text
    world.tokens[f"officer {prefix}"] = secret
    return signed_in(world, f"officer {prefix}")


def test_an_upload_waits_the_officer_rejects_and_the_referee_reads_why(fresh: World) -> None:
    _review_on(fresh)
    officer = _officer_client(fresh)
    referee = signed_in(fresh)
    previewed = _upload(referee, good_trf(fresh), **FIELDS)
    assert previewed.status_code == 200, previewed.text
    stored = referee.post("/referee/upload", data={**_hidden(previewed.text), "action": "submit"})
    assert stored.status_code == 303, stored.text
    location = stored.headers["location"]
    assert re.fullmatch(r"/referee/reviews/\d+", location)
    review_id = int(location.rsplit("/", 1)[1])
    waiting = referee.get(location)
    assert waiting.status_code == 200
    assert "wartet auf Prüfung" in text_of(waiting.text) and "Freigeben" not in waiting.text

    shown = officer.get(location)
    assert shown.status_code == 200
    words = text_of(shown.text)
    assert "Was die Freigabe bewegen würde" in words and "Freigeben" in words and "Zurückweisen" in words
    reason = "Runde 3 fehlt in der Datei"
    bare = officer.post(f"{location}/reject", data={"reason": " "})
    assert bare.status_code == 422 and "Begründung" in text_of(bare.text)
    rejected = officer.post(f"{location}/reject", data={"reason": reason})
    assert rejected.status_code == 303, rejected.text
    assert audit_actions(fresh, f"review {review_id}") == ["tournament.review", "review.reject"]

    listed = text_of(referee.get("/referee/reviews").text)
    assert "abgelehnt" in listed and reason in listed
    again = officer.post(f"{location}/approve", data={})
    assert again.status_code == 409 and "schon" in text_of(again.text)


def test_the_directory_names_the_officer_and_passes_messages_on(fresh: World) -> None:
    officer = _officer_client(fresh, "C03", name="Paul Prüfer")
    page = fresh.client.get("/directory", params={"club": "C0327"})
    assert page.status_code == 200
    assert "Paul Prüfer" in text_of(page.text) and "officer@example.org" not in page.text
    message = {
        "club": "C0327",
        "name": "Anna Müller",
        "email": "anna@example.org",
        "subject": "Meine Auswertung",
        "text": "Die Partie aus Runde 2 fehlt.",
    }
    for _ in range(5):
        sent = fresh.client.post("/directory/message", data=message, headers={"Origin": "http://testserver"})
        assert sent.status_code == 200, sent.text
        assert "Paul Prüfer" in text_of(sent.text)
    over = fresh.client.post("/directory/message", data=message, headers={"Origin": "http://testserver"})
    assert over.status_code == 429 and over.headers["Retry-After"] == "3600"
    assert "höchstens 5 Nachrichten" in text_of(over.text)
    incomplete = fresh.client.post(
        "/directory/message", data={**message, "email": "keine Adresse"}, headers={"Origin": "http://testserver"}
    )
    assert incomplete.status_code == 422 and "E-Mail-Adresse" in text_of(incomplete.text)
    # the officer reads them, with the sender's address; another region's officer does not
    inbox = text_of(officer.get("/referee/reviews").text)
    assert inbox.count("Meine Auswertung") == 5 and "anna@example.org" in inbox
    other = _officer_client(fresh, "D", name="Dora Delta")
    assert "Meine Auswertung" not in text_of(other.get("/referee/reviews").text)
