"""The older DeWIS files (``/php/dewis/…``, ``client-interfaces.md`` §2), on both backends:
``verein.php``, ``verband.php`` and ``spieler.php`` in each format — the exact header texts,
the column counts, ``|`` and CRLF, the player's tournaments oldest first — and their errors as
plain texts starting with ``Fehler: ``.

Known answers: the world's constants (``tests/api/world.py``) and the replay vector
(``vectors.json``: final states, histories and reports); the opponents' average worked out by
hand from the vector's games and ratings before the tournament; PHP's ``serialize()`` of a
small structure written out as PHP writes it."""

from __future__ import annotations

import json
from xml.etree import ElementTree

import pytest
from fastapi.testclient import TestClient

from tests.api.world import MEMBERSHIPS, NAMES, REPLAY, World
from zdb.app import create_app
from zdb.config import Settings
from zdb.formats.dewis_files import php_serialize

VEREIN = "id|nachname|vorname|titel|verein|mglnr|status|dwz|dwzindex|turniercode|turnierende|fideid|fideelo|fidetitel"
BLOCKS = [
    "id|nachname|vorname|titel|dwz|dwzindex|fideid|fideelo|fidetitel|fidenation",
    "zpsver|organisation|rang|auswerter",
    "zpsver|vereinsname|zpsmgl|status",
    "turniercode|turniername|dwzalt|dwzaltindex|punkte|partien|nichtgewertet|erwartungswert|gegner|koeffizient|"
    "dwzneu|dwzneuindex|leistung",
]
FINAL = REPLAY["expected"]["final_states"]
REPORTS = REPLAY["expected"]["reports"]


def _lines(world: World, path: str, **params: str) -> list[str]:
    answer = world.client.get(f"/php/dewis/{path}", params=params)
    assert answer.status_code == 200
    assert answer.text.endswith("\r\n") and "\n" not in answer.text.replace("\r\n", "")
    return answer.text.removesuffix("\r\n").split("\r\n")


def _members(club: str) -> list[tuple[int, str]]:
    return sorted(
        (number, pid)
        for pid, held in MEMBERSHIPS.items()
        for code, number, _, until in held
        if code == club and not until
    )


def test_verein_php_lists_a_clubs_members_in_14_columns(world: World) -> None:
    header, *rows = _lines(world, "verein.php", zps="C0327", format="csv")
    assert header == VEREIN
    cells = [row.split("|") for row in rows]
    assert all(len(row) == 14 for row in cells)
    assert [(c[0], c[1], c[5]) for c in cells] == [
        (str(world.pkz[pid]), NAMES[pid][0], f"{number:03d}") for number, pid in _members("C0327")
    ]
    for c in cells:
        final = FINAL[world.pid[int(c[0])]]
        assert (c[7], c[8]) == (str(final["rating"]), str(final["index"]))


def test_the_other_formats_carry_the_same_values(world: World) -> None:
    (_, *rows) = _lines(world, "verein.php", zps="C0327")
    expected = [dict(zip(VEREIN.split("|"), row.split("|"), strict=True)) for row in rows]
    as_json = world.client.get("/php/dewis/verein.php", params={"zps": "C0327", "format": "json"}).json()
    assert as_json == expected
    xml = world.client.get("/php/dewis/verein.php", params={"zps": "C0327", "format": "xml"}).text
    root = ElementTree.fromstring(xml.encode())
    assert root.tag == "Liste"
    assert [{child.tag: child.text or "" for child in item} for item in root.findall("Spieler")] == expected
    array = world.client.get("/php/dewis/verein.php", params={"zps": "C0327", "format": "array"}).text
    assert array.startswith(f'a:{len(expected)}:{{i:0;a:14:{{s:2:"id";')
    assert array == php_serialize(expected)


def test_php_serialize_writes_what_php_writes() -> None:
    # PHP: serialize(["spieler" => ["nachname" => "Müller", "dwz" => ""], "rang" => []])
    assert php_serialize({"spieler": {"nachname": "Müller", "dwz": ""}, "rang": []}) == (
        'a:2:{s:7:"spieler";a:2:{s:8:"nachname";s:7:"Müller";s:3:"dwz";s:0:"";}s:4:"rang";a:0:{}}'
    )


def test_verband_php_lists_the_best_of_a_federation(world: World) -> None:
    header, *rows = _lines(world, "verband.php", zps="C", limit="3")
    assert header == VEREIN
    in_c = {pid for pid, held in MEMBERSHIPS.items() for code, _, _, until in held if code[0] == "C" and not until}
    best = sorted(in_c, key=lambda pid: (-FINAL[pid]["rating"], -FINAL[pid]["index"]))[:3]
    assert [world.pid[int(row.split("|")[0])] for row in rows] == best
    assert len(_lines(world, "verband.php", zps="C00")) == 1 + len(in_c)  # the DSB's code of region C; default 100


