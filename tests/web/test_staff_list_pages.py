"""The staff's rating-list page without a browser: an admin uploads a list, sees in German what
it would change (nothing stored), applies exactly that file, and sees what it changed."""

from __future__ import annotations

import re
from dataclasses import replace

from fastapi.testclient import TestClient
from sqlalchemy import func, select

from tests.db.list_lines import with_lagging_lines
from tests.web.html_text import text_of
from tests.web.same_site import SAME_SITE
from zdb.app import create_app
from zdb.auth.service import create_token
from zdb.config import Settings
from zdb.db import engine_for, unit_of_work
from zdb.lists.models import ListImport
from zdb.lists.runner import run_list_import
from zdb.lists.sync_plan import Facts, _changed_fields
from zdb.messages import Message
from zdb.players.models import Membership, Player
from zdb.synthetic.rating_lists import list_zip_bytes, synthetic_list
from zdb.web.i18n import translations


def _players(url: str) -> int:
    with unit_of_work(engine_for(url)) as session:
        return int(session.execute(select(func.count()).select_from(Player)).scalar_one())


def test_the_difference_is_shown_before_the_list_is_applied(postgres_url: str) -> None:
    with unit_of_work(engine_for(postgres_url)) as session:
        admin = create_token(session, "admin", label="staff").secret
    app = create_app(Settings(database_url=postgres_url), recalculation=False)
    client = TestClient(app, follow_redirects=False, headers=SAME_SITE)
    assert client.post("/referee/sign-in", data={"token": admin, "next": "/staff/lists"}).status_code == 303
    data = synthetic_list(2, 30)
    people = len({m.person_id for m in data.members})

    sent = client.post(
        "/staff/lists",
        files={"file": ("LV-0-csv.zip", list_zip_bytes(data), "application/zip")},
        data={"list_date": "2026-11-30"},
    )
    assert sent.status_code == 303
    shown_path = sent.headers["location"]
    run_list_import(engine_for(postgres_url), int(shown_path.rsplit("/", 1)[1]))
    page = text_of(client.get(shown_path).text)
    assert "Was die Liste ändern würde" in page and f"neue Personen {people}" in page
    assert "Diese Liste übernehmen" in page and _players(postgres_url) == 0

    applied = client.post(f"{shown_path}/apply")
    assert applied.status_code == 303
    applied_path = applied.headers["location"]
    run_list_import(engine_for(postgres_url), int(applied_path.rsplit("/", 1)[1]))
    page = text_of(client.get(applied_path).text)
    assert "Was die Liste geändert hat" in page and f"neue Personen {people}" in page
    assert _players(postgres_url) == people
    assert "Diese Liste übernehmen" not in text_of(client.get(shown_path).text)  # its file was taken
    listing = text_of(client.get("/staff/lists").text)
    assert listing.count("LV-0-csv.zip") == 2


def test_the_page_is_for_admins(postgres_url: str) -> None:
    app = create_app(Settings(database_url=postgres_url), recalculation=False)
    client = TestClient(app, follow_redirects=False, headers=SAME_SITE)
    assert client.get("/staff/lists").headers["location"].startswith("/referee/sign-in")


def test_the_page_counts_the_lines_stored_left_out_and_the_warnings(postgres_url: str) -> None:
    with unit_of_work(engine_for(postgres_url)) as session:
        admin = create_token(session, "admin", label="staff").secret
    client = TestClient(
        create_app(Settings(database_url=postgres_url), recalculation=False), follow_redirects=False, headers=SAME_SITE
    )
    assert client.post("/referee/sign-in", data={"token": admin, "next": "/staff/lists"}).status_code == 303
    data, _, lagging, _ = with_lagging_lines(synthetic_list(2, 120))
    broken = replace(data.members[0], person_id="NU999999", club_code="X9999")
    sent = client.post(
        "/staff/lists",
        files={
            "file": ("LV-0-csv.zip", list_zip_bytes(replace(data, members=(*data.members, broken))), "application/zip")
        },
        data={"list_date": "2026-11-30", "apply": "on", "skip_problems": "on"},
    )
    path = sent.headers["location"]
    assert run_list_import(engine_for(postgres_url), int(path.rsplit("/", 1)[1])) == "done"
    page = text_of(client.get(path).text)
    with unit_of_work(engine_for(postgres_url)) as session:
        stored = session.execute(select(func.count()).select_from(Membership)).scalar_one()
    assert stored == len(data.members)
    assert f"Gespeicherte Zeilen: {stored} · ausgelassen: 1 · Hinweise: 3" in page
    assert "Hinweise (3)" in page and f"Letzte Auswertung: {lagging.person_id}" in page


