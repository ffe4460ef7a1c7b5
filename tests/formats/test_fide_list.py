"""Reading FIDE's combined rating list from its text and XML downloads, on generated lists:
columns from the header, overflowing other titles, unrated and unknown values, problems with
line and column, and streaming (a player is yielded before the rest of the file is read)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import replace
from itertools import islice

import pytest

from zdb.formats.fide_list import FidePlayer, FideRating
from zdb.formats.fide_txt import read_fide_txt
from zdb.formats.fide_xml import read_fide_xml
from zdb.formats.list_model import Problem
from zdb.synthetic.fide_lists import FOA_HEADER, OLD_HEADER, fide_players, write_fide_txt, write_fide_xml

COUNT = 1200


@pytest.fixture(scope="module")
def players() -> list[FidePlayer]:
    return list(fide_players(3, COUNT))


def _txt(players: list[FidePlayer], old: bool = False, codec: str = "utf-8") -> bytes:
    out = io.BytesIO()
    write_fide_txt(players, out, old=old, codec=codec)
    return out.getvalue()


def _xml(players: list[FidePlayer]) -> bytes:
    out = io.BytesIO()
    write_fide_xml(players, out)
    return out.getvalue()


def _lines(data: bytes) -> list[bytes]:
    return io.BytesIO(data).readlines()


def test_the_text_list_reads_back_every_player(players: list[FidePlayer]) -> None:
    data = _txt(players)
    assert len(FOA_HEADER) == 162
    lengths = {len(line.rstrip(b"\n")) for line in _lines(data)[1:] if line.isascii()}
    assert 162 in lengths and max(lengths) > 162  # some lines overflow the other-titles column
    read = list(read_fide_txt(io.BytesIO(data)))
    assert read == players
    assert [p.line for p in read[:3]] == [2, 3, 4]


def test_overflowing_other_titles_move_the_later_columns(players: list[FidePlayer]) -> None:
    many = [p for p in players if len(",".join(p.other_titles)) > 15]
    assert many
    read = {p.fide_id: p for p in read_fide_txt(io.BytesIO(_txt(many))) if isinstance(p, FidePlayer)}
    for player in many:
        assert read[player.fide_id] == player
        assert len(read[player.fide_id].other_titles) == 6


def test_blanks_after_the_end_of_a_line_move_nothing(players: list[FidePlayer]) -> None:
    some = players[490:510]  # one of them with overflowing other titles
    header, *lines = _lines(_txt(some))
    padded = [header, *(line.rstrip(b"\n") + b"      \n" for line in lines)]
    assert list(read_fide_txt(padded)) == some


def test_the_older_layout_without_foa_is_read_from_its_header(players: list[FidePlayer]) -> None:
    assert len(OLD_HEADER) == 158
    read = list(read_fide_txt(io.BytesIO(_txt(players, old=True))))
    assert read == [replace(p, online_title=None) for p in players]


def test_a_header_with_other_widths_moves_every_column() -> None:
    header = FOA_HEADER.replace("Name" + " " * 57, "Name" + " " * 20)  # a narrower name column
    line = "4600001".ljust(15) + "Weber, Jana".ljust(24) + "GER M   GM   WGM  FA,IA          "
    line += "AGM 2450  12  10 2300  0   20 0     0   0  1990  wi  "
    player = next(read_fide_txt([header.encode() + b"\n", line.encode() + b"\n"]))
    assert player == FidePlayer(
        4600001,
        "Weber, Jana",
        "GER",
        "M",
        "GM",
        "WGM",
        ("FA", "IA"),
        "AGM",
        FideRating(2450, 12, 10),
        FideRating(2300, 0, 20),
        FideRating(None, 0, None),
        1990,
        "wi",
    )
    assert isinstance(player, FidePlayer) and player.inactive


def test_zero_and_empty_are_unrated_and_birth_year_zero_is_unknown(players: list[FidePlayer]) -> None:
    unrated = [p for p in players if p.rapid.rating is None][:4]
    data = _txt(unrated)
    fields = [line[126:132].strip() for line in _lines(data)[1:]]  # RRtng
    assert set(fields) == {b"0", b""}  # every other unrated rating is written 0
    assert all(p.rapid == FideRating(None, 0, None) for p in read_fide_txt(io.BytesIO(data)))
    unknown = [p for p in players if p.birth_year is None][:2]
    assert {line[152:158].strip() for line in _lines(_txt(unknown))[1:]} == {b"0"}
    assert [p.birth_year for p in read_fide_txt(io.BytesIO(_txt(unknown)))] == [None, None]


def test_a_bad_value_is_a_problem_with_its_line_and_column(players: list[FidePlayer]) -> None:
    text = [line.decode() for line in _lines(_txt(players[:4]))]
    text[2] = text[2][:113] + "24x0 " + text[2][118:]  # SRtng
    text[3] = text[3][:80] + "X   " + text[3][84:]  # Sex
    text[4] = "ABC" + text[4][3:]  # ID Number
    lines = [line.encode() for line in text]
    read = list(read_fide_txt(lines))
    assert read[0] == players[0]
    assert read[1:] == [
        Problem("players_list_foa.txt", 3, "SRtng", "not a number: '24x0'"),
        Problem("players_list_foa.txt", 4, "Sex", "not M or F: 'X'"),
        Problem("players_list_foa.txt", 5, "ID Number", f"not a number: '{lines[4][:15].decode().strip()}'"),
    ]


def test_a_header_without_a_required_column_reads_nothing(players: list[FidePlayer]) -> None:
    lines = _lines(_txt(players[:2]))
    lines[0] = lines[0].replace(b"SGm", b"   ").replace(b"Flag", b"    ")
    assert list(read_fide_txt(lines)) == [
        Problem("players_list_foa.txt", 1, "SGm", "required column missing from the header"),
        Problem("players_list_foa.txt", 1, "Flag", "required column missing from the header"),
    ]
    assert list(read_fide_txt([])) == [Problem("players_list_foa.txt", 0, "", "empty file")]


def test_windows_1252_and_utf_8_lines_are_both_read() -> None:
    player = FidePlayer(
        4600001,
        "Weiß, Zoë",
        "GER",
        "F",
        None,
        None,
        (),
        None,
        FideRating(1800, 3, 20),
        FideRating(None),
        FideRating(None),
        None,
        "w",
    )
    for codec in ("utf-8", "cp1252"):
        data = _txt([replace(player, line=2)], codec=codec)
        assert list(read_fide_txt(io.BytesIO(data))) == [player]
    assert list(read_fide_txt(io.BytesIO(_txt([player], codec="latin-1")), codec="latin-1")) == [player]


def _endless(head: bytes) -> Iterator[bytes]:
    yield from _lines(head)
    raise AssertionError("the reader read beyond what was asked for")


def test_both_readers_stream(players: list[FidePlayer]) -> None:
    txt = _txt(players[:10])
    assert list(islice(read_fide_txt(_endless(txt)), 10)) == players[:10]
    xml = _xml(players[:10]).replace(b"</playerslist>\n", b"")
    assert [p.fide_id for p in islice(read_fide_xml(_endless(xml)), 10)] == [p.fide_id for p in players[:10]]


def test_the_xml_list_reads_back_every_player(players: list[FidePlayer]) -> None:
    read = list(read_fide_xml(io.BytesIO(_xml(players))))
    assert [replace(p, line=0) for p in read] == players
    assert read[0].line == 23  # the line of its end tag, after the declaration, the root and 20 lines


def test_xml_problems_name_the_element_and_its_line(players: list[FidePlayer]) -> None:
    xml = _xml(players[:3]).replace(b"<games>", b"<games>x", 1)
    xml = xml.replace(b"<sex>F</sex>", b"<sex>?</sex>").replace(b"<sex>M</sex>", b"<sex>?</sex>")
    lines = [n for n, line in enumerate(_lines(xml), start=1) if b"<sex>?" in line]
    read = list(read_fide_xml(io.BytesIO(xml)))
    problems = [(p.line, p.column) for p in read if isinstance(p, Problem)]
    assert problems == list(zip(lines, ["sex", "sex", "sex"], strict=True))  # the first bad element of a player
    one_bad = _xml(players[:2]).replace(b"<games>", b"<games>x", 1)
    (problem, _) = read_fide_xml(io.BytesIO(one_bad))
    assert problem == Problem("players_list_xml_foa.xml", 13, "games", "not a number: 'x0'")
    broken = _xml(players[:2]).replace(b"</name>", b"</nam>", 1)
    last = list(read_fide_xml(io.BytesIO(broken)))[-1]
    assert isinstance(last, Problem) and (last.line, last.column) == (5, "")
    assert last.message.startswith("not well-formed XML: mismatched tag: line 5")
