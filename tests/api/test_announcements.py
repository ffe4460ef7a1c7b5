"""Announcement before play: a referee announces a tournament and gets a code, the public
calendar (API and page) lists it, a submission names it or is matched to it, and a federation's
rule (inherited down the tree) refuses or warns about an unannounced or late-announced one.

The submissions are ``_body`` of the submission tests (6–8 Nov 2026, federation C03).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import update

from tests.api.test_submissions import _body, _headers, _post
from tests.api.world import World
from tests.web.same_site import SAME_SITE
from zdb.audit.models import AuditEntry
from zdb.db import engine_for, unit_of_work
from zdb.tournaments.models import Announcement

ANNOUNCEMENT = {
    "federation": "C03",
    "name": "Herbstturnier Musterstadt",
    "place": "Musterstadt",
    "start_date": "2026-11-06",
    "end_date": "2026-11-08",
    "rounds": 3,
    "mode": "round_robin",
    "time_control": "40/5400+30:1800+30",
    "organiser": "SK Musterstadt 1920",
    "referee": "A. Weber",
    "fide_rated": False,
}


def _announce(world: World, token: str = "referee_c", **changes: Any) -> Any:
    body = {**ANNOUNCEMENT, **changes}
    return world.client.post("/api/v1/announcements", json=body, headers=_headers(world, token))


def _announced_on(world: World, code: str, day: str) -> None:
    """The announcement made on ``day`` (the service stamps the moment it is made)."""
    with unit_of_work(engine_for(world.url)) as session:
        moment = datetime.fromisoformat(day).replace(hour=12, tzinfo=UTC)
        session.execute(update(Announcement).where(Announcement.code == code).values(announced_at=moment))


def _rule(world: World, prefix: str, announcement: str | None, days: int | None) -> None:
    answer = world.client.put(
        f"/api/v1/federations/{prefix}/settings",
        json={"announcement": announcement, "announcement_days": days},
        headers=_headers(world, "admin"),
    )
    assert answer.status_code == 200, answer.text


def test_an_announcement_gets_a_code_and_is_in_the_calendar(fresh: World) -> None:
    made = _announce(fresh)
    assert made.status_code == 201, made.text
    code = made.json()["code"]
    assert code.startswith("2026-") and made.headers["location"] == f"/api/v1/announcements/{code}"
    listed = fresh.client.get("/api/v1/announcements", params={"from": "2026-11-01", "federation": "C"}).json()
    assert [a["code"] for a in listed["items"]] == [code] and listed["total"] == 1
    assert fresh.client.get("/api/v1/announcements", params={"from": "2026-11-09"}).json()["total"] == 0
    one = fresh.client.get(f"/api/v1/announcements/{code}").json()
    assert (one["name"], one["referee"], one["tournament_id"]) == (ANNOUNCEMENT["name"], "A. Weber", None)
    page = fresh.client.get("/calendar", params={"from": "2026-11-01"}, headers={"Accept-Language": "de"})
    assert page.status_code == 200 and "Turnierkalender" in page.text and ANNOUNCEMENT["name"] in page.text
    with unit_of_work(engine_for(fresh.url)) as session:
        assert session.query(AuditEntry).filter_by(action="announcement.create").count() == 1


def test_bad_announcements_are_refused_naming_the_field(fresh: World) -> None:
    assert _announce(fresh, "referee_d").status_code == 403  # C03 lies outside region D
    assert _announce(fresh, None).status_code == 401
    answer = _announce(fresh, end_date="2026-11-05", time_control="60 min + 10 s")
    assert answer.status_code == 422, answer.text
    places = {e["place"] for e in answer.json()["errors"]}
    assert places == {"body.end_date", "body.time_control"}
    answer = _announce(fresh, rounds=0, name="", federation="C03")
    assert answer.status_code == 422
    assert {e["place"] for e in answer.json()["errors"]} == {"body.rounds", "body.name"}
    assert fresh.client.get("/api/v1/announcements/2026-9999").status_code == 404


def test_a_submission_names_its_announcement_or_is_matched_to_it(fresh: World) -> None:
    code = _announce(fresh).json()["code"]
    stored = fresh.client.post(
        "/api/v1/tournaments", params={"announcement": code}, json=_body(fresh), headers=_headers(fresh, "referee_c")
    )
    assert stored.status_code == 201, stored.text
    assert stored.json()["announcement"] == code
    assert fresh.client.get(f"/api/v1/announcements/{code}").json()["tournament_id"] == stored.json()["id"]
    # Claimed: another submission naming it is refused.
    other = _body(fresh, start_date="2026-11-07", round_dates=["2026-11-07", "2026-11-07", "2026-11-08"], games=[])
    again = fresh.client.post(
        "/api/v1/tournaments", params={"announcement": code}, json=other, headers=_headers(fresh, "referee_c")
    )
    assert again.status_code == 422 and "belongs to tournament" in again.text
    # Withdrawn, the tournament gives its announcement back: submitted again, it claims it.
    first = stored.json()["id"]
    assert fresh.client.delete(f"/api/v1/tournaments/{first}", headers=_headers(fresh, "referee_c")).is_success
    back = fresh.client.post(
        "/api/v1/tournaments", params={"announcement": code}, json=_body(fresh), headers=_headers(fresh, "referee_c")
    )
    assert back.status_code == 201 and back.json()["announcement"] == code, back.text
    assert fresh.client.get(f"/api/v1/announcements/{code}").json()["tournament_id"] == back.json()["id"]
    # Another one, matched by federation and dates without its code.
    second = _announce(fresh, name="Schnellschach-Nachholrunde", start_date="2026-10-09", end_date="2026-10-11")
    later = _body(
        fresh, start_date="2026-10-09", end_date="2026-10-11", round_dates=["2026-10-09", "2026-10-10", "2026-10-11"]
    )
    matched = _post(fresh, later)
    assert matched.status_code == 201, matched.text
    assert matched.json()["announcement"] == second.json()["code"]
    assert any("matched to announcement" in w["message"] for w in matched.json()["warnings"])


def test_the_federations_rule_refuses_or_warns_and_is_inherited(fresh: World) -> None:
    _rule(fresh, "C", "required", 14)
    rules = fresh.client.get("/api/v1/federations/C03/settings").json()
    assert (rules["announcement"], rules["announcement_from"], rules["announcement_days"]) == ("required", "C", 14)
    refused = _post(fresh, _body(fresh))
    assert refused.status_code == 422, refused.text
    assert "not announced" in refused.text and "at least 14 days" in refused.text
    # Announced too late (on 1 Nov for 6 Nov): refused with the day it was made.
    code = _announce(fresh).json()["code"]
    _announced_on(fresh, code, "2026-11-01")
    late = fresh.client.post(
        "/api/v1/tournaments", params={"announcement": code}, json=_body(fresh), headers=_headers(fresh, "referee_c")
    )
    assert late.status_code == 422 and "5 days before the start" in late.text, late.text
    # In time (on 1 Oct): stored.
    _announced_on(fresh, code, "2026-10-01")
    timely = fresh.client.post(
        "/api/v1/tournaments", params={"announcement": code}, json=_body(fresh), headers=_headers(fresh, "referee_c")
    )
    assert timely.status_code == 201, timely.text
    # The district states its own rule: a warning only; the rating office is never refused.
    _rule(fresh, "C03", "warn", None)
    later = _body(
        fresh, start_date="2026-10-09", end_date="2026-10-11", round_dates=["2026-10-09", "2026-10-10", "2026-10-11"]
    )
    warned = _post(fresh, later)
    assert warned.status_code == 201, warned.text
    assert any("not announced" in w["message"] for w in warned.json()["warnings"])
    _rule(fresh, "C03", None, None)
    earlier = _body(
        fresh, start_date="2026-09-11", end_date="2026-09-13", round_dates=["2026-09-11", "2026-09-12", "2026-09-13"]
    )
    office = _post(fresh, earlier, "admin")
    assert office.status_code == 201, office.text
    assert any("not announced" in w["message"] for w in office.json()["warnings"])


def test_the_referee_page_names_the_announcement(fresh: World) -> None:
    code = _announce(fresh).json()["code"]
    client = fresh.client
    client.headers.update(SAME_SITE)  # a form of this site's own pages
    signed = client.post(
        "/referee/sign-in", data={"token": fresh.tokens["referee_c"], "next": "/referee"}, follow_redirects=False
    )
    assert signed.status_code == 303, signed.text
    assert 'name="announcement"' in client.get("/referee").text
    files = {"file": ("herbst.json", json.dumps(_body(fresh)).encode(), "application/json")}
    form = {"action": "submit", "key": "page-1", "announcement": "2026-9999"}
    unknown = client.post("/referee/upload", data=form, files=files, headers={"Accept-Language": "de"})
    assert unknown.status_code == 422 and "keine Anmeldung hat den Code" in unknown.text
    files = {"file": ("herbst.json", json.dumps(_body(fresh)).encode(), "application/json")}
    stored = client.post("/referee/upload", data={**form, "announcement": code}, files=files, follow_redirects=False)
    assert stored.status_code == 303, stored.text
    tid = int(stored.headers["location"].rsplit("/", 1)[1])
    assert client.get(f"/api/v1/announcements/{code}").json()["tournament_id"] == tid
