"""The staff's record pages without a browser: memberships (join, change, leave, transfer),
clubs and the federation tree (create, rename, move, dissolve), written through the services the
API uses. An admin uses each form and sees the change through the API and in the audit log; a
referee is refused; a bad field is refused naming it, and a refused write stores nothing, even
when the service had already flushed half of it.

The known answers come from the world (``tests/api/world.py``) and the replay vector as
``tests/api/test_office_records.py`` reads them: G's first tournament ending on or after
2026-06-08 is tournament 3; club D0001 has two current members, C0101 one.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.api.test_office_records import _send
from tests.api.world import World, build_world
from tests.web.html_text import text_of
from tests.web.signed_in import audit_actions as _actions
from tests.web.signed_in import signed_in as _signed_in
from tests.web.test_no_slugs import _slugs


@pytest.fixture
def world(database_url: str) -> World:
    return build_world(database_url)


def _memberships(world: World, pkz: int) -> dict[str, dict[str, Any]]:
    """The person's memberships by club, as the API answers them."""
    answer = world.get(f"/players/{pkz}/memberships", "admin")
    assert answer.status_code == 200, answer.text
    return {m["club_code"]: m for m in answer.json()}


def _refused(answer: Any, status: int, *words: str) -> None:
    assert answer.status_code == status, answer.text
    shown = text_of(answer.text)
    for word in words:
        assert word in shown, (word, shown)


def _shown(client: TestClient, answer: Any, *words: str) -> str:
    """Follows the redirect after a change; the page says what was done."""
    assert answer.status_code == 303, answer.text
    page = client.get(answer.headers["location"])
    assert page.status_code == 200, page.text
    shown = text_of(page.text)
    for word in words:
        assert word in shown, (word, shown)
    assert _slugs(page.text) == []
    return shown


def test_an_admin_keeps_a_persons_memberships(world: World) -> None:
    a = world.pkz["A"]  # Anna Müller, member 1 of C0327
    page_path = f"/staff/players/{a}/memberships"
    referee = _signed_in(world, "referee_c")
    assert referee.get(page_path).status_code == 403
    join = {"club_code": "D0001", "member_no": "5", "status": "active", "valid_from": "2026-07-01"}
    assert referee.post(page_path, data=join).status_code == 403
    assert "D0001" not in _memberships(world, a)

    client = _signed_in(world, "admin")
    assert f'href="{page_path}"' in client.get(f"/staff/players/{a}").text
    page = client.get(page_path)
    assert page.status_code == 200 and _slugs(page.text) == []
    assert "C0327 SK Musterstadt 1920" in text_of(page.text) and "Vereinseintritt" in page.text

    _refused(client.post(page_path, data={**join, "club_code": "XXXXX"}), 422, "Vereinskennzahl", "XXXXX")
    _refused(client.post(page_path, data={**join, "valid_from": "31.02.2026"}), 422, "Erster Tag", "31.02.2026")
    _refused(client.post(page_path, data={**join, "member_no": "fünf"}), 422, "Mitgliedsnummer", "fünf")
    _refused(client.post(page_path, data={**join, "member_no": "99999999999"}), 422, "Mitgliedsnummer")
    assert "D0001" not in _memberships(world, a)

    joined = client.post(page_path, data=join)
    assert joined.headers["location"] == f"{page_path}?done=joined"  # she was a member already: nothing redone
    _shown(client, joined, "Gespeichert: Der Vereinseintritt ist eingetragen.", "D0001 SV Delta")
    delta = _memberships(world, a)["D0001"]
    assert (delta["member_no"], delta["status"], delta["valid_from"], delta["valid_until"]) == (
        5,
        "active",
        "2026-07-01",
        None,
    )

    change = f"/staff/memberships/{delta['id']}"
    edit = {"member_no": "5", "status": "passive", "valid_from": "2026-07-01", "valid_until": "30.09.2026"}
    _refused(client.post(change, data={**edit, "valid_until": "2026-06-30"}), 422, "Letzter Tag")
    _refused(client.post(change, data={**edit, "valid_until": "morgen"}), 422, "Letzter Tag", "morgen")
    _shown(client, client.post(change, data=edit), "Gespeichert.")
    delta = _memberships(world, a)["D0001"]
    assert (delta["status"], delta["valid_until"]) == ("passive", "2026-09-30")

    moves = f"/staff/players/{a}/transfers"
    move = {"from_club": "C0327", "to_club": "C0101", "date": "01.08.2026", "member_no": "8", "status": "active"}
    _refused(client.post(moves, data={**move, "to_club": "C03"}), 422, "In den Verein (Kennzahl)")
    _refused(client.post(moves, data={**move, "date": ""}), 422, "Datum")
    _shown(client, client.post(moves, data=move), "Gespeichert: Der Vereinswechsel ist eingetragen.")
    held = _memberships(world, a)
    assert (held["C0327"]["valid_until"], held["C0101"]["valid_from"], held["C0101"]["member_no"]) == (
        "2026-07-31",
        "2026-08-01",
        8,
    )
    assert held["C0101"]["valid_until"] is None
    assert _actions(world, f"player {a}") == [
        "membership.join",
        "membership.leave",
        "membership.leave",
        "membership.join",
    ]


