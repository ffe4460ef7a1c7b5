"""The rating office's refusals on the staff pages: each form's refusal reads in German on the
German page (its field named by the form's label, no English word of the refusal left), and the
same refusal through the API answers the English text it always answered, word for word.

The world is ``tests/api/world.py``: Anna (A) and Bernd (B) are members of C0327 and played the
replay's tournaments together; federation C09 and club X9999 do not exist.
"""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from tests.api.test_office_records import _send
from tests.api.world import World, build_world
from tests.web.html_text import text_of
from tests.web.same_site import SAME_SITE
from tests.web.signed_in import signed_in as _signed_in
from zdb.app import create_app
from zdb.auth.service import create_token
from zdb.config import Settings
from zdb.db import engine_for, unit_of_work
from zdb.lists.runner import run_list_import
from zdb.synthetic.rating_lists import list_zip_bytes, synthetic_list
from zdb.tournaments.models import Participation


@pytest.fixture
def world(database_url: str) -> World:
    return build_world(database_url)


def _details(page: str, where: str = "problems") -> list[str]:
    """The refusal's lines as the page lists them."""
    [listed] = re.findall(rf'<ul class="{where}"[^>]*>(.*?)</ul>', page, re.S)
    return [text_of(html.unescape(item)) for item in re.findall(r"<li>(.*?)</li>", listed, re.S)]


def _no_english(shown: str, english: str, *values: str) -> None:
    """No word of the English refusal (but the values put into it) is left in the German text."""
    for value in values:
        english = english.replace(value, " ")
    english = re.sub(r"'[^']*'|--\w+", " ", english)
    shown = re.sub(r"--\w+", " ", shown)  # a command's option is the same in both languages
    left = {word for word in re.findall(r"\b[a-z]{3,}\b", english) if re.search(rf"\b{word}\b", shown)}
    assert left == set(), (shown, english)


def _german(answer: Any, status: int, expected: str, english: str, *values: str) -> None:
    assert answer.status_code == status, answer.text
    [shown] = _details(answer.text)
    assert shown == expected
    _no_english(shown, english, *values)


def _api(answer: Any, status: int, detail: str, errors: list[tuple[str, str]] | None = None) -> None:
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert body["detail"] == detail
    assert [(e["place"], e["message"]) for e in body.get("errors", [])] == (errors or [])


def _shared_tournaments(world: World, one: int, other: int) -> str:
    with unit_of_work(engine_for(world.url)) as session:
        p = Participation
        played = [set(session.scalars(select(p.tournament_id).where(p.player_pkz == pkz))) for pkz in (one, other)]
    shared = sorted(played[0] & played[1])
    assert shared
    return ", ".join(str(t) for t in shared)


def test_the_person_and_membership_forms_refuse_in_german(world: World) -> None:
    a, b, d = world.pkz["A"], world.pkz["B"], world.pkz["D"]
    client = _signed_in(world, "admin")

    # joining a club that does not exist
    join = {"club_code": "X9999", "member_no": "", "status": "active", "valid_from": "2026-07-01"}
    english = "no club has the code 'X9999'"
    _german(
        client.post(f"/staff/players/{a}/memberships", data=join),
        422,
        "Vereinskennzahl: kein Verein hat die Kennzahl 'X9999'",
        english,
    )
    sent = _send(world, "POST", f"/players/{a}/memberships", {"club_code": "X9999", "valid_from": "2026-07-01"})
    _api(sent, 422, f"body.club_code: {english}", [("body.club_code", english)])

    # a transfer into a dissolved club
    club = {"code": "C0330", "name": "SC Aufgelöst", "federation_prefix": "C03"}
    assert _send(world, "POST", "/clubs", club).status_code == 201
    assert _send(world, "POST", "/clubs/C0330/dissolution", {"date": "2026-06-30"}).status_code == 200
    move = {"from_club": "C0327", "to_club": "C0330", "date": "2026-07-01", "member_no": "", "status": "active"}
    english = "club C0330 was dissolved on 2026-06-30"
    _german(
        client.post(f"/staff/players/{a}/transfers", data=move),
        409,
        "der Verein C0330 wurde am 2026-06-30 aufgelöst",
        english,
        "C0330",
    )
    body = {"from_club": "C0327", "to_club": "C0330", "date": "2026-07-01"}
    _api(_send(world, "POST", f"/players/{a}/transfers", body), 409, english)

    # merging two records who played in one tournament
    listed = _shared_tournaments(world, a, b)
    english = (
        f"players {a} and {b} both played in tournament {listed}: two people, or a file that names one person "
        "twice; correct the tournament first"
    )
    _german(
        client.post(f"/staff/players/{a}/merge", data={"absorb": str(b)}),
        409,
        f"die Spieler {a} und {b} haben beide im Turnier {listed} gespielt: zwei Personen, oder eine Datei, die "
        "eine Person zweimal nennt; zuerst das Turnier berichtigen",
        english,
    )
    _api(_send(world, "POST", f"/players/{a}/merge", {"absorb": b}), 409, english)

    # a FIDE id another record holds
    assert _send(world, "PATCH", f"/players/{b}", {"fide_id": 4699999}).status_code == 200
    form = {"surname": "Schmidt", "given_name": "Dieter", "birth_year": "", "sex": "M", "fide_id": "4699999"}
    english = f"the FIDE id 4699999 belongs to player {b}; merge the two records instead"
    _german(
        client.post(f"/staff/players/{d}", data={**form, "nation": ""}),
        409,
        f"die FIDE-ID 4699999 gehört dem Spieler {b}; stattdessen die beiden Datensätze zusammenführen",
        english,
        "FIDE",
    )
    _api(_send(world, "PATCH", f"/players/{d}", {"fide_id": 4699999}), 409, english)

    # a birth year out of range, refused by the form before the service sees it
    refused = client.post(f"/staff/players/{d}", data={**form, "fide_id": "", "birth_year": "1700"})
    _german(
        refused,
        422,
        "Geburtsjahr: muss zwischen 1850 und 2200 liegen, angegeben ist 1700",
        "must lie between 1850 and 2200, got 1700",
    )


