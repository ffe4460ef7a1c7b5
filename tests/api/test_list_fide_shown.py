"""FIDE's data and a list's last evaluation where they are promised: the player card, the
club's members file and the rating-list ZIP's spieler.csv."""

from __future__ import annotations

import csv
import io
import zipfile
from dataclasses import replace
from datetime import date

from fastapi.testclient import TestClient
from sqlalchemy import select

from zdb.db import engine_for, unit_of_work
from zdb.formats.fide_list import FidePlayer, FideRating
from zdb.formats.list_model import YearWeek
from zdb.lists.fide_import import import_fide_list
from zdb.lists.service import import_rating_list
from zdb.players.models import Player
from zdb.synthetic.fide_lists import write_fide_txt
from zdb.synthetic.rating_lists import list_zip_bytes, synthetic_list


def test_fide_data_and_the_lists_last_evaluation_are_shown(client: TestClient, database_url: str) -> None:
    data = synthetic_list(4, 30)
    member = next(m for m in data.members if m.status == "active" and m.member_no is not None)
    member = replace(member, fide_id=4_612_345, last_evaluation=YearWeek(2025, 7))
    data = replace(data, members=tuple(member if m.person_id == member.person_id else m for m in data.members))
    text = io.BytesIO()
    fide = FidePlayer(
        4_612_345,
        "Someone, Else",
        "GER",
        "M",
        "FM",
        None,
        (),
        None,
        FideRating(2222, 4, 20),
        FideRating(2111),
        FideRating(None),
        1990,
        "",
    )
    write_fide_txt([fide], text)
    with unit_of_work(engine_for(database_url)) as session:
        import_rating_list(session, list_zip_bytes(data), file="liste.zip", list_date=date(2026, 10, 31))
        import_fide_list(
            session, text.getvalue().splitlines(keepends=True), file="players_list_foa.txt", edition=date(2026, 11, 1)
        )
        pkz = session.execute(select(Player.pkz).where(Player.external_id == member.person_id)).scalar_one()

    card = client.get(f"/api/v1/players/{pkz}").json()
    assert card["fide"] == {
        "edition": "2026-11-01",
        "standard": 2222,
        "rapid": 2111,
        "blitz": None,
        "title": "FM",
        "women_title": None,
    }
    assert card["list_entry"] == {"epoch": "2026-10-31", "last_evaluation": "202507"}
    page = client.get(f"/players/{pkz}", headers={"Accept-Language": "de"}).text
    assert "2222 (FM)" in page and "Woche 7/2025" in page

    members = client.get(f"/api/v1/clubs/{member.club_code}/members.csv").text
    line = next(row for row in members.splitlines() if row.startswith(f"{pkz}|"))
    assert line.split("|")[-4:] == ["2025-02-10", "4612345", "2222", "FM"]  # Monday of week 7, FIDE id, Elo, title

    archive = zipfile.ZipFile(io.BytesIO(client.get("/api/v1/files/rating-list.zip").content))
    spieler = archive.read("spieler.csv").decode()
    assert any("4612345" in row and "2222" in row and "202507" in row for row in spieler.splitlines())

    portal = client.get("/api/v1/files/rating-list.zip", params={"layout": "portal"}).content
    lines = zipfile.ZipFile(io.BytesIO(portal)).read("spieler.csv").decode("cp1252")
    row = next(r for r in csv.DictReader(io.StringIO(lines, newline="")) if r["ID"] == member.person_id)
    fide_columns = ("FIDE-Elozahl", "FIDE-Titel", "FIDE-ID", "FIDE-Frauentitel", "FIDE-Elozahl-Schnellschach")
    assert [row[c] for c in fide_columns] == ["2222", "FM", "4612345", "", "2111"]
    assert (row["FIDE-Elozahl-Blitz"], row["Letzte Auswertung"]) == ("", "202507")
