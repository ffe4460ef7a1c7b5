"""The rating-list reader's handling of real-world files: columns found by name in any order,
unknown columns ignored, and every problem with its file, line and column."""

from __future__ import annotations

import csv
import io
import random
import zipfile
from collections.abc import Iterator

import pytest

from zdb.formats.list_layouts import layout
from zdb.formats.list_model import Problem, YearWeek
from zdb.formats.list_reader import read_rating_list, read_spieler, read_verbaende
from zdb.formats.list_text import detect_codec
from zdb.formats.list_writer import write_rating_list
from zdb.formats.read_limits import ReadRefusedError
from zdb.synthetic.rating_lists import list_zip_bytes, synthetic_list

PORTAL = ",".join(f'"{n}"' if "," in n or " " in n else n for n in layout("spieler.csv", "portal").header)
ROW = 'NU00000001,C0327,007,A,"Weber,Jana",W,D,1990,202511,1650,23,1700,WFM,4600001,GER,WFM,1650,1600,Jana,Weber,'
VEREINE = 'ZPS-Nummer,Landesverband,UebergeordneterVerband,Vereinsname\r\nC0327,C,C03,"SK Lindenau"\r\n'
VERBAENDE = 'Verbandnummer,Landesverband,UebergeordneterVerband,Verbandname\r\n000,0,,"Deutscher Schachbund"\r\n'


def _zip(spieler: str, names: tuple[str, ...], codec: str = "cp1252") -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in zip(names, (spieler, VEREINE, VERBAENDE), strict=False):
            archive.writestr(name, text.encode(codec))
    return buffer.getvalue()


def _spieler(*rows: str, header: str = PORTAL) -> bytes:
    return "".join(line + "\r\n" for line in (header, *rows)).encode("cp1252")


def test_columns_are_found_by_name_in_any_order() -> None:
    data = synthetic_list(11, 300, "portal")
    original = layout("spieler.csv", "portal").header
    for seed in range(3):
        shuffled = random.Random(seed).sample(original, len(original))
        written = list_zip_bytes(data, "portal", codec="utf-8", columns=shuffled)
        read = read_rating_list(written)
        assert read.problems == ()
        assert read.members == data.members
        assert read.formats[0].columns == tuple(shuffled)
        assert write_rating_list(read).data == written


def test_unknown_columns_are_ignored_and_names_compared_without_case_and_blanks() -> None:
    header = PORTAL.replace("Geschlecht,", "Bemerkung,Geschlecht,").replace("DWZ", " dwz ")
    row = ROW.replace(",W,", ",irgendwas,W,")
    members, _, fmt, problems = read_spieler(_spieler(row, header=header))
    assert problems == ()
    assert (members[0].rating, members[0].sex) == (1650, "F")
    assert fmt is not None and "Bemerkung" not in fmt.columns


def test_a_missing_required_column_is_one_problem_naming_it() -> None:
    header = PORTAL.replace("DWZ,", "").replace(",FIDE-ID", "")
    row = ROW.replace(",1650,23,", ",23,").replace(",4600001", "")
    members, _, fmt, problems = read_spieler(_spieler(row, header=header))
    assert (members, fmt) == ((), None)
    assert problems == (
        Problem("spieler.csv", 1, "DWZ", "required column missing"),
        Problem("spieler.csv", 1, "FIDE-ID", "required column missing"),
    )


def test_the_columns_added_in_2026_are_optional() -> None:
    header = ",".join(PORTAL.split(",")[:16])  # the first 15 columns: "Name,Vorname" holds a comma
    members, _, _, problems = read_spieler(_spieler(",".join(ROW.split(",")[:16]), header=header))
    assert problems == ()
    assert (members[0].surname, members[0].given_name, members[0].fide_blitz) == ("Weber", "Jana", None)


def test_the_separate_name_columns_suffice_and_must_agree_with_the_joined_one() -> None:
    header = PORTAL.replace('"Name,Vorname",', "")
    members, _, _, problems = read_spieler(_spieler(ROW.replace('"Weber,Jana",', ""), header=header))
    assert problems == () and (members[0].surname, members[0].given_name) == ("Weber", "Jana")
    members, _, _, problems = read_spieler(_spieler(ROW, ROW.replace(",Jana,Weber,", ",Jana,Wever,")))
    assert len(members) == 1
    assert [(p.line, p.column) for p in problems] == [(3, "Name,Vorname")]
    no_names = PORTAL.replace('"Name,Vorname",', "").replace(",Nachname", "")
    _, _, _, problems = read_spieler(_spieler(header=no_names))
    assert problems == (Problem("spieler.csv", 1, "Name,Vorname", "required column missing"),)