def test_the_club_and_federation_forms_refuse_in_german(world: World) -> None:
    client = _signed_in(world, "admin")

    # a club in a federation that does not exist
    club = {"code": "C0901", "name": "SC Neun", "federation_prefix": "C09"}
    english = "no federation has the prefix 'C09'"
    _german(
        client.post("/staff/clubs", data=club),
        422,
        "Verband (Präfix): kein Verband hat das Präfix 'C09'",
        english,
    )
    _api(
        _send(world, "POST", "/clubs", club),
        422,
        f"body.federation_prefix: {english}",
        [("body.federation_prefix", english)],
    )

    # a club dissolved twice
    assert client.post("/staff/clubs/C0101/dissolution", data={"date": "2026-12-31"}).status_code == 303
    english = "club C0101 was dissolved on 2026-12-31 already"
    _german(
        client.post("/staff/clubs/C0101/dissolution", data={"date": "2026-12-31"}),
        409,
        "der Verein C0101 wurde schon am 2026-12-31 aufgelöst",
        english,
        "C0101",
    )
    _api(_send(world, "POST", "/clubs/C0101/dissolution", {"date": "2026-12-31"}), 409, english)

    # a club page for a code no club has
    _german(client.get("/staff/clubs/X9999"), 404, "kein Verein hat die Kennzahl 'X9999'", "no club has the code")
    _api(world.get("/clubs/X9999"), 404, "no club has the code 'X9999'")

    # a federation under one that does not exist
    federation = {"prefix": "C05", "name": "Bezirk C05", "parent_prefix": "C9"}
    english = "no federation has the prefix 'C9'"
    _german(
        client.post("/staff/federations", data=federation),
        422,
        "Übergeordneter Verband (Präfix): kein Verband hat das Präfix 'C9'",
        english,
    )
    _api(
        _send(world, "POST", "/federations", federation),
        422,
        f"body.parent_prefix: {english}",
        [("body.parent_prefix", english)],
    )

    # a federation under a sub-district (level 3, the deepest)
    for prefix, parent in (("C1", "C"), ("C11", "C1")):
        made = _send(
            world, "POST", "/federations", {"prefix": prefix, "name": f"Bezirk {prefix}", "parent_prefix": parent}
        )
        assert made.status_code == 201, made.text
    deeper = {"prefix": "C111", "name": "Zu tief", "parent_prefix": "C11"}
    english = "'C11' is a sub-district already"
    _german(
        client.post("/staff/federations", data=deeper),
        422,
        "Übergeordneter Verband (Präfix): 'C11' ist schon ein Unterbezirk",
        english,
    )
    _api(
        _send(world, "POST", "/federations", deeper),
        422,
        f"body.parent_prefix: {english}",
        [("body.parent_prefix", english)],
    )


def test_a_referee_is_refused_the_staff_pages_in_german(world: World) -> None:
    referee = _signed_in(world, "referee_c")
    english = "this needs the role admin; the token's role is referee"
    _german(
        referee.get("/staff/federations"),
        403,
        "dies braucht die Rolle admin; das Token hat die Rolle referee",
        english,
        "admin",
        "referee",
    )
    _api(_send(world, "POST", "/clubs/C0101/dissolution", {"date": "2026-12-31"}, "referee_c"), 403, english)


def test_a_list_refused_for_its_date_says_so_in_german(postgres_url: str) -> None:
    with unit_of_work(engine_for(postgres_url)) as session:
        admin = create_token(session, "admin", label="staff").secret
    app = create_app(Settings(database_url=postgres_url), recalculation=False)
    client = TestClient(app, follow_redirects=False, headers=SAME_SITE)
    assert client.post("/referee/sign-in", data={"token": admin, "next": "/staff/lists"}).status_code == 303
    undated = list_zip_bytes(synthetic_list(2, 5), stamp=None)

    sent = client.post("/staff/lists", files={"file": ("LV-undated.zip", undated, "application/zip")})
    assert sent.status_code == 303
    path = sent.headers["location"]
    import_id = int(path.rsplit("/", 1)[1])
    assert run_list_import(engine_for(postgres_url), import_id) == "refused"
    page = client.get(path)
    assert page.status_code == 200
    [shown] = _details(page.text, "bad")
    assert shown == "Datum der Liste: die Liste trägt kein Datum: das Datum der Liste angeben (--date JJJJ-MM-TT)"
    english = "the list carries no date: give the date of the list (--date YYYY-MM-DD)"
    _no_english(shown, english)

    answer = TestClient(app).get(f"/api/v1/lists/imports/{import_id}", headers={"Authorization": f"Bearer {admin}"})
    assert answer.status_code == 200, answer.text
    assert (answer.json()["status"], answer.json()["error"]) == ("refused", f"list_date: {english}")
    assert "refusal" not in answer.json()
