"""TRF records read whole, where the broader tests look at a part: a national line cut inside
its rating, its birth date or its name, in a file with no other national line to compare it
with (``zdb.formats.trf.cut_off``: columns 49-52 and 70-79); a whole last line as long as the
other national lines; the team records ``013``, ``320``, ``330`` and ``240`` by the columns of
FIDE's TRF26 "Team Section" (listed in ``zdb.formats.trf.teams``), each problem with its line,
field, column and text; and a problem's place as ``str`` gives it."""

from __future__ import annotations

from pathlib import Path

from zdb.formats.trf import parse_trf
from zdb.formats.trf.controls import field_at
from zdb.formats.trf.model import Severity, TrfByeRecord, TrfNationalRecord, TrfProblem, TrfTeam, TrfTeamBye
from zdb.formats.trf.players import parse_national
from zdb.formats.trf.problems import Problems
from zdb.formats.trf.teams import parse_013, parse_240, parse_310, parse_320, parse_330

EXAMPLE = Path(__file__).parents[2] / "examples" / "open.trf"
LINES = EXAMPLE.read_text(encoding="utf-8").splitlines()
# the header, players 1 and 2, and player 2's national line (the file's only one, its line 8)
ONE_NATIONAL = LINES[:8]
CUT = (
    "the file ends in the middle of this line (a {code} line ending at column {column}): it is cut off; "
    "send the whole file again, e.g. exported once more from the pairing program"
)


def _cut(last: str, before: list[str] = ONE_NATIONAL[:-1]) -> list[tuple[int | None, str]]:
    return [(p.line, p.message) for p in parse_trf("\n".join([*before, last])).problems if "cut off" in p.message]


def test_the_only_national_line_cut_inside_its_rating_or_birth_date_is_cut_off() -> None:
    national = ONE_NATIONAL[-1]
    assert national.startswith("GER    2 w    Vogel, Petra") and national[48:52] == "2050"
    assert _cut(national[:50]) == [(8, CUT.format(code="GER", column=50))]
    born = national.ljust(69) + "1990/05/17"  # columns 70-79
    assert _cut(born) == []
    assert _cut(born[:70]) == [(8, CUT.format(code="GER", column=70))]


def test_the_only_national_line_cut_inside_its_players_name_is_cut_off() -> None:
    national = ONE_NATIONAL[-1]
    assert _cut(national[:23]) == [(8, CUT.format(code="GER", column=23))]  # "Vogel, Pe"
    assert _cut(national[:26]) == []  # "Vogel, Petra" whole, and no other national line


def test_a_whole_last_national_line_as_long_as_the_others_is_not_cut_off() -> None:
    two = LINES[:10]  # the national lines of players 2 and 3, both 68 characters long
    assert [len(line) for line in two if line.startswith("GER")] == [68, 68]
    assert _cut(two[-1], two[:-1]) == []
    assert _cut(two[-1][:64], two[:-1]) == [(10, CUT.format(code="GER", column=64))]  # in its number


def test_a_player_line_cut_names_its_code_and_column() -> None:
    assert _cut(LINES[5][:20], LINES[:5]) == [(6, CUT.format(code="001", column=20))]  # in the name


def _problems(parse: object, *args: object) -> tuple[object, tuple[TrfProblem, ...]]:
    problems = Problems()
    result = parse(*args, problems)  # type: ignore[operator]
    return result, problems.result()


def test_a_013_team_with_a_tab_before_its_members() -> None:
    # 5-36 the name, start numbers from 37 in steps of 5; a TAB is a blank
    line = "013 " + "Team Rosenheim".ljust(32) + "\t   1    2"
    team, problems = _problems(parse_013, line, 4, 1)
    assert team == TrfTeam(4, 1, "Team Rosenheim", (1, 2), "013") and problems == ()
    nameless, problems = _problems(parse_013, "013 " + " " * 32 + "   3    4", 5, 2)
    assert nameless == TrfTeam(5, 2, "", (3, 4), "013")
    assert problems == (TrfProblem(5, Severity.WARNING, "the team has no name", "013"),)


def test_a_320_bye_record_by_its_columns() -> None:
    # 5-8 match points, 10-13 game points, then the team of round 1 at 15-17, round 2 at 19-21, ...
    line = "320 " + " 1.0" + " " + " 2.5" + " " + "  3" + " " + "   " + " " + " 12"
    byes, problems = _problems(parse_320, line, 9)
    assert problems == ()
    assert byes == [TrfTeamBye(9, 1, 3, 1.0, 2.5), TrfTeamBye(9, 3, 12, 1.0, 2.5)]
    tabbed, _ = _problems(parse_320, "320\t 1.0  2.5   3", 9)  # the TAB stands in column 4
    assert tabbed == [TrfTeamBye(9, 1, 3, 1.0, 2.5)]
    # column 14 belongs to no field: what stands there is not read
    assert _problems(parse_320, "320  1.0  2.5x  3", 9) == ([TrfTeamBye(9, 1, 3, 1.0, 2.5)], ())
    bad, problems = _problems(parse_320, "320  x   2.5x  3   a", 9)
    assert bad == [TrfTeamBye(9, 1, 3, None, None)]
    assert problems == (
        TrfProblem(9, Severity.WARNING, "'x' is not a number", "320 match points"),
        TrfProblem(9, Severity.WARNING, "'2.5x' is not a number", "320 game points"),
        TrfProblem(9, Severity.WARNING, "round 2: team 'a' is not a number", "320", 19),
    )