def test_a_guest_who_joins_on_the_page_is_told_how_far_back_the_recalculation_reaches(world: World) -> None:
    g = world.pkz["G"]
    assert _send(world, "PATCH", f"/players/{g}", {"guest": True}).status_code == 200
    client = _signed_in(world, "admin")
    join = {"club_code": "C0101", "status": "active", "valid_from": "08.06.2026"}
    joined = client.post(f"/staff/players/{g}/memberships", data=join)
    assert joined.headers["location"].endswith("?done=joined&redo_from=2026-06-08&redo_tournament=3")
    _shown(client, joined, "Die Neuberechnung wertet ab Turnier 3 (Ende 08.06.2026) neu aus.")
    assert world.get(f"/players/{g}", "admin").json()["guest"] is False


def test_a_refused_page_write_stores_nothing_of_what_was_flushed_before_the_refusal(world: World) -> None:
    """The transfer ends the old membership (flushed, audited) before joining the new club is
    refused: the page answers the refusal itself, and the request's unit of work rolls back."""
    a = world.pkz["A"]
    client = _signed_in(world, "admin")
    move = {"from_club": "C0327", "to_club": "ZZZZZ", "date": "2026-08-01", "status": "active"}
    _refused(client.post(f"/staff/players/{a}/transfers", data=move), 422, "Vereinskennzahl", "ZZZZZ")
    assert _memberships(world, a)["C0327"]["valid_until"] is None
    assert _actions(world, f"player {a}") == []
    # The same after a refusal that is a conflict: a dissolved club takes no one.
    assert _send(world, "POST", "/clubs/D0001/dissolution", {"date": "2026-06-30"}).status_code == 200
    _refused(client.post(f"/staff/players/{a}/transfers", data={**move, "to_club": "D0001"}), 409, "D0001")
    assert _memberships(world, a)["C0327"]["valid_until"] is None
    assert _actions(world, f"player {a}") == []


