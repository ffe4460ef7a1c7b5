"""The checks of a round's cells, each problem whole (line, severity, field and text): a result
without an opponent, a colour without an opponent, a cell that names nobody back, a colour given
by one side only, an asymmetric result, and the ``013`` teams of a file that also has ``310``
lines. The files are made here by the columns of FIDE's player section (1-3 ``001``, 5-8 start
number, 15-47 name, 81-84 points, 86-89 rank; each round from column 92 in ten columns:
92-95 opponent, 97 colour, 99 result), so each expectation follows from the input."""

from __future__ import annotations

from zdb.formats.trf import parse_trf
from zdb.formats.trf.checks import _compare_013
from zdb.formats.trf.dates import parse_birth
from zdb.formats.trf.decode import decode
from zdb.formats.trf.games import white_and_black
from zdb.formats.trf.model import Severity, TrfProblem, TrfTeam
from zdb.formats.trf.problems import Problems


def _cell(opponent: int, colour: str, result: str) -> str:
    return f"{opponent:>4} {colour} {result}  "


def _player(no: int, points: str, *cells: str) -> str:
    static = f"001 {no:>4} m    {f'Player {no}':<33} {'':>4} GER {'':>11} {'':10} {points:>4} {no:>4}  "
    assert len(static) == 91  # the rounds start at column 92
    return (static + "".join(cells)).rstrip()


def _problems(*players: str) -> list[tuple[int | None, Severity, str | None, str]]:
    """The problems of the rounds (the file has no dates, and the points are not what is checked)."""
    document = parse_trf("012 Test\n" + "".join(line + "\n" for line in players))
    return [(p.line, p.severity, p.field, p.message) for p in document.problems if p.field == "round 1"]


def test_a_result_or_a_colour_without_an_opponent_is_read_as_a_bye_and_told() -> None:
    problems = _problems(
        _player(1, "1.0", _cell(0, "-", "1")),
        _player(2, "1.0", _cell(0, "w", "U")),
        _player(3, "1.0", _cell(4, "w", "1")),  # a game: the round has results
        _player(4, "0.0", _cell(3, "b", "0")),
    )
    assert problems == [
        (2, Severity.WARNING, "round 1", "result '1' without an opponent; read as full-point bye"),
        (3, Severity.WARNING, "round 1", "colour 'w' without an opponent; ignored"),
    ]


def test_an_opponent_whose_cell_is_blank_is_an_error_of_the_player_naming_him() -> None:
    problems = _problems(_player(1, "1.0", _cell(2, "w", "1")), _player(2, "0.0", " " * 10))
    assert (2, Severity.ERROR, "round 1", "player 1 has opponent 2, but player 2's cell is blank") in problems


def test_a_colour_given_by_one_side_only_is_told_on_the_lower_numbers_line() -> None:
    problems = _problems(_player(1, "1.0", _cell(2, "w", "1")), _player(2, "0.0", _cell(1, " ", "0")))
    assert problems == [(2, Severity.WARNING, "round 1", "player 2 gives no colour for the game 1-2")]


def test_an_asymmetric_result_is_told_with_its_round() -> None:
    problems = _problems(_player(1, "0.0", _cell(2, "w", "0")), _player(2, "0.0", _cell(1, "b", "0")))
    assert problems == [(2, Severity.WARNING, "round 1", "asymmetric result '0'/'0' between 1 and 2; not rated")]


def _team(line: int, number: int, name: str, members: tuple[int, ...], source: str) -> TrfTeam:
    return TrfTeam(line, number, name, members, source)


def test_013_teams_are_compared_with_the_310_teams() -> None:
    teams_310 = (_team(2, 1, "Rosenheim", (1, 2), "310"), _team(3, 2, "Lindenau", (3, 4), "310"))
    same = [_team(4, 1, "Rosenheim", (1, 2), "013"), _team(5, 2, "Lindenau", (3, 4), "013")]
    problems = Problems()
    _compare_013(teams_310, same, problems)
    assert problems.result() == ()
    other = [_team(4, 1, "Rosenheim", (1, 2), "013"), _team(5, 2, "Lindenau", (3, 5), "013")]
    problems = Problems()
    _compare_013(teams_310, other, problems)
    assert problems.result() == (
        TrfProblem(5, Severity.WARNING, "013 team 2 'Lindenau' differs from its 310 line; 310 is used", "013"),
    )
    problems = Problems()
    _compare_013(teams_310, same[:1], problems)
    assert problems.result() == (TrfProblem(4, Severity.WARNING, "1 013 teams but 2 310 teams; 310 is used", "013"),)


def _all_problems(*players: str) -> list[tuple[int | None, str | None, str]]:
    document = parse_trf("012 Test\n" + "".join(line + "\n" for line in players))
    return [(p.line, p.field, p.message) for p in document.problems if p.field not in ("052", "points")]