def test_a_lists_many_problems_are_paged_and_counted_in_german(postgres_url: str) -> None:
    problems = [f"spieler.csv line {n}: the club 99999 is not known" for n in range(2, 1202)]
    with unit_of_work(engine_for(postgres_url)) as session:
        admin = create_token(session, "admin", label="staff").secret
        record = ListImport(
            kind="list", file_name="broken.zip", status="done", dry_run=True, result={"problems": problems}
        )
        session.add(record)
        session.flush()
        import_id = record.id
    client = TestClient(
        create_app(Settings(database_url=postgres_url), recalculation=False), follow_redirects=False, headers=SAME_SITE
    )
    assert client.post("/referee/sign-in", data={"token": admin, "next": "/staff/lists"}).status_code == 303
    first = client.get(f"/staff/lists/{import_id}")
    shown = re.findall(r"<li>spieler.csv line (\d+):", first.text)
    assert shown == [str(n) for n in range(2, 52)]  # 50 to a page, not all 1,200
    assert "Probleme (1.200)" in text_of(first.text) and "Probleme 1 bis 50 von 1.200" in text_of(first.text)
    last = client.get(f"/staff/lists/{import_id}", params={"page": 24})
    assert re.findall(r"<li>spieler.csv line (\d+):", last.text)[-1] == "1201"


def test_a_lists_problems_warnings_and_first_lines_are_shown_in_german(postgres_url: str) -> None:
    with unit_of_work(engine_for(postgres_url)) as session:
        admin = create_token(session, "admin", label="staff").secret
    client = TestClient(
        create_app(Settings(database_url=postgres_url), recalculation=False), follow_redirects=False, headers=SAME_SITE
    )
    assert client.post("/referee/sign-in", data={"token": admin, "next": "/staff/lists"}).status_code == 303
    data, active, lagging, _ = with_lagging_lines(synthetic_list(2, 120))
    unknown_club = replace(data.members[0], person_id="NU999998", club_code="X9999")
    bad_year = replace(data.members[1], person_id="NU999999", birth_year=1700)
    members = (*data.members, unknown_club, bad_year)
    sent = client.post(
        "/staff/lists",
        files={"file": ("LV-0-csv.zip", list_zip_bytes(replace(data, members=members)), "application/zip")},
        data={"list_date": "2026-11-30"},
    )
    path = sent.headers["location"]
    assert run_list_import(engine_for(postgres_url), int(path.rsplit("/", 1)[1])) == "done"
    # the header line is line 1, so the two added members are on the last two lines
    club_line, year_line = len(data.members) + 2, len(data.members) + 3
    page = client.get(path)
    assert re.findall(r"<li>([^<]*)</li>", page.text.split('data-testid="problems"')[1].split("</ul>")[0]) == [
        f"spieler.csv, Zeile {year_line}, Spalte Geburtsjahr: Kein Geburtsjahr: &#39;1700&#39;",
        f"spieler.csv, Zeile {club_line}: Der Verein X9999 ist nicht bekannt",
    ]
    difference = text_of(page.text.split('data-testid="difference"')[1].split("</table>")[0])
    first = data.members[0]
    assert f"Zeile 2: neu in {first.club_code} ({'aktiv' if first.status == 'active' else 'passiv'})" in difference
    assert f"Zeile 2: {first.person_id} {first.surname}, {first.given_name}" in difference
    assert not re.search(r"\bline \d", difference)
    warnings = text_of(page.text.split('data-testid="warnings"')[1].split("</ul>")[0])
    lagging_line, active_line = members.index(lagging) + 2, members.index(active) + 2
    assert (
        f"spieler.csv, Zeile {lagging_line}, Spalte Letzte Auswertung: {lagging.person_id} "
        f"{lagging.surname}, {lagging.given_name}: hier '202412', aber '202540' in Zeile {active_line} "
        "(seine aktive Mitgliedschaft), die maßgeblich ist"
    ) in warnings
    # the API answers the same problems in English, as before
    answer = client.get(f"/api/v1/lists/imports/{path.rsplit('/', 1)[1]}", headers={"Authorization": f"Bearer {admin}"})
    assert answer.json()["result"]["problems"] == [
        f"spieler.csv:{year_line}: Geburtsjahr: not a birth year: '1700'",
        f"spieler.csv:{club_line}: the club X9999 is not known",
    ]


def test_a_corrections_first_line_names_the_facts_in_the_pages_language() -> None:
    before = Facts("Maier", "Hans", None, 1970, None, "GER", False)
    after = Facts("Meier", "Hans", "M", 1970, None, "GER", False)
    changed = Message.from_json(
        Message("line {line}: {pkz} {changes}", line=7, pkz=1001, changes=_changed_fields(after, before)).as_json()
    )
    assert str(changed) == "line 7: 1001 surname 'Maier' → 'Meier', sex None → 'M'"  # the API's line, as before
    assert (
        changed.translated(translations("de").gettext)
        == "Zeile 7: 1001 Nachname 'Maier' → 'Meier', Geschlecht None → 'M'"
    )
