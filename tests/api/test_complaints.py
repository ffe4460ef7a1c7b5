"""Complaints (issue 35, item 5): filed by a player (person number and e-mail address), a club,
a referee or the office; routed to the evaluating referee, else the responsible officer up the
tree, else the office; decided with notes (two decisions at once: one wins, the other 409);
followed through a private link that never shows the e-mail address; a correction or record
change made for one links to it and its audit entry names it; a withdrawal closes the open ones;
the complaint period of a published edition; bad input. On PostgreSQL and SQLite."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import update

from tests.api.test_submissions import _body, _headers, _post
from tests.api.world import World
from tests.db.scenario import recalc
from zdb.app import create_app
from zdb.config import Settings
from zdb.db import engine_for, unit_of_work
from zdb.editions.models import ListEdition

EMAIL = "anna.mueller@example.org"


def _file(world: World, token: str | None = None, **body: Any) -> Any:
    return world.client.post("/api/v1/complaints", json=body, headers=_headers(world, token))


def _player_complaint(world: World, tournament: int, pid: str = "A", **more: Any) -> Any:
    body = {
        "subject": "evaluation",
        "tournament": tournament,
        "person": world.pkz[pid],
        "pkz": world.pkz[pid],
        "email": EMAIL,
        "text": "Meine Partie in Runde 2 endete remis,\nnicht 0-1.",
        **more,
    }
    return _file(world, None, **body)


def _decide(world: World, token: str, complaint: int, **body: Any) -> Any:
    return world.client.post(f"/api/v1/complaints/{complaint}/decisions", json=body, headers=_headers(world, token))


def test_a_player_files_it_and_follows_it_through_the_private_link(fresh: World) -> None:
    # tournament 1 (federation C03) was stored by the office's loader: no referee evaluated it;
    # C03 has no officer, its region C has one (the referee token of scope C)
    filed = _player_complaint(fresh, 1)
    assert filed.status_code == 201, filed.text
    answer = filed.json()
    assert (answer["state"], answer["routed_to"], answer["late"]) == ("new", "officer", False)
    assert answer["period_until"] is None  # no edition published yet: the period is open
    follow = answer["follow"]
    assert follow.startswith("/complaints/follow/")
    mine = fresh.client.get("/api/v1" + follow)
    assert mine.status_code == 200, mine.text
    assert mine.json()["state"] == "new" and mine.json()["text"].endswith("nicht 0-1.")
    assert EMAIL not in mine.text and str(fresh.pkz["A"]) not in mine.text.replace(f'"person":{fresh.pkz["A"]}', "")
    assert fresh.client.get("/api/v1/complaints/follow/" + "x" * 32).status_code == 404
    # the officer of region C reads it with the address to answer to; region D's does not
    cid = answer["id"]
    officer = fresh.client.get(f"/api/v1/complaints/{cid}", headers=_headers(fresh, "referee_c"))
    assert officer.status_code == 200 and officer.json()["email"] == EMAIL
    assert officer.json()["routed_scope"] == "C" and officer.json()["filer"] == "player"
    assert fresh.client.get(f"/api/v1/complaints/{cid}", headers=_headers(fresh, "referee_d")).status_code == 403
    listed = fresh.client.get("/api/v1/complaints", headers=_headers(fresh, "referee_d")).json()
    assert listed["total"] == 0
    assert fresh.client.get("/api/v1/complaints", headers=_headers(fresh, "admin")).json()["total"] == 1
    assert fresh.client.get("/api/v1/complaints").status_code == 401
    # the tournament's public pages never show the address
    assert EMAIL not in fresh.client.get("/api/v1/tournaments/1/evaluation").text


def test_routing_the_referee_the_officer_the_office(fresh: World) -> None:
    tid = _post(fresh, _body(fresh)).json()["id"]  # submitted by the referee of region C
    to_referee = _player_complaint(fresh, tid).json()
    assert to_referee["routed_to"] == "referee"
    # tournament 3 belongs to region D: its officer
    assert _player_complaint(fresh, 3, pid="D").json()["routed_to"] == "officer"
    # Gerd has no club: a complaint about his record goes to the office
    record = _file(fresh, None, subject="record", pkz=fresh.pkz["G"], email=EMAIL, text="Mein Geburtsjahr ist falsch.")
    assert record.status_code == 201, record.text
    assert record.json()["routed_to"] == "office"
    assert (
        fresh.client.get(f"/api/v1/complaints/{record.json()['id']}", headers=_headers(fresh, "referee_c")).status_code
        == 403
    )
    # a club files for its member, without an address
    club = _file(fresh, "club_c0327", subject="record", person=fresh.pkz["A"], text="Vorname falsch geschrieben.")
    assert club.status_code == 201, club.text
    seen = fresh.client.get(f"/api/v1/complaints/{club.json()['id']}", headers=_headers(fresh, "admin")).json()
    assert (seen["filer"], seen["filer_club"], seen["email"]) == ("club", "C0327", None)


def test_bad_input_is_refused_with_its_place(fresh: World) -> None:
    assert _player_complaint(fresh, 1, email=None).status_code == 422
    assert _player_complaint(fresh, 1, email="not an address").status_code == 422
    assert _player_complaint(fresh, 1, pkz=None).status_code == 422
    assert _player_complaint(fresh, 1, text="a\x00b").status_code == 422
    assert _player_complaint(fresh, 1, text="x" * 4001).status_code == 422
    assert _player_complaint(fresh, 1, text="   ").status_code == 422
    assert _player_complaint(fresh, 1, text="x" * 4000).status_code == 201
    assert _player_complaint(fresh, 999999).status_code == 422
    assert _player_complaint(fresh, 1, pkz=999999999).status_code == 422
    assert _player_complaint(fresh, 1, person=fresh.pkz["F"], pkz=fresh.pkz["F"]).status_code == 422  # F did not play
    assert (
        _file(fresh, None, subject="evaluation", pkz=fresh.pkz["A"], email=EMAIL, text="ohne Turnier").status_code
        == 422
    )
    assert _player_complaint(fresh, 1, extra="x").status_code == 422


def test_two_decisions_at_once_one_wins(fresh: World) -> None:
    cid = _player_complaint(fresh, 1).json()["id"]
    first = _decide(fresh, "referee_c", cid, revision=0, state="in_progress", note="Ich prüfe den Spielbericht.")
    assert first.status_code == 200, first.text
    second = _decide(fresh, "admin", cid, revision=0, state="dismissed", note="unbegründet")
    assert second.status_code == 409, second.text
    assert "changed meanwhile" in second.json()["detail"]
    now = fresh.client.get(f"/api/v1/complaints/{cid}", headers=_headers(fresh, "admin")).json()
    assert now["state"] == "in_progress" and now["revision"] == 1
    assert [(n["state"], n["text"]) for n in now["notes"]] == [("in_progress", "Ich prüfe den Spielbericht.")]
    assert _decide(fresh, "referee_d", cid, revision=1, state="resolved").status_code == 403
    assert _decide(fresh, "referee_c", cid, revision=1).status_code == 422  # neither state nor note
    assert _decide(fresh, "referee_c", cid, revision=1, state="new").status_code == 422
    assert _decide(fresh, "referee_c", cid, revision=1, state="closed").status_code == 422
    # the complainant reads the notes, not who wrote them
    followed = fresh.client.get("/api/v1/complaints", headers=_headers(fresh, "admin")).json()["items"][0]
    assert followed["notes"][0]["by"] == "referee C (token 2)"
    audit = fresh.get("/audit-log", "admin", action="complaint.decide").json()["items"]
    assert len(audit) == 1 and audit[0]["target"] == f"complaint {cid}"


def test_a_correction_for_it_links_to_it_and_is_audited_so(fresh: World) -> None:
    tid = _post(fresh, _body(fresh)).json()["id"]
    filed = _player_complaint(fresh, tid).json()
    cid = filed["id"]
    headers = _headers(fresh, "referee_c")
    fixed = _body(fresh)
    fixed["games"][-1]["result"] = "0-1"
    other = _player_complaint(fresh, 1).json()["id"]  # about another tournament: refused
    refused = fresh.client.put(f"/api/v1/tournaments/{tid}", params={"complaint": other}, json=fixed, headers=headers)
    assert refused.status_code == 422, refused.text
    assert "is not about tournament" in refused.text
    done = fresh.client.put(f"/api/v1/tournaments/{tid}", params={"complaint": cid}, json=fixed, headers=headers)
    assert done.status_code == 200, done.text
    seen = fresh.client.get(f"/api/v1/complaints/{cid}", headers=headers).json()
    assert [(k["kind"], k["target"]) for k in seen["links"]] == [("correction", f"tournament {tid} version 2")]
    audit = fresh.get("/audit-log", "admin", action="tournament.correct", tournament=tid).json()["items"]
    assert [a["detail"]["complaint"] for a in audit] == [cid]
    resolved = _decide(fresh, "referee_c", cid, revision=0, state="resolved", note="Ergebnis korrigiert.")
    assert resolved.status_code == 200
    mine = fresh.client.get("/api/v1" + filed["follow"]).json()
    assert mine["state"] == "resolved" and mine["links"][0]["kind"] == "correction"
    assert mine["notes"][0]["by"] is None


def test_a_record_change_for_it_links_to_it(fresh: World) -> None:
    filed = _file(fresh, None, subject="record", pkz=fresh.pkz["G"], email=EMAIL, text="Geburtsjahr falsch").json()
    admin = _headers(fresh, "admin")
    changed = fresh.client.patch(
        f"/api/v1/players/{fresh.pkz['G']}",
        params={"complaint": filed["id"]},
        json={"given_name": "Gerhard"},
        headers=admin,
    )
    assert changed.status_code == 200, changed.text
    seen = fresh.client.get(f"/api/v1/complaints/{filed['id']}", headers=admin).json()
    assert [(k["kind"], k["target"]) for k in seen["links"]] == [("record", f"player {fresh.pkz['G']}")]
    audit = fresh.get("/audit-log", "admin", action="player.edit", person=fresh.pkz["G"]).json()["items"]
    assert audit[0]["detail"]["complaint"] == filed["id"]
    wrong = fresh.client.patch(
        f"/api/v1/players/{fresh.pkz['A']}",
        params={"complaint": filed["id"]},
        json={"given_name": "Anne"},
        headers=admin,
    )
    assert wrong.status_code == 422, wrong.text
    assert fresh.client.get(f"/api/v1/players/{fresh.pkz['A']}").json()["given_name"] == "Anna"


def test_a_withdrawal_closes_its_open_complaints_with_a_note(fresh: World) -> None:
    tid = _post(fresh, _body(fresh)).json()["id"]
    open_one = _player_complaint(fresh, tid).json()
    closed = _player_complaint(fresh, tid, pid="B", person=fresh.pkz["B"], pkz=fresh.pkz["B"]).json()
    assert (
        _decide(fresh, "referee_c", closed["id"], revision=0, state="dismissed", note="unbegründet").status_code == 200
    )
    gone = fresh.client.delete(
        f"/api/v1/tournaments/{tid}", params={"reason": "doppelt gemeldet"}, headers=_headers(fresh, "referee_c")
    )
    assert gone.status_code == 204, gone.text
    mine = fresh.client.get("/api/v1" + open_one["follow"]).json()
    assert mine["state"] == "resolved"
    assert mine["notes"][-1]["text"] == "the tournament was withdrawn: doppelt gemeldet"
    other = fresh.client.get("/api/v1" + closed["follow"]).json()
    assert other["state"] == "dismissed" and len(other["notes"]) == 1  # a closed one stays as it was
    assert _player_complaint(fresh, tid).status_code == 422  # a withdrawn tournament takes none


def _publish(world: World, day: str, *, days_ago: int) -> None:
    made = world.client.post("/api/v1/editions", json={"date": day}, headers=_headers(world, "admin"))
    assert made.status_code == 201, made.text
    with unit_of_work(engine_for(world.url)) as session:
        session.execute(update(ListEdition).values(published_at=datetime.now(UTC) - timedelta(days=days_ago)))


def test_the_complaint_period_of_a_published_edition(fresh: World) -> None:
    # every stored tournament ended by 2026-10-05; the edition of 2026-10-31 published them
    # 40 days ago: its 30 days are over
    _publish(fresh, "2026-10-31", days_ago=40)
    late = _player_complaint(fresh, 1)
    assert late.status_code == 409, late.text
    assert "complaint period of the edition 2026-Q4 ended" in late.json()["detail"]
    assert _file(fresh, "referee_c", subject="evaluation", tournament=1, text="zu spät").status_code == 409
    office = _file(fresh, "admin", subject="evaluation", tournament=1, text="vom Amt angenommen")
    assert office.status_code == 201, office.text
    assert office.json()["late"] is True
    # a record has no period
    record = _file(fresh, None, subject="record", pkz=fresh.pkz["A"], email=EMAIL, text="Name falsch")
    assert record.status_code == 201, record.text


def test_the_period_is_open_for_days_after_publication(fresh: World) -> None:
    _publish(fresh, "2026-10-31", days_ago=29)
    filed = _player_complaint(fresh, 1)
    assert filed.status_code == 201, filed.text
    until = (datetime.now(UTC) - timedelta(days=29)).date() + timedelta(days=30)
    assert filed.json()["period_until"] == until.isoformat()


def test_at_most_five_complaints_an_hour_from_one_address(fresh: World) -> None:
    settings = Settings(database_url=fresh.url, rate_limits=True, rate_limit_storage="memory://")
    client = TestClient(create_app(settings, recalculation=False))
    body = {"subject": "record", "pkz": fresh.pkz["A"], "email": EMAIL, "text": "Name falsch"}
    answers = [client.post("/api/v1/complaints", json=body).status_code for _ in range(6)]
    assert answers == [201] * 5 + [429]
    # staff with a token are counted as their writes, not here
    admin = {"Authorization": f"Bearer {fresh.tokens['admin']}"}
    assert client.post("/api/v1/complaints", json={**body, "email": None}, headers=admin).status_code == 201
    assert recalc(fresh.url).clean
