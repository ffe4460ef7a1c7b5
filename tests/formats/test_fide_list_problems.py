"""The FIDE list readers' problems, whole: each names its file, its line and its column (the
header name of the text layout, the element of the XML one) with its message, and a hostile XML
document is refused naming what is wrong. The lines are made here from FIDE's header names
(``ID Number``, ``Name``, ``Fed``, …: each column starts at its name), so every expectation
comes from the input itself."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest

from zdb.formats.fide_list import FidePlayer, FideRating
from zdb.formats.fide_txt import read_fide_txt
from zdb.formats.fide_xml import read_fide_xml
from zdb.formats.list_model import Problem
from zdb.formats.read_limits import ReadLimits, ReadRefusedError
from zdb.synthetic.fide_lists import FOA_HEADER, write_fide_txt

FILE = "list.txt"


def _line(values: dict[str, str]) -> str:
    """A line of the FOA layout with ``values`` (by header name) at their columns' starts and
    the rest blank."""
    line = [" "] * len(FOA_HEADER)
    for name, value in values.items():
        start = FOA_HEADER.index(name)
        line[start : start + len(value)] = value
    return "".join(line).rstrip()


GOOD = _line({"ID Number": "4600001", "Name": "Weber, Jana", "Fed": "GER", "Sex": "F", "B-day": "1990", "Flag": "w"})
UNRATED = FideRating(None)
JANA = FidePlayer(4600001, "Weber, Jana", "GER", "F", None, None, (), None, UNRATED, UNRATED, UNRATED, 1990, "w")


def _read(*lines: str | bytes, codec: str | None = None) -> list[FidePlayer | Problem]:
    raw = [line if isinstance(line, bytes) else (line + "\n").encode() for line in (FOA_HEADER, *lines)]
    return list(read_fide_txt(raw, codec=codec, file=FILE))


def test_a_sound_line_made_from_the_header_is_read() -> None:
    (player,) = _read(GOOD)
    assert player == JANA
    assert isinstance(player, FidePlayer) and player.line == 2


def test_a_line_the_stated_encoding_cannot_decode_is_a_problem_of_its_line() -> None:
    assert _read(GOOD, b"4600002 M\xfcller\n", codec="utf-8") == [
        JANA,
        Problem(FILE, 3, "", "not utf-8: byte 0xFC"),
    ]


def test_a_utf16_file_and_a_file_without_fides_columns_read_nothing() -> None:
    utf16 = list(read_fide_txt([FOA_HEADER.encode("utf-16"), GOOD.encode("utf-16")], file=FILE))
    nul = "the file holds NUL bytes: it is UTF-16 or not a text file; FIDE's list is plain text (or its XML or ZIP)"
    assert utf16 == [Problem(FILE, 1, "", nul)]
    none = list(read_fide_txt([b"Spieler Verein Wertung\n", GOOD.encode()], file=FILE))
    text = "no recognisable header: the first line names none of FIDE's columns (ID Number, Name, Fed, ...)"
    assert none == [Problem(FILE, 1, "", text)]


@pytest.mark.parametrize(
    ("character", "name"), [("\x00", "NUL"), ("\x1b", "ESC"), ("\x07", "U+0007"), ("\x7f", "U+007F")]
)
def test_a_control_character_names_itself_and_the_column_it_stands_in(character: str, name: str) -> None:
    fed = FOA_HEADER.index("Fed")
    # at the first character of Fed: a column runs from its name's start to the next one's
    damaged = GOOD[:fed] + character + GOOD[fed + 1 :]
    message = f"holds a control character ({name}); a value never does: the line is damaged"
    assert _read(damaged, GOOD) == [Problem(FILE, 2, "Fed", message), JANA]


def test_the_slow_path_names_the_column_of_each_bad_value() -> None:
    no_id = _line({"ID Number": "0", "Name": "Weber, Jana", "Sex": "F"})
    no_name = _line({"ID Number": "4600001", "Sex": "F"})
    titles = _line({"ID Number": "4600001", "Name": "Weber, Jana", "Sex": "F", "OTit": "FA IA"})
    born = _line({"ID Number": "4600001", "Name": "Weber, Jana", "Sex": "F", "B-day": "19x0"})
    assert _read(no_id, no_name, titles, born) == [
        Problem(FILE, 2, "ID Number", "no FIDE id"),
        Problem(FILE, 3, "Name", "empty"),
        Problem(FILE, 4, "OTit", "not a list of titles: 'FA IA'"),
        Problem(FILE, 5, "B-day", "not a number: '19x0'"),
    ]


def test_a_player_read_past_the_header_width_keeps_his_line() -> None:
    # other titles running beyond their column move the later columns right (fide_txt's docstring)
    many = replace(JANA, other_titles=("FA", "IA", "FI", "FST", "DI", "NA"))
    out = io.BytesIO()
    write_fide_txt([JANA, many], out)
    lines = out.getvalue().splitlines(keepends=True)
    assert len(lines[2].rstrip(b"\n")) > len(FOA_HEADER)
    read = list(read_fide_txt(lines, file=FILE))
    assert read == [JANA, many]
    assert [p.line for p in read if isinstance(p, FidePlayer)] == [2, 3]


# XML -------------------------------------------------------------------------------------------

XML_FILE = "list.xml"


def _xml(*players: str, prolog: str = "") -> list[bytes]:
    text = f'<?xml version="1.0" encoding="utf-8"?>\n{prolog}<playerslist>\n' + "".join(players) + "</playerslist>\n"
    return text.encode().splitlines(keepends=True)


def _player(**elements: str) -> str:
    return "<player>\n" + "".join(f"<{tag}>{value}</{tag}>\n" for tag, value in elements.items()) + "</player>\n"


def test_missing_country_and_flag_are_empty_not_absent() -> None:
    (player,) = read_fide_xml(_xml(_player(fideid="4600001", name="Weber, Jana", sex="F")), XML_FILE)
    assert player == replace(JANA, federation="", birth_year=None, flags="")


def test_xml_problems_name_their_element_and_its_line() -> None:
    read = list(
        read_fide_xml(
            _xml(
                _player(fideid="46x", name="A"),  # lines 3-6: fideid on line 4
                _player(fideid="4600001", name=""),  # lines 7-10: name on line 9
                _player(fideid="4600001", name="A", birthday="19x0"),  # lines 11-15: birthday on line 14
            ),
            XML_FILE,
        )
    )
    assert read == [
        Problem(XML_FILE, 4, "fideid", "not a number: '46x'"),
        Problem(XML_FILE, 9, "name", "empty"),
        Problem(XML_FILE, 14, "birthday", "not a number: '19x0'"),
    ]


def _refused(lines: list[bytes], limits: ReadLimits | None = None) -> ReadRefusedError:
    with pytest.raises(ReadRefusedError) as refused:
        list(read_fide_xml(lines, XML_FILE, limits))
    return refused.value


def test_a_document_type_alone_is_refused() -> None:
    # no entity in it: the document type declaration itself is what FIDE's list never has
    error = _refused(_xml(_player(fideid="4600001", name="A"), prolog="<!DOCTYPE playerslist>\n"))
    assert (error.kind, error.file, error.values) == ("xml_dtd", XML_FILE, {"line": 2})


def test_xml_deeper_or_longer_than_its_bounds_is_refused_naming_the_bound() -> None:
    deep = _xml("<player>\n<a><b><c>\n</c></b></a>\n</player>\n")  # <c> opens on line 4 at depth 5
    error = _refused(deep, ReadLimits(max_xml_depth=4))
    assert (error.kind, error.values) == ("xml_too_deep", {"line": 4, "bound": 4})
    many = _xml(*[_player(fideid=str(4600001 + k), name="A") for k in range(3)])  # 3 × 3 elements and the root
    error = _refused(many, ReadLimits(max_xml_elements=9))
    assert (error.kind, error.values) == ("xml_too_many_elements", {"bound": 9})
    assert len(list(read_fide_xml(many, XML_FILE, ReadLimits(max_xml_elements=10)))) == 3
