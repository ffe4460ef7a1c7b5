"""The rating-list ZIP in the DSB portal's 2026 layout (``layout=portal``), on both backends: the
published headers byte for byte, Windows-1252 and CRLF, one line per current membership with the
same values as the DeWIS layout, the federations among the clubs, ``at=`` and ``edition=`` as
for the DeWIS layout, and a refused unknown layout.

The headers are written out here on purpose (from the issue that publishes them): they are the
contract with software made for the portal's export."""

from __future__ import annotations

import csv
import io
import zipfile
from typing import Any

import pytest

from tests.api.world import CLUBS, MEMBERSHIPS, REPLAY, World

SPIELER = (
    'ID,ZPS,Mitgliedsnummer,Status,"Name,Vorname",Geschlecht,Spielberechtigung,Geburtsjahr,"Letzte Auswertung",'
    "DWZ,Index,FIDE-Elozahl,FIDE-Titel,FIDE-ID,FIDE-Land,FIDE-Frauentitel,FIDE-Elozahl-Schnellschach,"
    "FIDE-Elozahl-Blitz,Vorname,Nachname,Titel"
)
VEREINE = "ZPS-Nummer,Landesverband,UebergeordneterVerband,Vereinsname"
VERBAENDE = "Verbandnummer,Landesverband,UebergeordneterVerband,Verbandname"
#: portal column -> DeWIS column, for the values both layouts carry
SHARED = {
    "ZPS": "VKZ",
    "Mitgliedsnummer": "Mgl-Nr",
    "Status": "Status",
    "Name,Vorname": "Spielername",
    "Geschlecht": "Geschlecht",
    "Spielberechtigung": "Spielberechtigung",
    "Geburtsjahr": "Geburtsjahr",
    "Letzte Auswertung": "Letzte-Auswertung",
    "DWZ": "DWZ",
    "Index": "Index",
    "FIDE-Elozahl": "FIDE-Elo",
    "FIDE-Titel": "FIDE-Titel",
    "FIDE-ID": "FIDE-ID",
    "FIDE-Land": "FIDE-Land",
}
FINAL = REPLAY["expected"]["final_states"]


def _zip(world: World, **params: Any) -> tuple[Any, dict[str, bytes]]:
    answer = world.client.get("/api/v1/files/rating-list.zip", params=params)
    assert answer.status_code == 200, answer.text
    with zipfile.ZipFile(io.BytesIO(answer.content)) as archive:
        return answer, {name: archive.read(name) for name in archive.namelist()}


def _rows(data: bytes, encoding: str = "cp1252") -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(data.decode(encoding), newline="")))


def _current() -> set[tuple[str, str]]:
    return {(pid, code) for pid, held in MEMBERSHIPS.items() for code, _, _, until in held if until is None}


def test_the_three_files_carry_the_published_headers_in_windows_1252_with_crlf(world: World) -> None:
    answer, files = _zip(world, layout="portal")
    assert answer.headers["content-disposition"] == 'attachment; filename="rating-list-portal.zip"'
    assert list(files) == ["spieler.csv", "vereine.csv", "verbaende.csv"]
    for name, header in (("spieler.csv", SPIELER), ("vereine.csv", VEREINE), ("verbaende.csv", VERBAENDE)):
        data = files[name]
        assert data.startswith(header.encode("cp1252") + b"\r\n"), name
        assert b"\n" not in data.replace(b"\r\n", b""), name
    assert "Müller,Anna".encode("cp1252") in files["spieler.csv"]  # Windows-1252, not UTF-8
    assert all(len(row) == 21 for row in csv.reader(io.StringIO(files["spieler.csv"].decode("cp1252"))))


def test_lines_carry_the_external_id_and_the_values_of_the_dewis_layout(world: World) -> None:
    _, portal = _zip(world, layout="portal")
    _, dewis = _zip(world, encoding="cp1252")
    rows = _rows(portal["spieler.csv"])
    # the world's people came in with the ids of the replay file: those are their external ids
    assert {(r["ID"], r["ZPS"]) for r in rows} == _current() and len(rows) == len(_current())
    by_membership = {(world.pid[int(r["ID"])], r["VKZ"]): r for r in _rows(dewis["spieler.csv"])}
    for row in rows:
        other = by_membership[(row["ID"], row["ZPS"])]
        assert {p: row[p] for p in SHARED} == {p: other[d] for p, d in SHARED.items()}
        assert f"{row['Nachname']},{row['Vorname']}" == row["Name,Vorname"]
        assert row["Titel"] == row["FIDE-Frauentitel"] == ""
    assert any(r["DWZ"] for r in rows) and any(r["FIDE-ID"] for r in rows)
    assert [(r["ZPS"], r["Mitgliedsnummer"]) for r in rows] == sorted((r["ZPS"], r["Mitgliedsnummer"]) for r in rows)