def test_a_player_lines_odd_sex_title_and_name_are_told_on_its_line() -> None:
    game = (_cell(2, "w", "1"), _cell(1, "b", "0"))
    first = _player(1, "1.0", game[0])
    odd = first[:9] + "x" + "XY" + first[12:]  # column 10 sex, 11-13 title
    nameless = _player(2, "0.0", game[1])
    nameless = nameless[:14] + " " * 33 + nameless[47:]
    assert _all_problems(odd, nameless) == [
        (2, "sex", "sex 'x' is not m or w; ignored"),
        (2, "title", "unknown title 'XY'; kept as written"),
        (3, "name", "the player has no name"),
    ]
    early = first[:13] + "P" + first[14:]  # the name one column early
    assert (2, "name", "the name starts in column 14 instead of 15") in _all_problems(early, _player(2, "0.0", game[1]))


def test_a_cell_after_an_unreadable_one_is_read() -> None:
    one = _player(1, "1.0", "  x2 w 1  ", _cell(2, "w", "1"))
    two = _player(2, "0.0", _cell(1, "b", "0"), _cell(1, "b", "0"))
    document = parse_trf("012 Test\n" + one + "\n" + two + "\n")
    cell = document.players[0].cell(2)
    assert cell is not None and (cell.opponent, cell.colour, cell.result) == (2, "w", "1")


def test_the_one_colour_given_decides_both() -> None:
    # player 1 says black, player 2 gives no colour: player 2 had white
    document = parse_trf(
        "012 Test\n" + _player(1, "1.0", _cell(2, "b", "1")) + "\n" + _player(2, "0.0", _cell(1, " ", "0")) + "\n"
    )
    one, two = document.players
    assert white_and_black(one, one.cells[0], two.cells[0]) == (False, True)
    assert white_and_black(two, two.cells[0], one.cells[0]) == (True, True)


def test_a_header_number_that_is_none_is_ignored_and_told() -> None:
    document = parse_trf("012 Test\n062 abc\n" + _player(1, "0.0") + "\n")
    assert [(p.line, p.field, p.message) for p in document.problems if p.field == "062"] == [
        (2, "062", "'abc' is not a number; ignored")
    ]


def test_birth_years_from_1850_to_2099_are_plausible() -> None:
    # the bounds the message names ("a birth year lies between 1850 and 2099"), both included
    assert parse_birth("1850")[:2] == (1850, None) and parse_birth("1850")[2] is None
    assert parse_birth("2099")[:2] == (2099, None) and parse_birth("2099")[2] is None
    assert parse_birth("1849")[2] is not None and parse_birth("2100")[2] is not None


def test_a_file_neither_utf8_nor_windows_1252_is_read_as_latin_1() -> None:
    # 0x81 is one of the five bytes Windows-1252 leaves undefined
    problems = Problems()
    text, encoding = decode(b"012 Caf\xe9 \x81\n", problems)
    assert (text, encoding) == ("012 Caf\xe9 \x81\n", "iso-8859-1")
    assert [(p.line, p.field, p.message) for p in problems.result()] == [
        (1, "encoding", "the file is not valid UTF-8 (first invalid byte 0xE9); decoded as ISO-8859-1")
    ]


def _document_problems(head: str, *players: str) -> list[tuple[int | None, str | None, str]]:
    document = parse_trf(head + "".join(line + "\n" for line in players))
    return [(p.line, p.field, p.message) for p in document.problems]


GAME = (_player(1, "1.0", _cell(2, "w", "1")), _player(2, "0.0", _cell(1, "b", "0")))
DATED = "012 Test\n042 2026/11/27\n052 2026/11/29\n"


def test_the_header_and_bye_records_problems_whole() -> None:
    foreign = GAME[0][:53] + "XYZ" + GAME[0][56:]  # columns 54-56
    problems = _document_problems(DATED + "142 1\nXXR 2\n240 H   1    9\n", foreign, GAME[1])
    for told in [
        (5, "XXR", "XXR says 2 rounds but 142 says 1"),
        (6, "240", "bye for player 9, but there is no such player"),
        (
            7,
            "federation",
            "the federation column of 1 players holds codes that are not FIDE federations (XYZ); kept as written",
        ),
    ]:
        assert told in problems
    problems = _document_problems(DATED + "240 F   1    2\n", *GAME)
    assert problems == [(4, "240", "F bye for player 2 in round 1, but the player line has '1 b 0'")]


def test_round_dates_out_of_order_are_told_by_round() -> None:
    # 132: one date per round from column 92 in steps of ten
    dates = "132" + " " * 88 + "26/11/28  26/11/27"
    second = (
        _player(1, "1.0", _cell(2, "w", "1"), _cell(2, "b", "0")),
        _player(2, "1.0", _cell(1, "b", "0"), _cell(1, "w", "1")),
    )
    problems = _document_problems(DATED + dates + "\n", *second)
    assert (None, "132 round 2", "round date 2026-11-27 is before the previous round's 2026-11-28") in problems
