"""Damaged rating-list files, each problem whole (file, line, column and message): a control
character in a value, a field beyond the csv module's limit, a DeWIS person number that is no
number; and the list files' text decoding as ``zdb.formats.list_text`` describes it (a UTF-8
byte-order mark taken off, a stated encoding used as stated)."""

from __future__ import annotations

import csv
from collections.abc import Iterator

import pytest

from zdb.formats.list_layouts import layout, normalised
from zdb.formats.list_model import Problem
from zdb.formats.list_reader import read_spieler, read_vereine
from zdb.formats.list_text import BOM, decode
from zdb.formats.read_limits import ReadRefusedError

DEWIS = ",".join(layout("spieler.csv", "dewis").header)
ROW = '10000001,C0327,007,A,"Weber,Jana",W,D,1990,202511,1650,23,1700,WFM,4600001,GER'


def _dewis(*rows: str) -> bytes:
    return "".join(line + "\n" for line in (DEWIS, *rows)).encode()


def test_the_dewis_header_is_the_one_the_reader_is_given() -> None:
    members, _, fmt, problems = read_spieler(_dewis(ROW))
    assert fmt is not None and fmt.layout == "dewis" and not problems
    assert [(m.person_id, m.surname, m.given_name) for m in members] == [("10000001", "Weber", "Jana")]


@pytest.mark.parametrize(
    ("character", "name"), [("\x00", "NUL"), ("\x1b", "ESC"), ("\x07", "U+0007"), ("\x7f", "U+007F")]
)
def test_a_control_character_in_a_value_leaves_its_line_out_naming_it(character: str, name: str) -> None:
    damaged = ROW.replace("C0327", f"C03{character}27")
    members, _, _, problems = read_spieler(_dewis(ROW.replace("0001,", "0002,", 1), damaged))
    assert [m.person_id for m in members] == ["10000002"]
    message = f"holds a control character ({name}); a value never does: the file is damaged"
    assert problems == (Problem("spieler.csv", 3, "VKZ", message),)


def test_a_dewis_person_number_must_be_digits() -> None:
    members, _, _, problems = read_spieler(_dewis(ROW.replace("10000001", "NU10000001")))
    assert members == ()
    assert problems == (Problem("spieler.csv", 2, "ID", "not a person number: 'NU10000001'"),)


@pytest.fixture
def default_field_limit() -> Iterator[None]:
    """The csv module's default field limit (131,072 characters): it is process-wide, and
    libraries raise it."""
    previous = csv.field_size_limit(131_072)
    yield
    csv.field_size_limit(previous)


@pytest.mark.usefixtures("default_field_limit")
def test_a_field_beyond_the_csv_limit_is_a_problem_of_its_file_and_line() -> None:
    huge = "x" * 200_000
    message = "unreadable CSV: a field is longer than 131,072 characters (a quote not closed?)"
    _, _, fmt, problems = read_spieler(f"{DEWIS},{huge}\n".encode(), file="liste.csv")
    assert fmt is None and problems == (Problem("liste.csv", 1, "", message),)
    members, _, _, problems = read_spieler(_dewis(ROW, ROW.replace("Weber", huge, 1)))
    assert len(members) == 1 and problems == (Problem("spieler.csv", 3, "", message),)


def test_decode_takes_off_a_utf8_mark_and_keeps_a_stated_encoding() -> None:
    text = "Zoë Weiß"
    assert decode(BOM + text.encode()) == (text, "utf-8", True)
    assert decode(text.encode("cp1252")) == (text, "cp1252", False)
    assert decode(text.encode("cp1252"), "latin-1") == (text, "latin-1", False)
    # a mark read under a stated single-byte encoding is text, not a mark
    assert decode(BOM + b"x", "cp1252") == ("ï»¿x", "cp1252", False)
    assert decode(BOM + b"x", "utf-8") == ("x", "utf-8", True)


def test_a_utf16_file_without_a_mark_and_a_binary_header_are_refused() -> None:
    with pytest.raises(ReadRefusedError) as refused:
        read_spieler(_dewis(ROW).decode().encode("utf-16-le"))
    assert refused.value.kind == "utf16"
    with pytest.raises(ReadRefusedError) as refused:
        read_spieler(b"ID,VKZ\x00,Mgl-Nr\n")
    assert (refused.value.kind, refused.value.values) == ("binary", {"line": 1})


def test_a_stated_encoding_is_checked_from_the_headers_first_byte() -> None:
    _, _, fmt, problems = read_spieler(b"\xff" + _dewis(ROW), codec="utf-8")
    assert fmt is None and problems == (Problem("spieler.csv", 1, "", "not utf-8: byte 0xFF"),)


def test_a_header_without_a_known_column_names_its_columns() -> None:
    _, _, fmt, problems = read_spieler(b"Spieler,Verein\nWeber,Lindenau\n")
    assert fmt is None
    assert problems == (Problem("spieler.csv", 1, "", "no known column in the header (Spieler, Verein)"),)


def test_a_second_active_membership_names_the_person_and_the_first_line() -> None:
    second = ROW.replace("C0327,007", "C0401,012")
    _, people, _, problems = read_spieler(_dewis(ROW, second))
    assert len(people) == 1
    message = "a second active membership of 10000001 (the first on line 2)"
    assert problems == (Problem("spieler.csv", 3, "Status", message),)


def test_a_club_without_a_code_is_a_problem_of_its_line() -> None:
    vereine = b"ZPS,LV,Verband,Vereinname\nC0327,C,C03,SK Lindenau\n,C,C03,Ohne Code\n"
    clubs, _, problems = read_vereine(vereine)
    assert [club.code for club in clubs] == ["C0327"]
    assert problems == (Problem("vereine.csv", 3, "ZPS", "empty"),)


def test_a_header_name_is_compared_without_blanks_mark_and_case() -> None:
    assert normalised(" \ufeffFIDE-Elo ") == "fide-elo"


def test_old_mac_line_ends_and_an_empty_file() -> None:
    members, _, _, problems = read_spieler(_dewis(ROW, ROW.replace("0001,", "0002,", 1)).replace(b"\n", b"\r"))
    assert [m.person_id for m in members] == ["10000001", "10000002"] and problems == ()
    assert read_spieler(b"") == ((), (), None, (Problem("spieler.csv", 0, "", "empty file"),))


def test_sex_f_no_surname_and_a_bad_club_code_are_read_as_written() -> None:
    woman = ROW.replace(",W,", ",F,")
    nameless = ROW.replace("10000001", "10000002").replace('"Weber,Jana"', '",Jana"')
    members, _, _, problems = read_spieler(_dewis(woman, nameless))
    assert [(m.person_id, m.sex) for m in members] == [("10000001", "F")]
    assert problems == (Problem("spieler.csv", 3, "Spielername", "no surname"),)
    _, _, problems = read_vereine(b"ZPS,LV,Verband,Vereinname\nC-327,C,C03,SK Lindenau\n")
    assert problems == (Problem("vereine.csv", 2, "ZPS", "not a code: 'C-327'"),)
