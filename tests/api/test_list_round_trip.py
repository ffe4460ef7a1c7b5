"""The rating-list ZIP through the database: export, import into an empty database, export again
gives the same bytes, in every layout and encoding the ZIP endpoint writes (DeWIS and the
portal's 2026 layout).

The first database is filled from a small generated list (PostgreSQL), the second is an empty
embedded one (SQLite), so the round trip crosses both backends; both evaluate the list's
starting states before they export, so DWZ and index are written too. The three files are compared
byte for byte; the ZIP around them is stamped with each database's last change (the import's
moment, different in the two databases by design), so the ZIPs are compared with that stamp
aside: same entries, same order, same bytes.
"""

from __future__ import annotations

import csv
import io
import zipfile
from datetime import date

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from tests.db.scenario import recalc
from zdb.app import create_app
from zdb.config import Settings
from zdb.db import engine_for, unit_of_work
from zdb.lists.difference import Difference
from zdb.lists.service import import_rating_list
from zdb.players.models import Membership, Player
from zdb.players.service import NewPlayer, create_players
from zdb.synthetic.rating_lists import list_zip_bytes, synthetic_list

LIST_DATE = date(2026, 11, 30)

#: the header of the portal's 2026 spieler.csv as published (issue 18), 21 columns
PORTAL_HEADER = (
    b'ID,ZPS,Mitgliedsnummer,Status,"Name,Vorname",Geschlecht,Spielberechtigung,Geburtsjahr,'
    b'"Letzte Auswertung",DWZ,Index,FIDE-Elozahl,FIDE-Titel,FIDE-ID,FIDE-Land,FIDE-Frauentitel,'
    b"FIDE-Elozahl-Schnellschach,FIDE-Elozahl-Blitz,Vorname,Nachname,Titel\r\n"
)
#: what the database keeps of a line (the rest is written empty, or comes from FIDE's editions)
KEPT = (
    "ID",
    "ZPS",
    "Mitgliedsnummer",
    "Status",
    "Name,Vorname",
    "Geschlecht",
    "Geburtsjahr",
    "Letzte Auswertung",
    "DWZ",
    "Index",
    "FIDE-ID",
    "FIDE-Land",
    "Vorname",
    "Nachname",
)


def _import(url: str, data: bytes, *, dry_run: bool = False) -> Difference:
    with unit_of_work(engine_for(url)) as session:
        answer = import_rating_list(session, data, file="LV-0-csv.zip", list_date=LIST_DATE, dry_run=dry_run)
    assert answer.problems == [], answer.problems
    if not dry_run:
        recalc(url)  # the starting states become the ratings the files write
    return answer


def _export(url: str, **query: str) -> bytes:
    client = TestClient(create_app(Settings(database_url=url), recalculation=False))
    answer = client.get("/api/v1/files/rating-list.zip", params=query)
    assert answer.status_code == 200, answer.text
    return answer.content


def _files(data: bytes) -> list[tuple[str, bytes]]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return [(info.filename, archive.read(info)) for info in archive.infolist()]


@pytest.fixture(scope="module")
def generated() -> bytes:
    # people with an active and a passive membership, names outside Windows-1252, unrated
    # players, missing birth years and member numbers: the quirks of a real list, made up
    return list_zip_bytes(synthetic_list(18, 60))


@pytest.mark.parametrize(
    "query",
    [
        {"encoding": "utf-8"},
        {"encoding": "cp1252"},
        {"encoding": "latin-1"},
        {"layout": "portal"},
        {"layout": "portal", "encoding": "utf-8"},
    ],
    ids=lambda query: "-".join(query.values()),
)
def test_export_import_export_gives_the_same_bytes(
    generated: bytes, postgres_url: str, sqlite_url: str, query: dict[str, str]
) -> None:
    _import(postgres_url, generated)
    first = _export(postgres_url, **query)

    _import(sqlite_url, first)
    second = _export(sqlite_url, **query)

    first_files, second_files = _files(first), _files(second)
    assert [name for name, _ in first_files] == ["spieler.csv", "vereine.csv", "verbaende.csv"]
    assert first_files[0][1].count(b"\n") > 40  # the list arrived, not only the headers
    for (name, before), (_, after) in zip(first_files, second_files, strict=True):
        assert after == before, name


def _portal_rows(data: bytes) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(data.decode("cp1252"), newline="")))


