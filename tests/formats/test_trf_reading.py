"""Encodings, line endings, player-line variants, national rating lines and team records."""

from __future__ import annotations

import codecs

import pytest

from tests.formats.test_trf_problems import player_line, trf
from zdb.formats.trf import parse_trf

TWO_PLAYERS = [
    "012 Äpfel & Birnen Cup",
    "052 2024/05/02",
    player_line(1, "Müller, Jürgen", [(2, "w", "1")], points=1.0),
    player_line(2, "Żółć, Łukasz", [(1, "b", "0")], points=0.0),
]


@pytest.mark.parametrize(
    ("prefix", "codec", "expected"),
    [(b"", "utf-8", "utf-8"), (codecs.BOM_UTF8, "utf-8", "utf-8-sig")],
    ids=["plain", "bom"],  # ASCII ids (tests/vector_compare.case_id says why)
)
def test_utf8_with_and_without_bom(prefix: bytes, codec: str, expected: str) -> None:
    doc = parse_trf(prefix + trf(*TWO_PLAYERS).encode(codec))
    assert doc.encoding == expected
    assert doc.name == "Äpfel & Birnen Cup"
    assert [p.name for p in doc.players] == ["Müller, Jürgen", "Żółć, Łukasz"]
    assert doc.problems == ()


def test_utf16_with_bom() -> None:
    doc = parse_trf(trf(*TWO_PLAYERS).encode("utf-16"))
    assert doc.encoding == "utf-16" and doc.players[1].name == "Żółć, Łukasz" and doc.problems == ()


def test_latin1_fallback_counts_columns_in_characters() -> None:
    lines = [*TWO_PLAYERS[:3], player_line(2, "Größe, Åse", [(1, "b", "0")], points=0.0)]
    doc = parse_trf(trf(*lines).encode("iso-8859-1"))
    assert doc.encoding == "iso-8859-1"
    assert doc.players[1].name == "Größe, Åse" and doc.players[1].points == 0.0
    (problem,) = doc.problems
    assert problem.field == "encoding" and problem.line == 1 and problem.severity.value == "warning"


def test_cp1252_when_its_extra_letters_occur() -> None:
    lines = [*TWO_PLAYERS[:3], player_line(2, "Šašek €", [(1, "b", "0")], points=0.0)]
    data = trf(*lines).encode("cp1252", errors="replace")
    doc = parse_trf(data)
    assert doc.encoding == "cp1252"
    assert doc.players[1].name == "Šašek €"
    assert doc.errors == ()


@pytest.mark.parametrize(("eol", "style"), [("\n", "LF"), ("\r\n", "CRLF"), ("\r", "CR")], ids=["LF", "CRLF", "CR"])
def test_line_endings(eol: str, style: str) -> None:
    text = eol.join(TWO_PLAYERS) + eol + eol  # an extra terminator gives an empty last line
    doc = parse_trf(text.encode())
    assert doc.line_endings == style
    assert [p.line for p in doc.players] == [3, 4]
    assert doc.problems == ()


def test_mixed_line_endings_keep_line_numbers() -> None:
    text = TWO_PLAYERS[0] + "\r\n" + TWO_PLAYERS[1] + "\n" + TWO_PLAYERS[2] + "\r" + TWO_PLAYERS[3] + "\r"
    doc = parse_trf(text)
    assert doc.line_endings == "mixed"
    assert [p.line for p in doc.players] == [3, 4]


def test_player_line_fields() -> None:
    line = player_line(
        7,
        "Doe, Jane",
        [(8, "w", "=")],
        sex="w",
        title="WIM",
        rating=2100,
        fed="GER",
        fide=12345678,
        birth="1990/05/17",
        points=0.5,
        rank=3,
    )
    doc = parse_trf(trf(line, player_line(8, "Roe, Rick", [(7, "b", "=")], sex="M", title="g", rating=0, fide=0)))
    jane, rick = doc.players
    assert (jane.start_no, jane.sex, jane.title, jane.name) == (7, "w", "WIM", "Doe, Jane")
    assert (jane.rating, jane.federation, jane.fide_id) == (2100, "GER", 12345678)
    assert (jane.birth_year, jane.points, jane.rank) == (1990, 0.5, 3)
    assert (rick.sex, rick.title, rick.rating, rick.fide_id) == ("m", "GM", None, None)
    assert (rick.points, rick.rank) == (None, None)


def test_title_run_into_the_sex_column_and_left_aligned_ids() -> None:
    base = player_line(1, "Kasparov, Garry", rating=2851, fed="RUS", birth="1963/04/13", points=0.0)
    line = base[:9] + "mGM " + base[13:57] + "4100018363 " + base[68:]
    no_sex = base[:9] + "GM  " + base[13:]
    doc = parse_trf(trf(line, no_sex.replace("   1 ", "   2 ", 1)))
    first, second = doc.players
    assert (first.sex, first.title, first.fide_id) == ("m", "GM", 4100018363)
    assert (second.sex, second.title) == (None, "GM")
    assert [p.line for p in doc.warnings if p.field == "title"] == [2]


def test_birth_date_one_column_late_is_read_with_a_warning() -> None:
    base = player_line(1, "A", birth="1963/04/13", points=0.0)
    shifted = base[:69] + " 1963/04/13" + base[80:]
    doc = parse_trf(trf(shifted))
    assert doc.players[0].birth_year == 1963
    assert any(p.field == "birth date" and "71-80" in p.message for p in doc.warnings)