def test_an_admin_keeps_the_clubs_and_the_federation_tree(world: World) -> None:
    referee = _signed_in(world, "referee_c")
    for path in ("/staff/federations", "/staff/federations/C", "/staff/clubs/C0327"):
        assert referee.get(path).status_code == 403, path
    assert referee.post("/staff/clubs/C0101/dissolution", data={"date": "2026-12-31"}).status_code == 403
    federation = {"prefix": "C04", "name": "Bezirk C04", "parent_prefix": "C"}
    assert referee.post("/staff/federations", data=federation).status_code == 403
    assert _actions(world, "club C0101") == [] and _actions(world, "federation C04") == []

    client = _signed_in(world, "admin")
    tree = client.get("/staff/federations")
    assert tree.status_code == 200 and _slugs(tree.text) == []
    assert "Region C" in tree.text and "Bezirk C03" in tree.text and "Verband anlegen" in tree.text

    made = client.post("/staff/federations", data=federation)
    assert made.headers["location"] == "/staff/federations/C04?done=created"
    _shown(client, made, "Gespeichert: Der Verband ist angelegt.", "Verein in diesem Verband anlegen")
    [c04] = world.get("/federations", under="C04").json()["items"]
    assert (c04["name"], c04["level"], c04["parent_prefix"]) == ("Bezirk C04", 2, "C")
    _refused(
        client.post("/staff/federations", data={"prefix": "C0-", "name": "X", "parent_prefix": "C"}), 422, "Präfix"
    )
    _refused(
        client.post("/staff/federations", data={"prefix": "D9", "name": "X", "parent_prefix": "C"}),
        422,
        "Übergeordneter Verband (Präfix)",
    )

    club = {"code": "C0401", "name": "SC Vier", "federation_prefix": "C04"}
    _refused(client.post("/staff/clubs", data={**club, "code": "C04"}), 422, "Vereinskennzahl", "C04")
    _refused(
        client.post("/staff/clubs", data={**club, "code": "C0901", "federation_prefix": "C09"}),
        422,
        "Verband (Präfix)",
    )
    created = client.post("/staff/clubs", data=club)
    assert created.headers["location"] == "/staff/clubs/C0401?done=created"
    _shown(client, created, "Gespeichert: Der Verein ist angelegt.", "Bezirk C04")
    _shown(client, client.post("/staff/clubs/C0401", data={"name": "SC Vier 2026"}), "Gespeichert.")
    assert world.get("/clubs/C0401").json()["name"] == "SC Vier 2026"
    _refused(client.post("/staff/clubs/C0401", data={"name": " "}), 422, "Name")

    _shown(client, client.post("/staff/clubs/C0327/move", data={"federation_prefix": "C"}), "Gespeichert.")
    assert world.get("/clubs/C0327").json()["federation_prefix"] == "C"
    _refused(client.post("/staff/clubs/C0327/move", data={"federation_prefix": "C01"}), 422, "Verband (Präfix)")
    assert world.get("/clubs/C0327").json()["federation_prefix"] == "C"

    _shown(client, client.post("/staff/federations/C04", data={"name": "Bezirk Vier"}), "Gespeichert.")
    _shown(client, client.post("/staff/federations/C04/move", data={"parent_prefix": ""}), "Gespeichert.")
    [c04] = world.get("/federations", under="C04").json()["items"]
    assert (c04["name"], c04["level"], c04["parent_prefix"]) == ("Bezirk Vier", 1, "")
    _refused(
        client.post("/staff/federations/C04/move", data={"parent_prefix": "D"}), 422, "Übergeordneter Verband (Präfix)"
    )

    club_dissolution = "/staff/clubs/C0101/dissolution"
    _refused(client.post(club_dissolution, data={"date": "2026-13-01"}), 422, "Datum", "2026-13-01")
    dissolved = client.post(club_dissolution, data={"date": "2026-12-31"})
    assert dissolved.headers["location"] == "/staff/clubs/C0101?done=dissolved&ended=1"
    _shown(client, dissolved, "Gespeichert: Der Verein ist aufgelöst.", "Beendete Mitgliedschaften: 1.", "31.12.2026")
    assert _memberships(world, world.pkz["C"])["C0101"]["valid_until"] == "2026-12-31"
    assert world.get("/clubs/C0101").json()["members"] == 0

    region = client.post("/staff/federations/D/dissolution", data={"date": "2026-12-31"})
    assert region.headers["location"] == "/staff/federations/D?done=dissolved&ended=2"
    _shown(client, region, "Beendete Mitgliedschaften: 2.", "aufgelöst am 31.12.2026")
    assert _memberships(world, world.pkz["D"])["D0001"]["valid_until"] == "2026-12-31"

    assert _actions(world, "federation C04") == ["federation.create", "federation.rename", "federation.move"]
    assert _actions(world, "club C0401") == ["club.create", "club.rename"]
    assert _actions(world, "club C0327") == ["club.move"]
    assert _actions(world, "club C0101") == ["club.dissolve"]
    assert _actions(world, "federation D") == ["federation.dissolve"]