@pytest.mark.parametrize(
    ("old", "new", "column"),
    [
        (",1650,23,", ",165O,23,", "DWZ"),
        (",A,", ",X,", "Status"),
        (",W,D,", ",Q,D,", "Geschlecht"),
        (",1990,", ",12,", "Geburtsjahr"),
        (",202511,", ",202560,", "Letzte Auswertung"),
        ("NU00000001,", ",", "ID"),
        (",C0327,", ",,", "ZPS"),
        (",007,", ",7a,", "Mitgliedsnummer"),
        (",4600001,", ",46-1,", "FIDE-ID"),
        (",1650,1600,", ",1650,-1,", "FIDE-Elozahl-Blitz"),
        (',"Weber,Jana",', ',",Jana",', "Name,Vorname"),
    ],
)
def test_a_bad_value_is_a_problem_with_line_and_column_and_only_its_line_is_lost(
    old: str, new: str, column: str
) -> None:
    assert old in ROW
    other = ROW.replace("NU00000001", "NU00000002")
    members, _, _, problems = read_spieler(_spieler(other, ROW.replace(old, new, 1), other.replace("02", "03", 1)))
    assert [m.line for m in members] == [2, 4]
    assert [(p.file, p.line, p.column) for p in problems] == [("spieler.csv", 3, column)]


def test_a_line_with_another_number_of_fields_is_a_problem_and_blank_lines_are_skipped() -> None:
    members, _, _, problems = read_spieler(_spieler(ROW + ",extra", "", ROW.replace("01", "02", 1)))
    assert [m.line for m in members] == [4]
    assert problems == (Problem("spieler.csv", 2, "", "22 fields, the header has 21"),)


def test_lines_are_counted_in_the_file_across_a_quoted_line_break() -> None:
    broken = ROW + '"Dr.\r\nmed."'  # the title, the last column
    members, _, _, problems = read_spieler(_spieler(broken, ROW.replace(",A,", ",?,")))
    assert problems == (Problem("spieler.csv", 4, "Status", "not A or P: '?'"),)
    assert (members[0].line, members[0].title) == (2, "Dr.\r\nmed.")


def test_values_as_the_dsb_writes_them() -> None:
    rows = (
        ROW.replace(",A,", ",,").replace(",1650,23,", ",0,0,"),
        ROW.replace("01,", "02,", 1).replace(",A,", ",P,").replace(",202511,", ",14.03.2026,").replace(",1990,", ",0,"),
        ROW.replace("01,", "03,", 1).replace(",202511,", ",2026-03-14,").replace(",4600001,", ",0,"),
    )
    members, _, _, problems = read_spieler(_spieler(*rows))
    assert problems == ()
    assert [m.status for m in members] == ["active", "passive", "active"]
    assert (members[0].rating, members[0].rating_index) == (None, 0)  # a rating of 0 is none; index 0 is a value
    assert members[1].last_evaluation == members[2].last_evaluation == YearWeek(2026, 11)
    assert (members[1].birth_year, members[2].fide_id, members[0].sex, members[0].member_no) == (None, None, "F", 7)


def test_only_one_membership_is_active_and_lines_that_differ_are_kept() -> None:
    # a person's lines that say different things of him are no problem of the file: the line
    # that counts gives his data, and an import warns about the others (zdb.lists.sync_plan)
    second_club = ROW.replace(",C0327,", ",C0412,")
    other_rating = ROW.replace(",C0327,", ",C0533,").replace(",A,", ",P,").replace(",1650,23,", ",1651,23,")
    members, people, _, problems = read_spieler(_spieler(ROW, second_club, other_rating))
    assert len(members) == 3 and len(people) == 1
    assert people[0].member.line == 2
    assert [(p.line, p.column) for p in problems] == [(3, "Status")]


def test_of_passive_lines_the_most_recent_one_counts() -> None:
    older = ROW.replace(",A,", ",P,").replace(",202511,", ",202407,").replace(",1650,23,", ",1600,20,")
    newer = ROW.replace(",A,", ",P,").replace(",C0327,", ",C0412,")
    undated = ROW.replace(",A,", ",P,").replace(",C0327,", ",C0533,").replace(",202511,", ",,")
    _, people, _, problems = read_spieler(_spieler(older, undated, newer))
    assert problems == ()
    assert (people[0].member.line, people[0].member.rating) == (4, 1650)


def test_an_active_line_counts_even_after_a_passive_one() -> None:
    passive = ROW.replace(",A,", ",P,").replace(",C0327,", ",C0412,")
    _, people, _, problems = read_spieler(_spieler(passive, ROW))
    assert problems == ()
    assert (people[0].member.club_code, [m.line for m in people[0].memberships]) == ("C0327", [2, 3])


