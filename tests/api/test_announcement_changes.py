"""An announcement changed or cancelled before its tournament is submitted (issue 35, what was
left of item 1): the referee of its federation changes it (its code and the day it was made
stay) or cancels it with a reason; a cancelled one leaves the calendar and the matching, a
submission naming it is refused, and its public page says so. Once a tournament holds it, the
tournament is corrected instead. Audited. On PostgreSQL and SQLite."""

from __future__ import annotations

from tests.api.test_announcements import ANNOUNCEMENT, _announce
from tests.api.test_submissions import _body, _headers, _post
from tests.api.world import World
from tests.web.html_text import text_of
from tests.web.signed_in import audit_actions


def test_an_announcement_is_changed_then_cancelled(fresh: World) -> None:
    made = _announce(fresh).json()
    code = made["code"]
    headers = _headers(fresh, "referee_c")
    changed = fresh.client.put(
        f"/api/v1/announcements/{code}", json={**ANNOUNCEMENT, "place": "Musterdorf", "rounds": 5}, headers=headers
    )
    assert changed.status_code == 200, changed.text
    assert (changed.json()["place"], changed.json()["rounds"], changed.json()["code"]) == ("Musterdorf", 5, code)
    assert changed.json()["announced_at"] == made["announced_at"]
    # another region's referee may not, nor move it out of his own scope
    other = fresh.client.put(f"/api/v1/announcements/{code}", json=ANNOUNCEMENT, headers=_headers(fresh, "referee_d"))
    assert other.status_code == 403
    moved = fresh.client.put(f"/api/v1/announcements/{code}", json={**ANNOUNCEMENT, "federation": "D"}, headers=headers)
    assert moved.status_code == 403
    wrong = fresh.client.put(
        f"/api/v1/announcements/{code}", json={**ANNOUNCEMENT, "end_date": "2026-11-01"}, headers=headers
    )
    assert wrong.status_code == 422

    reason = "zu wenige Anmeldungen"
    cancelled = fresh.client.delete(f"/api/v1/announcements/{code}", params={"reason": reason}, headers=headers)
    assert cancelled.status_code == 200, cancelled.text
    assert cancelled.json()["cancel_reason"] == reason and cancelled.json()["cancelled_at"]
    listed = fresh.client.get("/api/v1/announcements", params={"from": "2026-11-01"}).json()
    assert code not in [a["code"] for a in listed["items"]]
    page = fresh.client.get(f"/calendar/{code}")
    assert page.status_code == 200 and "Abgesagt am" in text_of(page.text) and reason in page.text
    # no longer changed, cancelled again or named by a submission; nothing matches it
    assert fresh.client.put(f"/api/v1/announcements/{code}", json=ANNOUNCEMENT, headers=headers).status_code == 409
    assert fresh.client.delete(f"/api/v1/announcements/{code}", headers=headers).status_code == 409
    named = fresh.client.post("/api/v1/tournaments", params={"announcement": code}, json=_body(fresh), headers=headers)
    assert named.status_code == 422 and "cancelled" in named.text
    matched = _post(fresh, _body(fresh))
    assert matched.status_code == 201 and matched.json()["announcement"] is None
    assert audit_actions(fresh, f"announcement {code}") == [
        "announcement.create",
        "announcement.edit",
        "announcement.cancel",
    ]


def test_a_claimed_announcement_is_changed_through_its_tournament(fresh: World) -> None:
    code = _announce(fresh).json()["code"]
    stored = _post(fresh, _body(fresh))
    assert stored.json()["announcement"] == code
    headers = _headers(fresh, "referee_c")
    refused = fresh.client.put(f"/api/v1/announcements/{code}", json=ANNOUNCEMENT, headers=headers)
    assert refused.status_code == 409 and f"tournament {stored.json()['id']}" in refused.json()["detail"]
    page = fresh.client.get(f"/calendar/{code}")
    assert page.status_code == 200 and f"/tournaments/{stored.json()['id']}" in page.text
    assert fresh.client.get("/calendar/2026-9999").status_code == 404
