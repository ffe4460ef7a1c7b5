"""A membership change, a transfer and a merge made for a complaint (issue 35, item 5): the
change links to the complaint and its audit entries name it, as a person's record change and a
correction do; an unknown or closed complaint, or one about somebody else, is refused (422
naming ``query.complaint``) and nothing changes. On PostgreSQL and SQLite.

The world's players A (member of C0327) and D are the known facts the answers are read
against."""

from __future__ import annotations

from typing import Any

from tests.api.test_submissions import _headers
from tests.api.world import World

EMAIL = "dieter.schmidt@example.org"


def _record_complaint(world: World, pkz: int) -> int:
    filed = world.client.post(
        "/api/v1/complaints",
        json={"subject": "record", "pkz": pkz, "email": EMAIL, "text": "Mein Verein stimmt nicht."},
    )
    assert filed.status_code == 201, filed.text
    return int(filed.json()["id"])


def _admin(world: World, method: str, path: str, body: dict[str, Any], complaint: int) -> Any:
    return world.client.request(
        method, f"/api/v1{path}", params={"complaint": complaint}, json=body, headers=_headers(world, "admin")
    )


def _links(world: World, complaint: int) -> list[tuple[str, str]]:
    seen = world.client.get(f"/api/v1/complaints/{complaint}", headers=_headers(world, "admin")).json()
    return [(k["kind"], k["target"]) for k in seen["links"]]


def _audited(world: World, action: str, pkz: int) -> list[Any]:
    items = world.get("/audit-log", "admin", action=action, person=pkz).json()["items"]
    return [a["detail"].get("complaint") for a in items]


def _refused_naming_the_parameter(answer: Any, words: str) -> None:
    assert answer.status_code == 422, answer.text
    assert "query.complaint" in answer.text and words in answer.text, answer.text


def test_a_transfer_and_a_membership_change_link_to_it(fresh: World) -> None:
    a = fresh.pkz["A"]
    cid = _record_complaint(fresh, a)
    body = {"from_club": "C0327", "to_club": "C0101", "date": "2026-07-01", "member_no": 7}
    moved = _admin(fresh, "POST", f"/players/{a}/transfers", body, cid)
    assert moved.status_code == 200, moved.text
    joined_id = moved.json()["joined"]["id"]
    # linked once; both audit entries (the leave and the join) name the complaint
    assert _links(fresh, cid) == [("record", f"player {a}: transfer from club C0327 to C0101")]
    assert _audited(fresh, "membership.leave", a) == [cid]
    assert _audited(fresh, "membership.join", a) == [cid]
    changed = _admin(fresh, "PATCH", f"/memberships/{joined_id}", {"member_no": 8}, cid)
    assert changed.status_code == 200, changed.text
    assert _links(fresh, cid)[1] == ("record", f"membership {joined_id} (player {a} in club C0101)")
    assert _audited(fresh, "membership.edit", a) == [cid]
    joined = _admin(fresh, "POST", f"/players/{a}/memberships", {"club_code": "D0001", "valid_from": "2026-08-01"}, cid)
    assert joined.status_code == 201, joined.text
    assert _links(fresh, cid)[2][1].endswith(f"(player {a} in club D0001)")
    assert len(_links(fresh, cid)) == 3


def test_a_merge_links_to_a_complaint_about_either_record(fresh: World) -> None:
    d = fresh.pkz["D"]
    twin = fresh.client.post(
        "/api/v1/players", json={"surname": "Schmid", "given_name": "Dieter"}, headers=_headers(fresh, "admin")
    )
    assert twin.status_code == 201, twin.text
    twin_pkz = twin.json()["pkz"]
    cid = _record_complaint(fresh, twin_pkz)  # filed under the absorbed number
    merged = _admin(fresh, "POST", f"/players/{d}/merge", {"absorb": twin_pkz}, cid)
    assert merged.status_code == 200, merged.text
    assert _links(fresh, cid) == [("record", f"player {d} (absorbed {twin_pkz})")]
    assert _audited(fresh, "player.merge", d) == [cid]


def test_an_unknown_closed_or_other_complaint_is_refused_and_nothing_changes(fresh: World) -> None:
    a, b = fresh.pkz["A"], fresh.pkz["B"]
    body = {"from_club": "C0327", "to_club": "C0101", "date": "2026-07-01"}
    _refused_naming_the_parameter(
        _admin(fresh, "POST", f"/players/{a}/transfers", body, 999999), "complaint 999999 does not exist"
    )
    about_b = _record_complaint(fresh, b)
    _refused_naming_the_parameter(
        _admin(fresh, "POST", f"/players/{a}/transfers", body, about_b), f"is not about person {a}"
    )
    cid = _record_complaint(fresh, a)
    decided = fresh.client.post(
        f"/api/v1/complaints/{cid}/decisions",
        json={"revision": 0, "state": "dismissed", "note": "stimmt so"},
        headers=_headers(fresh, "admin"),
    )
    assert decided.status_code == 200, decided.text
    _refused_naming_the_parameter(
        _admin(fresh, "POST", f"/players/{a}/transfers", body, cid), f"complaint {cid} is closed (dismissed)"
    )
    card = fresh.get(f"/players/{a}", "admin").json()
    assert [m["club_code"] for m in card["memberships"] if m["valid_until"] is None] == ["C0327"]
    assert _audited(fresh, "membership.join", a) == []
    assert _links(fresh, cid) == [] and _links(fresh, about_b) == []
