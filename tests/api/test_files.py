"""The federation's files for club software through the API, on both backends: the rating-list
ZIP and the legacy club CSV agree with the player card and the JSON club list, keep the exact
headers club software compares, encode as asked, and answer conditional GETs.

The headers are written out here on purpose: they are the contract with club software, so a
change to ``zdb.formats.dsb_files`` must fail these tests."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from datetime import date
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event, update

from tests.api.world import CLUBS, MEMBERSHIPS, World
from zdb.db import engine_for, unit_of_work
from zdb.players.models import Player

SPIELER = "ID,VKZ,Mgl-Nr,Status,Spielername,Geschlecht,Spielberechtigung,Geburtsjahr,Letzte-Auswertung,DWZ,Index,FIDE-Elo,FIDE-Titel,FIDE-ID,FIDE-Land"  # noqa: E501
VEREINE = "ZPS,LV,Verband,Vereinname"
VERBAENDE = "Verband,LV,Uebergeordnet,Verbandname"
CLUB_CSV = "id|nachname|vorname|titel|verein|mglnr|status|dwz|dwzindex|turniercode|turnierende|fideid|fideelo|fidetitel"

#: a given name outside Latin-1 (and cp1252), given to player D in this module's world
FOREIGN = ("D", "Čeněk", "Cenek")


@pytest.fixture(scope="module")
def files_world(world: World) -> World:
    pid, given, _ = FOREIGN
    with unit_of_work(engine_for(world.url)) as session:
        session.execute(update(Player).where(Player.pkz == world.pkz[pid]).values(given_name=given))
    return world


def _zip(world: World, **params: Any) -> tuple[Any, dict[str, bytes]]:
    answer = world.client.get("/api/v1/files/rating-list.zip", params=params)
    assert answer.status_code == 200, answer.text
    with zipfile.ZipFile(io.BytesIO(answer.content)) as archive:
        return answer, {name: archive.read(name) for name in archive.namelist()}


def _rows(data: bytes, encoding: str = "utf-8") -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(data.decode(encoding), newline="")))


def _current(club: str | None = None) -> set[tuple[str, str]]:
    return {
        (pid, code)
        for pid, memberships in MEMBERSHIPS.items()
        for code, _, _, until in memberships
        if until is None and (club is None or code == club)
    }


def _week(iso_week: str | None) -> str:
    """``2026-W07`` (the JSON club list) as the files write it: ``202607``."""
    return "" if iso_week is None else iso_week.replace("-W", "")


def test_zip_holds_the_three_files_with_the_exact_headers(files_world: World) -> None:
    answer, files = _zip(files_world)
    assert answer.headers["content-type"] == "application/zip"
    assert answer.headers["content-disposition"] == 'attachment; filename="rating-list.zip"'
    assert list(files) == ["spieler.csv", "vereine.csv", "verbaende.csv"]
    for name, header in (("spieler.csv", SPIELER), ("vereine.csv", VEREINE), ("verbaende.csv", VERBAENDE)):
        text = files[name].decode("utf-8")
        assert text.split("\n", 1)[0] == header, name
        assert "\r" not in text and text.endswith("\n")


def test_spieler_lines_equal_the_player_card_and_the_club_list(files_world: World) -> None:
    world = files_world
    _, files = _zip(world)
    rows = _rows(files["spieler.csv"])
    assert {(world.pid[int(r["ID"])], r["VKZ"]) for r in rows} == _current()
    assert len(rows) == len(_current())
    for club in {code for code, _, _ in CLUBS}:
        listed = {m["pkz"]: m for m in world.get(f"/clubs/{club}/ratings").json()["items"]}
        for row in (r for r in rows if r["VKZ"] == club):
            card = world.get(f"/players/{row['ID']}").json()
            member = listed[int(row["ID"])]
            assert row["DWZ"] == ("" if card["rating"] is None else str(card["rating"]))
            assert row["Index"] == ("" if card["rating_index"] is None else str(card["rating_index"]))
            assert row["Spielername"] == f"{card['surname']},{card['given_name']}"
            assert row["Geburtsjahr"] == ("" if card["birth_year"] is None else str(card["birth_year"]))
            assert row["Mgl-Nr"] == f"{member['member_no']:03d}"
            assert row["Status"] == {"active": "A", "passive": "P"}[member["status"]]
            assert row["Geschlecht"] == {"M": "M", "F": "W"}[card["sex"]]
            assert row["Letzte-Auswertung"] == _week(member["last_evaluation"])
            assert row["FIDE-ID"] == ("" if card["fide_id"] is None else str(card["fide_id"]))
            assert re.fullmatch(r"(\d{6})?", row["Letzte-Auswertung"])
    assert any(r["Letzte-Auswertung"] for r in rows) and any(r["DWZ"] for r in rows)


def test_files_never_carry_birth_dates(files_world: World) -> None:
    _, files = _zip(files_world)
    club = files_world.client.get("/api/v1/clubs/C0327/members.csv").content
    for data in (*files.values(), club):
        assert b"-05-17" not in data and b"17.05." not in data  # the world's birth dates


def test_clubs_and_federations(files_world: World) -> None:
    _, files = _zip(files_world)
    clubs = _rows(files["vereine.csv"])
    assert [(c["ZPS"], c["LV"], c["Verband"], c["Vereinname"]) for c in clubs] == [
        (code, code[0], federation.ljust(3, "0"), name) for code, name, federation in sorted(CLUBS)
    ]
    federations = [(f["Verband"], f["LV"], f["Uebergeordnet"]) for f in _rows(files["verbaende.csv"])]
    assert federations == [("C00", "C", "000"), ("C01", "C", "C00"), ("C03", "C", "C00"), ("D00", "D", "000")]


def test_a_federation_subtree(files_world: World) -> None:
    answer, files = _zip(files_world, federation="C")
    assert answer.headers["content-disposition"] == 'attachment; filename="rating-list-C.zip"'
    rows = _rows(files["spieler.csv"])
    assert {(files_world.pid[int(r["ID"])], r["VKZ"]) for r in rows} == {
        (pid, code) for pid, code in _current() if code.startswith("C")
    }
    assert [c["ZPS"] for c in _rows(files["vereine.csv"])] == ["C0101", "C0327"]
    assert [f["Verband"] for f in _rows(files["verbaende.csv"])] == ["C00", "C01", "C03"]
    missing = files_world.get("/files/rating-list.zip", federation="X")
    assert missing.status_code == 404 and missing.headers["content-type"] == "application/problem+json"


@pytest.mark.parametrize("encoding", ["latin-1", "iso-8859-1", "cp1252", "windows-1252"])
def test_legacy_encodings_keep_umlauts_and_transliterate_the_rest(files_world: World, encoding: str) -> None:
    pid, foreign, plain = FOREIGN
    answer, files = _zip(files_world, encoding=encoding)
    data = files["spieler.csv"]
    assert "Müller,Anna".encode("latin-1") in data and b"M\xfcller,Anna" in data
    rows = _rows(data, "cp1252" if "1252" in encoding else "latin-1")
    names = {files_world.pid[int(r["ID"])]: r["Spielername"] for r in rows}
    assert names["A"] == "Müller,Anna" and names["E"] == "Weiß,Erik" and names["F"] == "Öztürk,Fatma"
    assert names[pid] == f"Schmidt,{plain}" and foreign not in data.decode("latin-1")
    assert answer.headers["x-transliterated-characters"] == "2"  # Č and ě


def test_utf8_round_trips_every_name(files_world: World) -> None:
    pid, foreign, _ = FOREIGN
    answer, files = _zip(files_world)
    assert not files["spieler.csv"].startswith(b"\xef\xbb\xbf")  # no byte-order mark before the header
    names = {files_world.pid[int(r["ID"])]: r["Spielername"] for r in _rows(files["spieler.csv"])}
    assert names["A"] == "Müller,Anna" and names[pid] == f"Schmidt,{foreign}"
    assert answer.headers["x-transliterated-characters"] == "0"
    club = files_world.client.get("/api/v1/clubs/D0001/members.csv")
    assert f"|Schmidt|{foreign}|".encode() in club.content
    legacy = files_world.client.get("/api/v1/clubs/D0001/members.csv", params={"encoding": "latin-1"})
    assert legacy.headers["content-type"] == "text/csv; charset=iso-8859-1; header=present"
    assert b"|Schmidt|Cenek|" in legacy.content and "|Öztürk|Fatma|".encode("latin-1") in legacy.content


def test_an_unknown_encoding_is_a_problem(files_world: World) -> None:
    answer = files_world.get("/files/rating-list.zip", encoding="ebcdic")
    assert answer.status_code == 422
    assert [e["place"] for e in answer.json()["errors"]] == ["query.encoding"]


def test_club_csv_has_one_line_per_current_member(files_world: World) -> None:
    world = files_world
    answer = world.client.get("/api/v1/clubs/C0327/members.csv")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "text/csv; charset=utf-8; header=present"
    assert answer.headers["content-disposition"] == 'attachment; filename="C0327-members.csv"'
    text = answer.content.decode("utf-8")
    assert text.endswith("\r\n") and "\n" not in text.replace("\r\n", "")
    header, *lines = text.removesuffix("\r\n").split("\r\n")
    assert header == CLUB_CSV
    fields = [line.split("|") for line in lines]
    assert all(len(f) == 14 for f in fields)
    assert [world.pid[int(f[0])] for f in fields] == ["A", "B", "E", "H"]  # by membership number
    listed = {m["pkz"]: m for m in world.get("/clubs/C0327/ratings").json()["items"]}
    for f in fields:
        member, card = listed[int(f[0])], world.get(f"/players/{f[0]}").json()
        assert (f[1], f[2], f[4], f[5]) == (card["surname"], card["given_name"], "C0327", f"{member['member_no']:03d}")
        assert f[6] == {"active": "A", "passive": "P"}[member["status"]]
        assert f[7] == ("" if card["rating"] is None else str(card["rating"]))
        assert f[8] == ("" if card["rating_index"] is None else str(card["rating_index"]))
        end = member["last_evaluation_end_date"]
        assert f[10] == ("" if end is None else end)
        assert (f[9] == "") == (end is None)
        if end is not None:
            tournament = world.get(f"/tournaments/{f[9]}").json()
            assert date.fromisoformat(tournament["end_date"]) == date.fromisoformat(end)
    # H's ended membership in D0001 is not a line of that club
    d0001 = world.client.get("/api/v1/clubs/D0001/members.csv").content.decode()
    assert {world.pid[int(line.split("|")[0])] for line in d0001.split("\r\n")[1:-1]} == {"D", "F"}
    assert world.get("/clubs/Z9999/members.csv").status_code == 404


@pytest.mark.parametrize("path", ["/files/rating-list.zip", "/clubs/C0327/members.csv"])
def test_conditional_get_on_the_files(files_world: World, path: str) -> None:
    client = files_world.client
    first = client.get(f"/api/v1{path}")
    tag = first.headers["etag"]
    assert first.headers["last-modified"] and first.headers["cache-control"].startswith("public, max-age=")
    assert client.get(f"/api/v1{path}").content == first.content  # equal data, equal bytes
    again = client.get(f"/api/v1{path}", headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == tag
    assert client.get(f"/api/v1{path}", headers={"If-None-Match": '"other"'}).status_code == 200
    legacy = client.get(f"/api/v1{path}", params={"encoding": "latin-1"}, headers={"If-None-Match": tag})
    assert legacy.status_code == 200 and legacy.headers["etag"] != tag


def test_json_description_instead_of_the_file(files_world: World) -> None:
    client = files_world.client
    file = client.get("/api/v1/clubs/C0327/members.csv")
    described = client.get("/api/v1/clubs/C0327/members.csv", headers={"Accept": "application/json"})
    assert described.headers["content-type"] == "application/json"
    assert described.json() == {
        "filename": "C0327-members.csv",
        "media_type": "text/csv; charset=utf-8; header=present",
        "size": len(file.content),
        "etag": file.headers["etag"],
        "lines": {"C0327-members.csv": 4},
        "transliterated_characters": 0,
    }
    whole = client.get("/api/v1/files/rating-list.zip", headers={"Accept": "application/json"}).json()
    assert whole["lines"] == {"spieler.csv": len(_current()), "vereine.csv": len(CLUBS), "verbaende.csv": 4}


def test_openapi_documents_the_files(files_world: World) -> None:
    paths = files_world.client.get("/api/v1/openapi.json").json()["paths"]
    for path, media_type in (
        ("/api/v1/files/rating-list.zip", "application/zip"),
        ("/api/v1/clubs/{code}/members.csv", "text/csv"),
    ):
        responses = paths[path]["get"]["responses"]
        assert responses["200"]["content"][media_type]["schema"] == {"type": "string", "format": "binary"}
        assert {"304", "404", "422"} <= set(responses)
        parameters = {p["name"] for p in paths[path]["get"]["parameters"]}
        assert "encoding" in parameters


def test_an_empty_database_gives_the_headers_only(client: TestClient) -> None:
    answer = client.get("/api/v1/files/rating-list.zip")
    assert answer.status_code == 200
    with zipfile.ZipFile(io.BytesIO(answer.content)) as archive:
        assert [archive.read(n).decode() for n in archive.namelist()] == [
            f"{SPIELER}\n",
            f"{VEREINE}\n",
            f"{VERBAENDE}\n",
        ]


def test_the_number_of_queries_does_not_grow_with_the_members(files_world: World) -> None:
    engine = engine_for(files_world.url)
    statements: list[str] = []

    def count(*args: Any) -> None:
        statements.append(args[2])

    event.listen(engine, "before_cursor_execute", count)
    try:
        counts = {}
        for path in (
            "/clubs/C0101/members.csv",
            "/clubs/C0327/members.csv",
            "/files/rating-list.zip?federation=D",
            "/files/rating-list.zip?federation=C",
        ):
            statements.clear()
            assert files_world.client.get(f"/api/v1{path}").status_code == 200
            counts[path] = len([s for s in statements if s.lstrip().upper().startswith(("SELECT", "WITH"))])
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert counts["/clubs/C0101/members.csv"] == counts["/clubs/C0327/members.csv"]  # 1 member, 4 members
    assert counts["/files/rating-list.zip?federation=D"] == counts["/files/rating-list.zip?federation=C"]  # 2, 5