def test_the_portal_layout_writes_what_the_portal_list_brought(generated: bytes, postgres_url: str) -> None:
    _import(postgres_url, generated)
    exported = dict(_files(_export(postgres_url, layout="portal")))
    given = dict(_files(generated))

    assert exported["spieler.csv"].startswith(PORTAL_HEADER)
    assert exported["spieler.csv"].endswith(b"\r\n") and b"\n" not in exported["spieler.csv"].replace(b"\r\n", b"")
    rows = _portal_rows(exported["spieler.csv"])
    assert all(len(row) == 21 and None not in row for row in rows)
    expected = _portal_rows(given["spieler.csv"])
    assert len(rows) == len(expected) > 40
    key = lambda row: (row["ID"], row["ZPS"])  # noqa: E731
    assert sorted([{k: r[k] for k in KEPT} for r in rows], key=key) == sorted(
        [{k: r[k] for k in KEPT} for r in expected], key=key
    )
    assert any(r["DWZ"] for r in rows) and all(r["ID"].startswith("NU") for r in rows)
    assert [(r["ZPS"], r["Mitgliedsnummer"] or "~") for r in rows] == sorted(
        (r["ZPS"], r["Mitgliedsnummer"] or "~") for r in rows
    )
    # the clubs with the federations among them, as the portal lists them
    assert exported["vereine.csv"] == given["vereine.csv"]
    # the federations once each: the generated list repeats a district number
    lines = given["verbaende.csv"].split(b"\r\n")
    assert exported["verbaende.csv"].split(b"\r\n") == list(dict.fromkeys(lines))


def test_a_person_without_a_portal_id_is_written_with_his_number_and_found_again(
    generated: bytes, postgres_url: str, sqlite_url: str
) -> None:
    _import(postgres_url, generated)
    club = _portal_rows(dict(_files(generated))["spieler.csv"])[0]["ZPS"]
    with unit_of_work(engine_for(postgres_url)) as session:  # as a tournament file creates him
        (pkz,) = create_players(session, [NewPlayer(surname="Neumann", given_name="Ida", birth_year=2012, sex="F")])
        session.add(Membership(player_pkz=pkz, club_code=club, member_no=901, status="active", valid_from=LIST_DATE))
    first = _export(postgres_url, layout="portal")
    line = f'{pkz},{club},901,A,"Neumann,Ida",W,,2012,,,,,,,,,,,Ida,Neumann,\r\n'.encode("cp1252")
    assert line in dict(_files(first))["spieler.csv"]

    again = _import(postgres_url, first, dry_run=True)  # the same database: nobody is new, nobody left
    assert {kind: again.counts[kind] for kind in ("people_new", "people_linked", "people_changed")} == dict.fromkeys(
        ("people_new", "people_linked", "people_changed"), 0
    )
    assert again.counts["memberships_new"] == again.counts["memberships_ended"] == 0

    _import(sqlite_url, first)  # an empty database gives him his number
    with unit_of_work(engine_for(sqlite_url)) as session:
        assert session.execute(select(Player.surname).where(Player.pkz == pkz)).scalar_one() == "Neumann"
    for (name, before), (_, after) in zip(_files(first), _files(_export(sqlite_url, layout="portal")), strict=True):
        assert after == before, name
    again = _import(sqlite_url, first, dry_run=True)
    assert again.counts["people_new"] == again.counts["memberships_new"] == 0


def test_the_dewis_file_zdb_wrote_finds_everyone_again(generated: bytes, postgres_url: str) -> None:
    """People who came with the portal's ``NU…`` ids are written in the DeWIS layout with their
    person numbers: taken in again, each number finds its own person (same name), nobody new."""
    _import(postgres_url, generated)
    dewis = _export(postgres_url, encoding="utf-8")
    assert dict(_files(dewis))["spieler.csv"].startswith(b"ID,VKZ,")
    again = _import(postgres_url, dewis, dry_run=True)
    counts = {kind: again.counts[kind] for kind in ("people_new", "people_linked", "memberships_new")}
    assert counts == {"people_new": 0, "people_linked": 0, "memberships_new": 0}
    assert again.counts["memberships_ended"] == 0 and again.counts["people_unchanged"] > 40


def test_a_dewis_number_that_describes_someone_else_finds_nobody(generated: bytes, postgres_url: str) -> None:
    _import(postgres_url, generated)
    files = dict(_files(_export(postgres_url, encoding="utf-8")))
    header, first, *rest = files["spieler.csv"].decode().split("\n")  # DeWIS lines end in LF
    columns = next(csv.reader([header]))
    values = next(csv.reader([first]))
    values[columns.index("Spielername")] = "Anders,Jemand"
    values[columns.index("FIDE-ID")] = ""  # another person: not the FIDE id of the stored one
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerow(values)
    files["spieler.csv"] = "\n".join([header, text.getvalue().removesuffix("\n"), *rest]).encode()
    changed = io.BytesIO()
    with zipfile.ZipFile(changed, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    with unit_of_work(engine_for(postgres_url)) as session:
        again = import_rating_list(session, changed.getvalue(), file="LV-0-csv.zip", list_date=LIST_DATE, dry_run=True)
    assert again.counts["people_new"] == 1 and again.counts["people_unchanged"] > 40