def test_spieler_php_has_four_blocks_and_the_tournaments_oldest_first(world: World) -> None:
    lines = _lines(world, "spieler.php", pkz=str(world.pkz["A"]))
    starts = [lines.index(header) for header in BLOCKS]
    assert starts == sorted(starts) and starts[0] == 0
    person = lines[1].split("|")
    assert len(person) == 10 and person[:3] == [str(world.pkz["A"]), "Müller", "Anna"]
    assert (person[4], person[5]) == (str(FINAL["A"]["rating"]), str(FINAL["A"]["index"]))
    assert lines[starts[2] + 1] == "C0327|SK Musterstadt 1920|001|A"  # zero-filled as in verein.php
    tournaments = [line.split("|") for line in lines[starts[3] + 1 :]]
    history = [e for e in REPLAY["expected"]["history"]["A"] if e["event"] != "conversion-2026"]
    assert [t[0] for t in tournaments] == [str(e["event"]) for e in history]  # oldest first
    for cells, event in zip(tournaments, history, strict=True):
        assert len(cells) == 13
        assert [cells[2], cells[3], cells[10], cells[11]] == [str(v) for v in (*event["old"], *event["new"])]
        (row,) = [r for r in REPORTS[str(event["event"])] if r["pid"] == "A"]
        assert cells[5] == str(row["n"]) and cells[6] == str(row["unrated_games"])
        assert cells[7] == f"{row['We']:.3f}"
    # tournament 1: A's rated games and her opponents' ratings before it, by hand
    event = next(e for e in REPLAY["events"] if e["id"] == 1)
    before = {r["pid"]: r["r0"] for r in REPORTS["1"]}
    opponents = [
        before[g["black"] if g["white"] == "A" else g["white"]]
        for g in event["games"]
        if "A" in (g["white"], g["black"]) and g["result"] in ("1-0", "0-1", "1/2-1/2")
    ]
    rated = [r for r in opponents if r is not None]
    assert tournaments[0][8] == str(round(sum(rated) / len(rated)))


def test_spieler_php_json_names_the_unrated_games_ungewertet(world: World) -> None:
    body = world.client.get("/php/dewis/spieler.php", params={"pkz": str(world.pkz["A"]), "format": "json"}).json()
    assert set(body) == {"spieler", "rang", "mitgliedschaft", "turnier"}
    assert "ungewertet" in body["turnier"][0] and "nichtgewertet" not in body["turnier"][0]
    assert json.dumps(body["spieler"]["nachname"], ensure_ascii=False) == '"Müller"'


@pytest.mark.parametrize(
    ("path", "params"),
    [
        ("spieler.php", {"pkz": "99999999"}),
        ("spieler.php", {"pkz": "abc"}),
        ("spieler.php", {}),
        ("verein.php", {"zps": "X9999"}),
        ("verein.php", {}),
        ("verein.php", {"zps": "C0327", "format": "yaml"}),
        ("verband.php", {"zps": "Z"}),
        ("verband.php", {"zps": "C", "limit": "0"}),
        ("verband.php", {"zps": "C", "limit": "many"}),
    ],
)
def test_errors_are_plain_texts_starting_with_fehler(world: World, path: str, params: dict[str, str]) -> None:
    answer = world.client.get(f"/php/dewis/{path}", params=params)
    assert answer.text.startswith("Fehler: ")
    assert answer.headers["content-type"].startswith("text/plain")


@pytest.mark.parametrize("world_url", ["sqlite"], indirect=True)
def test_the_dewis_files_count_as_the_club_pull(world: World) -> None:
    settings = Settings(database_url=world.url, rate_limits=True, rate_limit_club_pull="2/hour")
    with TestClient(create_app(settings, recalculation=False)) as limited:
        for _ in range(2):
            assert limited.get("/php/dewis/verein.php", params={"zps": "C0327"}).status_code == 200
        # over the limit: a "Fehler: " text, as every DeWIS error (with status 200, which a PHP
        # script's file_get_contents reads), and when to try again
        over = limited.get("/php/dewis/spieler.php", params={"pkz": "1"})
        assert over.status_code == 200 and over.text.startswith("Fehler: ")
        assert int(over.headers["retry-after"]) >= 1 and over.headers["cache-control"] == "no-store"
        # the portal's list file counts as the same pull, refused in the portal's error shape
        refused = limited.get("/dsbwertungsportal/rs/dwz/dwzliste/download/LV-0-dwzliste.zip")
        assert refused.status_code == 429
        assert set(refused.json()) == {"error", "error_description"}
        assert int(refused.headers["retry-after"]) >= 1
        assert limited.get("/dsbwertungsportal/rs/dwz/dwzliste/persons").status_code == 200  # a read, not a file