def test_round_cells_one_column_late_are_read_with_a_warning() -> None:
    a = player_line(1, "A", [(2, "w", "1"), (2, "b", "=")], points=1.5)
    b = player_line(2, "B", [(1, "b", "0"), (1, "w", "=")], points=0.5)
    doc = parse_trf(trf(a[:91] + " " + a[91:], b))
    assert doc.errors == ()
    assert [c.opponent for c in doc.players[0].cells] == [2, 2]
    assert any(p.line == 1 and "column 93" in p.message for p in doc.warnings)


def test_lichess_style_cells_without_0000_and_icu_style_dash_cells() -> None:
    a = player_line(1, "A", [(None, "", "H"), (None, "-", "")])
    doc = parse_trf(trf(a))
    h, dash = doc.players[0].cells
    assert (h.opponent, h.colour, h.result) == (None, None, "H")
    assert (dash.opponent, dash.colour, dash.result, dash.blank) == (None, "-", None, False)


def national_line(fed: str, no: int, rating: int, origin: str = "", number: str = "", *, name: str = "") -> str:
    """An NRS line: the 001 static layout behind a federation code (TRF26)."""
    return f"{fed} {no:>4}      {name:<33} {rating:>4} {origin:<3} {number:>11}".rstrip()


def test_german_national_rating_line() -> None:
    nrs = national_line("GER", 1, 1850, "BAY", "C0327-123", name="Müller, Jürgen")
    nrs2 = national_line("GER", 2, 1700, "", "10012345")
    doc = parse_trf(trf(*TWO_PLAYERS, nrs, nrs2))
    first, second = doc.national_records
    assert (first.federation, first.start_no, first.rating, first.origin) == ("GER", 1, 1850, "BAY")
    assert (first.club_code, first.member_no, first.person_no) == ("C0327", "123", None)
    assert (second.club_code, second.member_no, second.person_no) == (None, None, "10012345")
    assert (first.dwz, second.dwz) == (1850, 1700)
    assert doc.players[0].national == (first,)
    assert doc.problems == ()


def test_zps_written_over_the_origin_column() -> None:
    nrs = national_line("GER", 1, 1850).ljust(53) + "C0327 0042"
    doc = parse_trf(trf(*TWO_PLAYERS, nrs))
    (record,) = doc.national_records
    assert (record.club_code, record.member_no) == ("C0327", "0042")


def test_unusable_german_national_number_is_a_warning() -> None:
    nrs = national_line("GER", 1, 1850, "", "ABC/9")
    doc = parse_trf(trf(*TWO_PLAYERS, nrs))
    assert [p.field for p in doc.warnings] == ["national number"]


def test_national_line_for_a_missing_player_is_a_warning() -> None:
    doc = parse_trf(trf(*TWO_PLAYERS, national_line("FRA", 9, 2200, "IDF", "D50113")))
    assert [(p.line, p.field) for p in doc.problems] == [(5, "national rating")]


def test_013_teams_and_310_teams() -> None:
    players = [
        player_line(k, f"P{k}", [(k + 2 if k <= 2 else k - 2, "w" if k <= 2 else "b", "=")]) for k in range(1, 5)
    ]
    doc13 = parse_trf(trf(*players, "013 Red".ljust(36) + "   1    2", "013 Blue".ljust(36) + "   3    4"))
    assert [(t.number, t.name, t.members, t.source) for t in doc13.teams] == [
        (1, "Red", (1, 2), "013"),
        (2, "Blue", (3, 4), "013"),
    ]
    assert doc13.team_of(3) is doc13.teams[1]
    doc310 = parse_trf(
        trf(
            *players,
            "310   1 Red                              RED     2400    2.0    2.0   1     1    2",
            "310 2   Blue                             BLU     2300    0.0    2.0   2     3    4",
        )
    )
    red, blue = doc310.teams
    assert (red.number, red.nickname, red.match_points, red.game_points, red.rank) == (1, "RED", 2.0, 2.0, 1)
    assert (blue.number, blue.members) == (2, (3, 4))
    assert doc310.errors == ()


def test_team_forfeit_and_pairing_bye_records() -> None:
    players = [player_line(1, "A", [(0, "-", "+")]), player_line(2, "B", [(0, "-", "Z")])]
    doc = parse_trf(
        trf(
            *players,
            "310 1   Alpha" + " " * 60 + "1",
            "310 2   Bravo" + " " * 60 + "2",
            "310 3   Charlie" + " " * 58,
            "330 +-   1   1   2",
            "320  2.0  2.0     3",
        )
    )
    (forfeit,) = doc.team_forfeits
    assert (forfeit.kind, forfeit.round, forfeit.white_team, forfeit.black_team) == ("+-", 1, 1, 2)
    (bye,) = doc.team_byes
    assert (bye.round, bye.team, bye.match_points) == (2, 3, 2.0)
    assert doc.errors == ()


def test_extensions_and_header_fields() -> None:
    doc = parse_trf(
        trf(
            "012 Open ",
            "022 Berlin",
            "032 GER",
            "102 Schmidt, Anna",
            "112 Deputy One",
            "112 Deputy Two",
            "122 90 min/40 moves + 30 min + 30 s/move",
            "222 40/5400+30:1800+30",
            "142 3",
            "XXR 3",
            "XXC rank white1",
            "DAT 2024",
            player_line(1, "A"),
        )
    )
    assert (doc.name, doc.city, doc.federation, doc.chief_arbiter) == ("Open", "Berlin", "GER", "Schmidt, Anna")
    assert doc.deputy_arbiters == ("Deputy One", "Deputy Two")
    assert doc.time_control == "90 min/40 moves + 30 min + 30 s/move"
    assert doc.time_control_code == "40/5400+30:1800+30"
    assert doc.declared_rounds == 3
    assert doc.extensions["XXC"] == ("rank white1",) and doc.extensions["DAT"] == ("2024",)
    assert doc.header["112"] == ("Deputy One", "Deputy Two")