def test_a_federation_repeated_with_the_same_values_is_no_problem() -> None:
    text = "Verband,LV,Uebergeordnet,Verbandname\nC03,C,C00,Bezirk\nC03,C,C00,Bezirk\nC03,C,C00,Bezirk Nord\n"
    federations, _, problems = read_verbaende(text.encode())
    assert len(federations) == 3
    assert problems == (Problem("verbaende.csv", 4, "Verband", "C03 again, with other values than on line 2"),)


def test_encodings_are_detected() -> None:
    assert detect_codec("Müller".encode()) == ("utf-8", False)
    assert detect_codec(b"\xef\xbb\xbfM\xc3\xbcller") == ("utf-8", True)
    assert detect_codec("Šimek, Müller".encode("cp1252")) == ("cp1252", False)
    assert detect_codec("Müller".encode("latin-1")) == ("cp1252", False)  # the same text either way
    assert detect_codec("Müller".encode("latin-1") + b"\x81") == ("latin-1", False)


def test_an_undecodable_byte_is_a_problem_on_its_line() -> None:
    data = _spieler(ROW, ROW.replace("Weber", "Wéber"))
    _, _, _, problems = read_spieler(data, codec="utf-8")
    assert problems == (Problem("spieler.csv", 3, "", "not utf-8: byte 0xE9"),)


def test_the_files_are_found_in_a_folder_and_in_any_case_and_a_missing_one_is_a_problem() -> None:
    read = read_rating_list(_zip(_spieler(ROW).decode("cp1252"), names=("LV-C/SPIELER.CSV", "LV-C/Vereine.csv")))
    assert len(read.members) == 1 and len(read.clubs) == 1
    assert read.problems == (Problem("verbaende.csv", 0, "", "missing from rating list"),)
    with pytest.raises(ReadRefusedError) as refused:
        read_rating_list(b"PK\x03\x04 not a zip", name="LV-C-csv.zip")
    assert (refused.value.kind, refused.value.file) == ("not_zip", "LV-C-csv.zip")


def test_a_column_named_twice_is_read_once_and_reported() -> None:
    members, _, _, problems = read_spieler(_spieler(ROW + ",1800", header=PORTAL + ",DWZ"))
    assert members[0].rating == 1650
    assert problems == (Problem("spieler.csv", 1, "DWZ", "column named twice; the first one is read"),)


def test_a_stated_windows_1252_that_does_not_fit_is_a_problem() -> None:
    _, _, _, problems = read_spieler(_spieler(ROW) + b"\x81\r\n", codec="cp1252")
    assert problems == (Problem("spieler.csv", 3, "", "not cp1252: byte 0x81"),)


@pytest.fixture
def default_field_limit() -> Iterator[None]:
    """The csv module's default field limit: it is process-wide, and libraries raise it."""
    previous = csv.field_size_limit(131_072)
    yield
    csv.field_size_limit(previous)


@pytest.mark.usefixtures("default_field_limit")
def test_unreadable_csv_is_a_problem_on_its_line() -> None:
    huge = "x" * 200_000  # beyond the csv module's field limit
    _, _, fmt, problems = read_spieler(f"ID,{huge}\n".encode())
    assert fmt is None and [(p.line, p.message[:15]) for p in problems] == [(1, "unreadable CSV:")]
    members, _, _, problems = read_spieler(_spieler(ROW, ROW.replace("Weber", huge, 1), ROW))
    assert [(p.line, p.message[:15]) for p in problems] == [(3, "unreadable CSV:")]
    assert len(members) == 1  # the reading stops there


def test_every_problem_carries_its_template_and_values_for_a_translation() -> None:
    """The pages say a problem in German from its English template and values: filled in, they
    give the English message exactly."""
    bad = ROW.replace(",A,", ",?,").replace(",1990,", ",1700,")
    members, _, _, problems = read_spieler(_spieler(bad, ROW.replace("0001,", "0002,"), ROW + ",extra"))
    assert [(p.line, p.column, p.message) for p in problems] == [
        (2, "Status", "not A or P: '?'"),
        (2, "Geburtsjahr", "not a birth year: '1700'"),
        (4, "", "22 fields, the header has 21"),
    ]
    assert [(p.template, dict(p.params)) for p in problems] == [
        ("not A or P: {value}", {"value": "'?'"}),
        ("not a birth year: {value}", {"value": "'1700'"}),
        ("{count} fields, the header has {width}", {"count": 22, "width": 21}),
    ]
    assert len(members) == 1
