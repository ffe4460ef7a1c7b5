"""Staff keep the record: a person's fields, memberships, clubs and the federation tree, through
the API, each change audited; a change that is an input of evaluations reaches back into the
time line from the person's first tournament, and the recalculation that follows leaves the
database equal to an evaluation from scratch.

The places named ("from tournament 2 of 2026-06-07") are read off the replay vector by hand:
F plays tournaments 2, 3 and 4, the first of them BMA on 2026-06-07; G plays 5 (AMA) and 2 (BMA)
on 2026-06-07, 3 on 2026-06-08, 4 and the pending 7 later.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from tests.api.world import World
from tests.db.scenario import differences, is_clean, recalc
from zdb.audit.models import AuditEntry
from zdb.db import engine_for, unit_of_work
from zdb.players.models import Membership
from zdb.tournaments.models import Participation


def _send(world: World, method: str, path: str, body: Any = None, token: str | None = "admin") -> Any:
    headers = {} if token is None else {"Authorization": f"Bearer {world.tokens[token]}"}
    return world.client.request(method, f"/api/v1{path}", json=body, headers=headers)


def _participations(world: World, pid: str, column: str) -> dict[int, Any]:
    with unit_of_work(engine_for(world.url)) as session:
        rows = session.execute(
            select(Participation.tournament_id, getattr(Participation, column)).where(
                Participation.player_pkz == world.pkz[pid]
            )
        )
        return {row[0]: row[1] for row in rows}


def _audit(world: World, action: str) -> list[AuditEntry]:
    with unit_of_work(engine_for(world.url)) as session:
        return list(session.scalars(select(AuditEntry).where(AuditEntry.action == action).order_by(AuditEntry.id)))


def test_a_corrected_birth_year_redoes_the_persons_tournaments_from_his_first(fresh: World) -> None:
    pkz = fresh.pkz["F"]
    before = fresh.get(f"/players/{pkz}").json()["rating"]
    answer = _send(fresh, "PATCH", f"/players/{pkz}", {"birth_date": "2010-05-17", "given_name": "Fatima"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["recalculation_from"] == {"end_date": "2026-06-07", "tournament_id": 2}
    assert answer.json()["birth_year"] == 2010 and answer.json()["given_name"] == "Fatima"
    assert set(_participations(fresh, "F", "birth_year").values()) == {2010}
    assert not is_clean(fresh.url)
    [entry] = _audit(fresh, "player.edit")
    assert entry.detail is not None
    assert entry.detail["by"] == "admin"
    assert entry.detail["before"] == {"given_name": "Fatma", "birth_year": 1990, "birth_date": "1990-05-17"}
    assert entry.detail["after"] == {"given_name": "Fatima", "birth_year": 2010, "birth_date": "2010-05-17"}
    recalc(fresh.url)
    assert is_clean(fresh.url) and differences(fresh.url) == []
    # A youth's development coefficient differs from an adult's (spec §6): his rating moved.
    assert fresh.get(f"/players/{pkz}").json()["rating"] != before
    # A name alone is no input of evaluations: nothing is redone.
    renamed = _send(fresh, "PATCH", f"/players/{pkz}", {"surname": "Öztürk-Kaya"})
    assert renamed.json()["recalculation_from"] is None
    assert is_clean(fresh.url)


def test_a_guest_who_joins_a_club_is_a_member_from_that_day_on(fresh: World) -> None:
    pkz = fresh.pkz["G"]
    made_guest = _send(fresh, "PATCH", f"/players/{pkz}", {"guest": True})
    assert made_guest.status_code == 200, made_guest.text
    assert made_guest.json()["recalculation_from"] == {"end_date": "2026-06-07", "tournament_id": 5}
    assert set(_participations(fresh, "G", "member").values()) == {False}
    joined = _send(fresh, "POST", f"/players/{pkz}/memberships", {"club_code": "C0101", "valid_from": "2026-06-08"})
    assert joined.status_code == 201, joined.text
    assert joined.json()["recalculation_from"] == {"end_date": "2026-06-08", "tournament_id": 3}
    assert _participations(fresh, "G", "member") == {2: False, 3: True, 4: True, 5: False, 7: True}
    assert fresh.get(f"/players/{pkz}").json()["guest"] is False
    # A member never was a guest (WO 3.4.3): refused, and nothing changed.
    again = _send(fresh, "PATCH", f"/players/{pkz}", {"guest": True})
    assert again.status_code == 409 and "C0101" in again.json()["detail"]
    recalc(fresh.url)
    assert is_clean(fresh.url) and differences(fresh.url) == []


def test_memberships_clubs_and_the_tree(fresh: World) -> None:
    a = fresh.pkz["A"]
    moved = _send(
        fresh,
        "POST",
        f"/players/{a}/transfers",
        {"from_club": "C0327", "to_club": "C0101", "date": "2026-07-01", "member_no": 7},
    )
    assert moved.status_code == 200, moved.text
    assert moved.json()["ended"]["valid_until"] == "2026-06-30"
    assert moved.json()["joined"]["valid_from"] == "2026-07-01"
    assert moved.json()["joined"]["recalculation_from"] is None  # he was a member already
    card = fresh.get(f"/players/{a}", "admin").json()
    assert [m["club_code"] for m in card["memberships"] if m["valid_until"] is None] == ["C0101"]
    taken = _send(
        fresh,
        "POST",
        f"/players/{fresh.pkz['B']}/memberships",
        {"club_code": "C0101", "member_no": 7, "valid_from": "2026-07-01"},
    )
    assert taken.status_code == 409 and "held by player" in taken.json()["detail"]

    made = _send(fresh, "POST", "/federations", {"prefix": "C04", "name": "Bezirk C04", "parent_prefix": "C"})
    assert made.status_code == 201 and made.json()["level"] == 2
    wrong = _send(fresh, "POST", "/clubs", {"code": "C0501", "name": "SC Fünf", "federation_prefix": "C04"})
    assert wrong.status_code == 422 and wrong.json()["errors"][0]["place"] == "body.federation_prefix"
    club = _send(fresh, "POST", "/clubs", {"code": "C0401", "name": "SC Vier", "federation_prefix": "C04"})
    assert club.status_code == 201 and club.headers["location"] == "/api/v1/clubs/C0401"
    assert _send(fresh, "PATCH", "/clubs/C0327", {"federation_prefix": "C"}).json()["federation_prefix"] == "C"
    assert _send(fresh, "PATCH", "/clubs/C0327", {"federation_prefix": "C01"}).status_code == 422
    assert _send(fresh, "PATCH", "/federations/C04", {"name": "Bezirk Vier"}).json()["name"] == "Bezirk Vier"

    # D0001 has two current members (D, F); H's membership there ended in 2020 and stays as it was.
    dissolved = _send(fresh, "POST", "/federations/D/dissolution", {"date": "2026-12-31"})
    assert dissolved.status_code == 200, dissolved.text
    assert dissolved.json() == {"dissolved_on": "2026-12-31", "memberships_ended": 2}
    with unit_of_work(engine_for(fresh.url)) as session:
        ends = session.execute(select(Membership.valid_until).where(Membership.club_code == "D0001")).scalars()
        assert sorted(str(e) for e in ends) == ["2020-12-31", "2026-12-31", "2026-12-31"]
    late = _send(fresh, "POST", f"/players/{a}/memberships", {"club_code": "D0001", "valid_from": "2027-01-01"})
    assert late.status_code == 409 and "dissolved" in late.json()["detail"]
    actions = [e.action for e in _audit(fresh, "federation.dissolve")]
    assert actions == ["federation.dissolve"]


def test_only_staff_change_the_record_and_a_refusal_stores_nothing(fresh: World) -> None:
    pkz = fresh.pkz["A"]
    with unit_of_work(engine_for(fresh.url)) as session:
        entries = session.execute(select(func.count()).select_from(AuditEntry)).scalar()
    assert _send(fresh, "PATCH", f"/players/{pkz}", {"surname": "X"}, token=None).status_code == 401
    assert _send(fresh, "PATCH", f"/players/{pkz}", {"surname": "X"}, token="referee_c").status_code == 403
    bad = _send(fresh, "PATCH", f"/players/{pkz}", {"birth_date": "1981-02-03", "birth_year": 1980, "height": 1})
    assert bad.status_code == 422
    assert "body.height" in {e["place"] for e in bad.json()["errors"]}
    mismatch = _send(fresh, "PATCH", f"/players/{pkz}", {"birth_date": "1981-02-03", "birth_year": 1980})
    assert mismatch.status_code == 422 and mismatch.json()["errors"][0]["place"] == "body.birth_year"
    taken = _send(fresh, "PATCH", f"/players/{pkz}", {"fide_id": 4600003})
    assert taken.status_code == 409 and str(fresh.pkz["C"]) in taken.json()["detail"]
    created = _send(fresh, "POST", "/players", {"surname": "Neu", "given_name": "Nora", "birth_date": "2011-04-01"})
    assert created.status_code == 201, created.text
    assert created.json()["birth_year"] == 2011
    assert fresh.client.get(created.headers["location"]).json()["surname"] == "Neu"
    with unit_of_work(engine_for(fresh.url)) as session:
        assert session.execute(select(func.count()).select_from(AuditEntry)).scalar() == (entries or 0) + 1
    assert is_clean(fresh.url)


def test_the_audit_log_names_who_and_filters(fresh: World) -> None:
    a, b = fresh.pkz["A"], fresh.pkz["B"]
    assert _send(fresh, "PATCH", f"/players/{a}", {"nation": "AUT"}).status_code == 200
    assert _send(fresh, "PATCH", f"/players/{b}", {"nation": "SUI"}).status_code == 200
    headers = {"Authorization": f"Bearer {fresh.tokens['admin']}"}
    log = fresh.client.get("/api/v1/audit-log", params={"person": a}, headers=headers)
    assert log.status_code == 200, log.text
    [entry] = log.json()["items"]
    assert (entry["actor_label"], entry["action"], entry["target"]) == ("admin", "player.edit", f"player {a}")
    assert entry["detail"]["before"] == {"nation": "GER"} and entry["detail"]["after"] == {"nation": "AUT"}
    by_admin = fresh.client.get(
        "/api/v1/audit-log", params={"actor": "admin", "action": "player.edit"}, headers=headers
    )
    assert by_admin.json()["total"] == 2
    assert fresh.client.get("/api/v1/audit-log", params={"actor": "referee_c"}, headers=headers).json()["total"] == 0
    later = fresh.client.get("/api/v1/audit-log", params={"since": "2100-01-01T00:00:00Z"}, headers=headers)
    assert later.json()["total"] == 0
    # If-Modified-Since beside If-None-Match (which wins when both are sent).
    stamp = log.headers["last-modified"]
    assert (
        fresh.client.get(
            "/api/v1/audit-log", params={"person": a}, headers={**headers, "If-Modified-Since": stamp}
        ).status_code
        == 304
    )
    old = "Mon, 01 Jan 2024 00:00:00 GMT"
    assert (
        fresh.client.get(
            "/api/v1/audit-log", params={"person": a}, headers={**headers, "If-Modified-Since": old}
        ).status_code
        == 200
    )
    both = {**headers, "If-Modified-Since": stamp, "If-None-Match": '"other"'}
    assert fresh.client.get("/api/v1/audit-log", params={"person": a}, headers=both).status_code == 200


def test_an_objection_withholds_the_name_from_the_public_and_the_data_leaves_as_one_document(fresh: World) -> None:
    a = fresh.pkz["A"]  # Anna Müller of club C0327
    answer = _send(fresh, "PATCH", f"/players/{a}", {"objects_to_publication": True})
    assert answer.status_code == 200 and answer.json()["objects_to_publication"] is True
    public = fresh.get(f"/players/{a}").json()
    assert (public["surname"], public["given_name"]) == ("***", "") and public["rating"] is not None
    for token in ("admin", "club_c0327"):
        assert fresh.get(f"/players/{a}", token).json()["surname"] == "Müller"
    top = {e["pkz"]: e for e in fresh.get("/ratings/top", limit=100).json()["items"]}
    assert top[a]["surname"] == "***" and top[a]["rating"] == public["rating"]
    assert a not in [p["pkz"] for p in fresh.get("/players", name="Müller").json()["items"]]
    pulled = {m["pkz"]: m for m in fresh.get("/clubs/C0327/ratings").json()["items"]}
    assert pulled[a]["surname"] == "***"
    own = {m["pkz"]: m for m in fresh.get("/clubs/C0327/ratings", "club_c0327").json()["items"]}
    assert own[a]["surname"] == "Müller"

    assert _send(fresh, "GET", f"/players/{a}/export", token=None).status_code == 401
    document = _send(fresh, "GET", f"/players/{a}/export").json()
    assert document["record"]["surname"] == "Müller" and document["record"]["birth_date"] == "1980-05-17"
    # A plays tournaments 1 to 4 of the vector, and the world's withdrawn and pending copies.
    assert sorted(p["tournament_id"] for p in document["participations"]) == [1, 2, 3, 4, 6, 7]
    assert [m["club_code"] for m in document["memberships"]] == ["C0327"]
    assert document["audit"][0]["action"] == "player.edit"