def test_the_clubs_list_the_federations_as_the_portal_does(world: World) -> None:
    _, files = _zip(world, layout="portal")
    clubs = [tuple(row.values()) for row in _rows(files["vereine.csv"])]
    federation_lines = [
        ("C0000", "C", "000", "Region C"),
        ("C0100", "C", "C00", "Bezirk C01"),
        ("C0300", "C", "C00", "Bezirk C03"),
        ("D0000", "D", "000", "Region D"),
    ]
    club_lines = [(code, code[0], federation.ljust(3, "0"), name) for code, name, federation in CLUBS]
    assert clubs == sorted(federation_lines + club_lines)
    assert b'"SK Musterstadt 1920"' in files["vereine.csv"]  # the portal quotes a value with a space
    federations = [tuple(row.values()) for row in _rows(files["verbaende.csv"])]
    assert federations == [
        ("000", "0", "", "Deutscher Schachbund"),
        ("C00", "C", "000", "Region C"),
        ("C01", "C", "C00", "Bezirk C01"),
        ("C03", "C", "C00", "Bezirk C03"),
        ("D00", "D", "000", "Region D"),
    ]
    described = world.client.get(
        "/api/v1/files/rating-list.zip", params={"layout": "portal"}, headers={"Accept": "application/json"}
    ).json()
    assert described["lines"] == {"spieler.csv": len(_current()), "vereine.csv": 7, "verbaende.csv": 5}


def test_a_federation_subtree(world: World) -> None:
    answer, files = _zip(world, layout="portal", federation="C")
    assert answer.headers["content-disposition"] == 'attachment; filename="rating-list-C-portal.zip"'
    assert {r["ZPS"] for r in _rows(files["spieler.csv"])} == {"C0101", "C0327"}
    assert [c["ZPS-Nummer"] for c in _rows(files["vereine.csv"])] == ["C0000", "C0100", "C0101", "C0300", "C0327"]
    assert [f["Verbandnummer"] for f in _rows(files["verbaende.csv"])] == ["C00", "C01", "C03"]


def _ratings(files: dict[str, bytes], id_column: str = "ID") -> dict[str, tuple[int, int]]:
    return {r[id_column]: (int(r["DWZ"]), int(r["Index"])) for r in _rows(files["spieler.csv"]) if r["DWZ"]}


def test_as_of_a_date(world: World) -> None:
    # every tournament of the replay vector ends by 2026-09-20: its final states are the list of
    # 2026-09-30
    expected = {pid: (s["rating"], s["index"]) for pid, s in FINAL.items()}
    dated = _ratings(_zip(world, layout="portal", at="2026-09-30")[1])
    assert dated and dated == {pid: expected[pid] for pid in dated}
    # the day before its last tournament: other ratings, those of the DeWIS layout of that day
    before = _ratings(_zip(world, layout="portal", at="2026-09-19")[1])
    dewis = _ratings(_zip(world, at="2026-09-19")[1])
    assert before != dated and before == {world.pid[int(pkz)]: rating for pkz, rating in dewis.items()}


def test_the_encoding_can_be_stated(world: World) -> None:
    answer, files = _zip(world, layout="portal", encoding="utf-8")
    assert "Müller,Anna".encode() in files["spieler.csv"] and answer.headers["x-transliterated-characters"] == "0"


def test_the_default_layout_is_dewis(world: World) -> None:
    default = world.client.get("/api/v1/files/rating-list.zip")
    stated = world.client.get("/api/v1/files/rating-list.zip", params={"layout": "dewis"})
    assert default.status_code == stated.status_code == 200 and default.content == stated.content


@pytest.mark.parametrize("value", ["Portal", "dewis-old", ""])
def test_an_unknown_layout_is_a_problem_naming_the_layouts(world: World, value: str) -> None:
    answer = world.get("/files/rating-list.zip", layout=value)
    assert answer.status_code == 422 and answer.headers["content-type"] == "application/problem+json"
    (error,) = answer.json()["errors"]
    assert error["place"] == "query.layout"
    assert "'dewis'" in error["message"] and "'portal'" in error["message"]
