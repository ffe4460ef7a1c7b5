"""A TRF file that is damaged in ways a lenient reader would rate: a player line cut off before
its round results, a control character (ESC, NUL) in a name or value, an implausible date such
as ``0001/01/01``. Each is an error naming its line, field and (where it has one) column."""

from __future__ import annotations

from pathlib import Path

from zdb.formats.trf import Severity, TrfProblem, parse_trf

OPEN = (Path(__file__).parents[2] / "examples" / "open.trf").read_text(encoding="utf-8")
FUCHS = 6  # the line of player 1 (3.0 points) in examples/open.trf
KRANZ = 15  # the line of player 6, born 2012/04/05


def _errors(text: str) -> list[TrfProblem]:
    return [p for p in parse_trf(text).problems if p.severity is Severity.ERROR]


def _with(line: int, new: str) -> str:
    lines = OPEN.splitlines()
    lines[line - 1] = new
    return "\n".join(lines) + "\n"


def _line(line: int) -> str:
    return OPEN.splitlines()[line - 1]


def test_the_example_has_no_errors() -> None:
    assert _errors(OPEN) == []


def test_a_player_line_cut_before_its_round_results_is_an_error_on_its_line() -> None:
    cut = _line(FUCHS)[:84]  # the points (3.0) kept, the rank and every round cell gone
    found = [p for p in _errors(_with(FUCHS, cut)) if p.line == FUCHS]
    assert [(p.field, p.column, p.message) for p in found] == [
        ("rounds", 85, "the player line ends at column 84, before the round results (from column 92): it is cut off")
    ]


def test_a_player_line_cut_in_its_name_is_an_error_on_its_line() -> None:
    found = [p for p in _errors(_with(FUCHS, _line(FUCHS)[:26])) if p.line == FUCHS]  # "…Fuchs, Dani"
    assert [(p.field, p.column) for p in found] == [("rounds", 27)]


def test_a_player_without_points_and_round_cells_played_no_round() -> None:
    """Writers trim a player's blank cells: with his points (0) the line is whole."""
    absent = "001    7 m    Abwesend, Anton                                                 0.0    7"
    lines = OPEN.splitlines()
    lines.insert(KRANZ, absent)
    assert [p for p in _errors("\n".join(lines) + "\n") if p.line == KRANZ + 1] == []


def test_an_esc_in_a_name_is_an_error_naming_the_field() -> None:
    damaged = _line(FUCHS).replace("Fuchs, D", "Fuchs\x1b[D", 1)  # as long as before: the columns stay
    found = _errors(_with(FUCHS, damaged))
    assert [(p.line, p.field, p.column) for p in found] == [(FUCHS, "name", 20)]
    assert found[0].message.startswith("a control character (ESC) in column 20")


def test_a_nul_in_a_name_is_an_error_naming_the_field() -> None:
    damaged = _line(FUCHS).replace("Fuchs, D", "Fuchs\x00 D", 1)
    found = _errors(_with(FUCHS, damaged))
    assert [(p.line, p.field, p.column) for p in found] == [(FUCHS, "name", 20)]
    assert "(NUL)" in found[0].message


def test_a_control_character_in_a_header_record_names_the_record() -> None:
    found = _errors(_with(1, _line(1) + "\x07"))
    assert [(p.line, p.field) for p in found] == [(1, "012")]


def test_the_dos_end_of_file_mark_is_no_problem() -> None:
    assert _errors(OPEN + "\x1a") == []


def test_an_implausible_start_date_is_an_error_naming_the_line() -> None:
    found = _errors(_with(3, "042 0001/01/01"))
    assert [(p.line, p.field, p.message) for p in found] == [
        (3, "042", "'0001/01/01' is not a plausible date: a tournament's dates lie between 1900 and 2099")
    ]


def test_an_implausible_birth_date_is_a_warning_naming_the_line() -> None:
    # one player's mistyped birth date does not refuse the tournament: the birth stays unknown
    document = parse_trf(_with(KRANZ, _line(KRANZ).replace("2012/04/05", "0001/01/01")))
    assert not [p for p in document.problems if p.severity is Severity.ERROR]
    named = [p for p in document.problems if p.field == "birth date"]
    assert [(p.line, p.severity, "not plausible" in p.message) for p in named] == [(KRANZ, Severity.WARNING, True)]
    assert next(p for p in document.players if p.line == KRANZ).birth_year is None
