"""The public directory (issue 35, item 3): who is responsible for each federation and club —
the club's district's officer, else its region's, else the rating office — by name, never by
address; its contact form keeps plain text of bounded length, at most five messages an hour from
one address, and shows them to the responsible officer only. On PostgreSQL and SQLite."""

from __future__ import annotations

import time
from typing import Any

from tests.api.test_reviews import _officer
from tests.api.test_submissions import _headers
from tests.api.world import World
from zdb.db import engine_for
from zdb.outbox.relay import relay_due
from zdb.reviews import directory

MESSAGE = {"name": "Anna Müller", "email": "anna@example.org", "subject": "Auswertung", "text": "Runde 2 fehlt."}


def _entry(world: World, club: str) -> dict[str, Any]:
    answer = world.client.get(f"/api/v1/directory/clubs/{club}")
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def test_responsibility_comes_from_the_tree(fresh: World) -> None:
    # nobody named: the rating office
    first = _entry(fresh, "C0327")
    assert (first["officer"], first["officer_of"], first["prefix"]) == (None, None, "C03")
    _officer(fresh, "C", name="Rita Region")
    assert (_entry(fresh, "C0327")["officer"], _entry(fresh, "C0327")["officer_of"]) == ("Rita Region", "C")
    _officer(fresh, "C03", name="Bernd Bezirk")
    assert (_entry(fresh, "C0327")["officer"], _entry(fresh, "C0327")["officer_of"]) == ("Bernd Bezirk", "C03")
    # the other district of the region keeps the region's officer, the other region has none
    assert _entry(fresh, "C0101")["officer"] == "Rita Region"
    assert _entry(fresh, "D0001")["officer"] is None
    listed = fresh.client.get("/api/v1/directory")
    assert listed.status_code == 200
    assert "example.org" not in listed.text  # no address, ever
    by_prefix = {e["prefix"]: e["officer"] for e in listed.json()["federations"]}
    assert by_prefix == {"": None, "C": "Rita Region", "C01": "Rita Region", "C03": "Bernd Bezirk", "D": None}
    assert fresh.client.get("/api/v1/directory/clubs/X9999").status_code == 404
    # naming an officer is the rating office's, with a token that covers the federation
    refused = fresh.client.put(
        "/api/v1/federations/C03/officer",
        json={"name": "X", "email": "x@example.org", "token_id": 3},  # referee D's token
        headers=_headers(fresh, "admin"),
    )
    assert refused.status_code == 422 and "scope" in refused.text
    referee = fresh.client.put(
        "/api/v1/federations/C03/officer",
        json={"name": "X", "email": "x@example.org"},
        headers=_headers(fresh, "referee_c"),
    )
    assert referee.status_code == 403
    gone = fresh.client.delete("/api/v1/federations/C03/officer", headers=_headers(fresh, "admin"))
    assert gone.status_code == 204
    assert _entry(fresh, "C0327")["officer"] == "Rita Region"


def test_the_contact_form_reaches_the_responsible_officer_only(fresh: World) -> None:
    _, officer = _officer(fresh, "C", name="Rita Region")
    _, other = _officer(fresh, "D", name="Dora Delta")
    sent: list[int] = []
    directory.set_mail_sender(sent.append)
    try:
        answer = fresh.client.post("/api/v1/directory/messages", json={**MESSAGE, "club": "C0327"})
        assert answer.status_code == 202, answer.text
        # sent on after the commit by the outbox's relay (this one, or the serving process's)
        relay_due(engine_for(fresh.url), {directory.OFFICER_MAIL: directory.mail_officer_message})
        deadline = time.monotonic() + 30
        while not sent and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        directory.set_mail_sender(None)
    assert (answer.json()["to"], answer.json()["prefix"]) == ("Rita Region", "C")
    assert sent == [answer.json()["id"]]
    inbox = fresh.client.get("/api/v1/officer/messages", headers=officer).json()["items"]
    assert [(m["subject"], m["sender_email"], m["club"]) for m in inbox] == [
        ("Auswertung", "anna@example.org", "C0327")
    ]
    assert fresh.client.get("/api/v1/officer/messages", headers=other).json()["total"] == 0
    assert fresh.get("/officer/messages", "admin").json()["total"] == 1
    # bounded plain text
    long = fresh.client.post("/api/v1/directory/messages", json={**MESSAGE, "federation": "C", "text": "x" * 4001})
    assert long.status_code == 422
    control = fresh.client.post("/api/v1/directory/messages", json={**MESSAGE, "federation": "C", "text": "a\x00b"})
    assert control.status_code == 422
    nowhere = fresh.client.post("/api/v1/directory/messages", json=MESSAGE)
    assert nowhere.status_code == 422


def test_at_most_five_messages_an_hour_from_one_address(fresh: World) -> None:
    for _ in range(5):
        assert fresh.client.post("/api/v1/directory/messages", json={**MESSAGE, "federation": "D"}).status_code == 202
    over = fresh.client.post("/api/v1/directory/messages", json={**MESSAGE, "federation": "D"})
    assert over.status_code == 429 and over.headers["Retry-After"] == "3600"
    # the office reads the five: region D has no officer
    assert fresh.get("/officer/messages", "admin").json()["total"] == 5