def test_unreadable_330_and_240_records_are_errors_of_their_line() -> None:
    forfeit, problems = _problems(parse_330, "330 +- x 1 2", 11)
    assert forfeit is None
    assert problems == (
        TrfProblem(11, Severity.ERROR, "cannot read the forfeited match '+- x 1 2' (expected 'TT RRR WWW BBB')", "330"),
    )
    bye, problems = _problems(parse_240, "240 h   3    5   7", 12)
    assert bye == TrfByeRecord(12, "H", 3, (5, 7)) and problems == ()


def test_a_problem_names_its_record_line_column_and_field() -> None:
    assert str(TrfProblem(7, Severity.ERROR, "bad", "round 3", 97)) == "line 7, column 97, round 3: bad"
    assert str(TrfProblem(None, Severity.WARNING, "odd", record="player 7")) == "player 7: odd"
    assert str(TrfProblem(None, Severity.WARNING, "odd")) == "file: odd"


def _national(national_id: str, rating: str = "2050", birth: str = "") -> str:
    """A GER national line of player 2 by the NRS columns: sex 10, name 15-47, rating 49-52,
    origin 54-56, national number 58-68, birth date 70-79."""
    line = (
        "GER    2 w    " + "Vogel, Petra".ljust(33) + " " + rating.rjust(4) + " " + "   " + " " + national_id.ljust(11)
    )
    return (line + " " + birth).rstrip()


def _read_national(line: str) -> tuple[TrfNationalRecord | None, tuple[TrfProblem, ...]]:
    problems = Problems()
    return parse_national(line, 8, problems), problems.result()


def test_a_ger_national_number_with_the_zps_ended_by_its_letter() -> None:
    # "C0327123": a five-character ZPS whose letter shows it is no person number, then member 123
    record, problems = _read_national(_national("C0327123"))
    assert record is not None and problems == ()
    assert (record.club_code, record.member_no, record.person_no) == ("C0327", "123", None)
    assert (record.sex, record.name, record.rating) == ("w", "Vogel, Petra", 2050)


def test_a_national_lines_unreadable_values_are_named() -> None:
    record, problems = _read_national(_national("X12", rating="20x0"))
    assert record is not None and (record.rating, record.club_code, record.person_no) == (None, None, None)
    assert problems == (
        TrfProblem(8, Severity.WARNING, "national rating '20x0' is not a number", "national rating"),
        TrfProblem(
            8,
            Severity.WARNING,
            "GER national number 'X12' is neither ZPS and membership number nor a person number",
            "national number",
        ),
    )
    _, problems = _read_national(_national("10126-3", birth="1990/13/45"))
    assert [(p.line, p.severity, p.field) for p in problems] == [(8, Severity.ERROR, "birth date")]


def test_a_title_written_in_small_letters_is_the_title() -> None:
    player = LINES[5][:10] + "wgm" + LINES[5][13:]  # columns 11-13
    document = parse_trf("\n".join([*LINES[:5], player]) + "\n")
    assert document.players[0].title == "WGM"


def test_a_column_between_a_player_lines_fields_is_its_layout() -> None:
    # 1-3 code, 5-8 start number, 10 sex, 11-13 title, 14-47 name, 49-52 rating, 54-56 federation,
    # 58-68 id, 70-80 birth date, 81-84 points, 86-89 rank, rounds from 92
    assert [field_at("001", column, True) for column in (4, 9, 48, 53, 57, 69, 85, 90, 91)] == ["layout"] * 9
    assert [field_at("001", column, True) for column in (3, 5, 47, 92, 101, 102)] == [
        "record code",
        "start number",
        "name",
        "round 1",
        "round 1",
        "round 2",
    ]


def _team_310(number: str, name: str, rank: str = "  1", strength: str = "") -> str:
    """A 310 line by TRF26's columns: 5-7 number, 9-40 name, 42-46 nickname, 48-53 strength
    factor, 55-60 match points, 62-67 game points, 69-71 rank, members from 74 in steps of 5."""
    return (
        "310 "
        + number.rjust(3)
        + " "
        + name.ljust(32)
        + " "
        + "ROS".ljust(5)
        + " "
        + strength.rjust(6)
        + " "
        + "3.0".rjust(6)
        + " "
        + "5.5".rjust(6)
        + " "
        + rank.rjust(3)
        + "  "
        + "   1    2"
    )


def test_a_310_team_by_its_columns_and_its_problems() -> None:
    team, problems = _problems(parse_310, _team_310("7", "Rosenheim", strength="1.25"), 3)
    assert problems == ()
    assert team == TrfTeam(3, 7, "Rosenheim", (1, 2), "310", "ROS", 1.25, 3.0, 5.5, 1)
    bad, problems = _problems(parse_310, _team_310("x", "Rosenheim"), 3)
    assert bad is None
    assert problems == (TrfProblem(3, Severity.ERROR, "team number 'x' is not a positive number", "310", 5),)
    odd, problems = _problems(parse_310, _team_310("7", "", rank="1x"), 3)
    assert odd is not None and (odd.name, odd.rank) == ("", None)
    assert problems == (
        TrfProblem(3, Severity.WARNING, "the team has no name", "310"),
        TrfProblem(3, Severity.WARNING, "team rank '1x' is not a number", "310"),
    )
