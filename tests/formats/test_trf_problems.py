"""Hand-made TRF inputs, broken on purpose: each problem is reported, with the right line number,
and several problems come back together in one result."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from zdb.formats.trf import Severity, TrfDocument, TrfProblem, parse_trf

Cell = tuple[int | None, str, str]  # opponent (0 is written 0000, None leaves the field blank), colour, result


def player_line(
    no: int,
    name: str,
    cells: Sequence[Cell] = (),
    *,
    sex: str = " ",
    title: str = "",
    rating: int | str = "",
    fed: str = "",
    fide: int | str = "",
    birth: str = "",
    points: float | None = None,
    rank: int | str = "",
) -> str:
    """A 001 line in the TRF16/TRF26 column layout (5-8 start, 10 sex, 11-13 title, 15-47 name,
    49-52 rating, 54-56 federation, 58-68 FIDE id, 70-79 birth, 81-84 points, 86-89 rank, 92+ rounds)."""
    points_text = "" if points is None else f"{points:4.1f}"
    static = (
        f"001 {no:>4} {sex:1}{title:>3} {name:<33} {rating!s:>4} {fed:<3} {fide!s:>11} {birth:<10} "
        f"{points_text:>4} {rank!s:>4}  "
    )
    assert len(static) == 91
    round_part = "".join(f"{_opponent(opp)} {colour:1} {result:1}  " for opp, colour, result in cells)
    return (static + round_part).rstrip()


def _opponent(opp: int | None) -> str:
    return "    " if opp is None else f"{opp:04d}" if opp == 0 else f"{opp:>4}"


def trf(*lines: str) -> str:
    return "\n".join(lines) + "\n"


def by_line(doc: TrfDocument, line: int) -> list[TrfProblem]:
    return [p for p in doc.problems if p.line == line]


def errors_text(doc: TrfDocument) -> list[str]:
    return [str(p) for p in doc.errors]


def test_builder_matches_the_documented_columns() -> None:
    line = player_line(
        7,
        "Doe, Jane",
        [(12, "w", "1")],
        sex="w",
        title="WIM",
        rating=2100,
        fed="GER",
        fide=12345678,
        birth="1990/05/17",
        points=1.0,
        rank=3,
    )
    assert line[4:8] == "   7" and line[9] == "w" and line[10:13] == "WIM"
    assert line[14:23] == "Doe, Jane" and line[48:52] == "2100" and line[53:56] == "GER"
    assert line[57:68] == "   12345678" and line[69:79] == "1990/05/17" and line[80:84] == " 1.0"
    assert line[85:89] == "   3" and line[91:99] == "  12 w 1"


def test_a_clean_file_has_no_problems() -> None:
    doc = parse_trf(
        trf(
            "012 Clean",
            "042 2024/05/01",
            "052 2024/05/02",
            player_line(1, "A", [(2, "w", "1")], points=1.0),
            player_line(2, "B", [(1, "b", "0")], points=0.0),
        )
    )
    assert doc.problems == ()
    assert doc.ok


def test_unknown_opponent_names_line_round_and_count() -> None:
    doc = parse_trf(
        trf(
            "012 Unknown opponent",
            player_line(1, "A", [(2, "w", "1"), (3, "b", "=")]),
            player_line(2, "B", [(1, "b", "0"), (3, "w", "=")]),
            player_line(3, "C", [(0, "-", "U"), (45, "w", "1")]),
        )
    )
    assert "line 4, round 2: opponent 45 does not exist (only 3 players)" in errors_text(doc)


def test_inconsistent_results_are_an_error_on_the_lower_players_line() -> None:
    doc = parse_trf(
        trf(
            "012 Both won",
            player_line(5, "A", [(12, "w", "1")]),
            player_line(12, "B", [(5, "b", "1")]),
        )
    )
    (problem,) = doc.errors
    assert problem.line == 2 and problem.field == "round 1"
    assert "results do not match: 5 has '1' against 12, but 12 has '1' against 5" in problem.message
    assert list(_games(doc)) == []  # an inconsistent pairing is never turned into a game


def test_forfeit_must_pair_with_forfeit_and_draw_with_draw() -> None:
    doc = parse_trf(
        trf(
            player_line(1, "A", [(2, "w", "+"), (2, "b", "=")]),
            player_line(2, "B", [(1, "b", "0"), (1, "w", "1")]),
        )
    )
    messages = errors_text(doc)
    assert "line 1, round 1: results do not match: 1 has '+' against 2, but 2 has '0' against 1" in messages
    assert "line 1, round 2: results do not match: 1 has '=' against 2, but 2 has '1' against 1" in messages


def test_opponent_naming_someone_else_is_caught() -> None:
    doc = parse_trf(
        trf(
            player_line(1, "A", [(2, "w", "1")]),
            player_line(2, "B", [(3, "b", "0")]),
            player_line(3, "C", [(0, "-", "U")]),
        )
    )
    assert errors_text(doc) == [
        "line 1, round 1: player 1 has opponent 2, but player 2's cell names 3",
        "line 2, round 1: player 2 has opponent 3, but player 3's cell has no opponent ('0000 - U')",
    ]


def test_a_player_twice_in_one_round_is_caught() -> None:
    doc = parse_trf(
        trf(
            "012 Twice",
            player_line(1, "A", [(3, "w", "1")]),
            player_line(2, "B", [(3, "w", "1")]),
            player_line(3, "C", [(1, "b", "0")]),
        )
    )
    twice = [p for p in doc.errors if "paired twice" in p.message]
    assert len(twice) == 1
    assert str(twice[0]) == "line 3, round 1: player 3 is paired twice in this round, by 1 (line 2) and 2 (line 3)"


def test_both_players_with_the_same_colour_is_an_error() -> None:
    doc = parse_trf(trf(player_line(1, "A", [(2, "w", "1")]), player_line(2, "B", [(1, "w", "0")])))
    assert errors_text(doc) == ["line 1, round 1: players 1 and 2 both have white against each other"]


def test_self_pairing_and_bye_code_against_an_opponent() -> None:
    doc = parse_trf(trf(player_line(1, "A", [(1, "w", "1")]), player_line(2, "B", [(1, "b", "H")])))
    messages = errors_text(doc)
    assert "line 1, round 1: player 1 is paired with himself" in messages
    assert "line 2, round 1: result 'H' is a bye code, but the cell names opponent 1" in messages


def test_several_problems_are_reported_together_in_line_order() -> None:
    doc = parse_trf(
        trf(
            "012 Many problems",  # 1
            "042 2024/13/45",  # 2: malformed date
            "ABC something",  # 3: unknown code (warning)
            player_line(1, "A", [(2, "w", "1")], points=1.0),  # 4
            player_line(2, "B", [(1, "b", "1")], points=0.0),  # 5: inconsistent with 4, points wrong
            player_line(2, "B again", [(1, "b", "0")]),  # 6: duplicate start number
            player_line(3, "C", [(9, "w", "1")], birth="1990/02/30"),  # 7: unknown opponent, bad birth date
        )
    )
    assert {(p.line, p.severity) for p in doc.problems} >= {
        (2, Severity.ERROR),
        (3, Severity.WARNING),
        (4, Severity.ERROR),
        (5, Severity.WARNING),
        (6, Severity.ERROR),
        (7, Severity.ERROR),
    }
    lines = [p.line for p in doc.problems if p.line is not None]
    assert lines == sorted(lines)
    messages = [str(p) for p in doc.problems]
    assert "line 2, 042: '2024/13/45' is not a valid date" in messages
    assert "line 3, record code: unknown record code 'ABC'; line kept, not used" in messages
    assert "line 6, start number: start number 2 is used twice (first on line 5); this line is ignored" in messages
    assert "line 7, birth date: birth date '1990/02/30' is not a valid date" in messages
    assert "line 7, round 1: opponent 9 does not exist (only 3 players)" in messages
    assert "line 5, points: the points column says 0 but the results add up to 1" in messages
    assert not doc.ok


def test_unreadable_cell_and_start_number() -> None:
    good = player_line(1, "A", [(2, "w", "1"), (2, "b", "0")])
    broken = good[:101] + "  2x b 0"
    doc = parse_trf(trf(broken, player_line(2, "B", [(1, "b", "0"), (1, "w", "1")]), "001  ab  C"))
    problems = {(p.line, p.field, p.column) for p in doc.errors}
    assert (1, "round 2", 102) in problems
    assert (3, "start number", None) in problems
    assert len(doc.players) == 2  # the unreadable cell does not cost the whole player


def test_a_player_line_without_blank_column_4_is_an_error() -> None:
    doc = parse_trf(trf(player_line(1, "A"), "001x   2      B"))
    assert [(p.line, p.column) for p in doc.errors] == [(2, 4)]
    assert len(doc.players) == 1


def test_malformed_header_dates_are_errors_naming_the_text() -> None:
    doc = parse_trf(trf("042 31.02.2024", "052 2024/1x/01", player_line(1, "A")))
    assert errors_text(doc) == [
        "line 1, 042: '31.02.2024' is not a valid date",
        "line 2, 052: '2024/1x/01' is not a valid date",
    ]
    assert doc.start_date is None and doc.end_date is None


def test_placeholder_dates_are_warnings() -> None:
    doc = parse_trf(trf("042 (START DATE)", player_line(1, "A")))
    assert doc.errors == ()
    assert "line 1, 042: '(START DATE)' is not a date; taken as unknown" in [str(p) for p in doc.warnings]


def test_missing_end_date_is_a_document_warning() -> None:
    doc = parse_trf(trf("012 X", player_line(1, "A")))
    (problem,) = doc.problems
    assert problem.line is None and problem.severity is Severity.WARNING and "no end date" in problem.message


def test_unknown_codes_are_kept_as_warnings_and_legends_rulers_comments_are_silent() -> None:
    doc = parse_trf(
        trf(
            "### a comment",
            "DDD SSSS sTTT NNNN",
            "0123456789012345678901234567890",
            "         1         2",
            "   ",
            "",
            "TNR 10",
            "999 something",
            player_line(1, "A"),
        )
    )
    assert [(p.line, p.severity) for p in doc.problems if p.line] == [(7, Severity.WARNING), (8, Severity.WARNING)]
    assert [r.code for r in doc.records] == ["TNR", "999"]
    assert doc.name is None  # the ruler beginning with 012 is no tournament name


def test_header_counts_that_disagree_are_warnings() -> None:
    games = [(2, "w", "="), (2, "b", "="), (2, "w", "=")], [(1, "b", "="), (1, "w", "="), (1, "b", "=")]
    doc = parse_trf(trf("062 3", "142 2", player_line(1, "A", games[0]), player_line(2, "B", games[1])))
    messages = [str(p) for p in doc.warnings]
    assert "line 1, 062: 062 says 3 players but there are 2" in messages
    assert "142: 142 declares 2 rounds but the player lines hold 3" in messages
    assert doc.errors == ()


def test_more_rounds_declared_than_played_is_an_unfinished_tournament() -> None:
    # Before: a warning "142 declares 4 rounds but the player lines hold 1", and the file was rated.
    doc = parse_trf(trf("062 2", "142 4", player_line(1, "A", [(2, "w", "=")]), player_line(2, "B", [(1, "b", "=")])))
    assert [str(p) for p in doc.errors] == [
        "line 2, 142: the tournament is not finished: record 142 announces 4 rounds, but there are no results "
        "for rounds 2 to 4; if it ended after round 1, correct record 142"
    ]


def test_game_without_result_and_one_sided_result() -> None:
    doc = parse_trf(
        trf(
            player_line(1, "A", [(2, "w", ""), (2, "b", "1")]),
            player_line(2, "B", [(1, "b", ""), (1, "w", "")]),
        )
    )
    assert "line 1, round 1: the game 1-2 has no result" in [str(p) for p in doc.warnings]
    assert "line 1, round 2: player 1 has a result against 2, but 2 has none" in errors_text(doc)


def test_asymmetric_results_are_warnings() -> None:
    doc = parse_trf(trf(player_line(1, "A", [(2, "w", "0")]), player_line(2, "B", [(1, "b", "0")])))
    assert doc.errors == ()
    assert any("asymmetric result '0'/'0' between 1 and 2" in p.message for p in doc.warnings)


def test_tabs_in_a_player_line_are_reported() -> None:
    doc = parse_trf(trf(player_line(1, "A\tB", [(2, "w", "1")]), player_line(2, "B", [(1, "b", "0")])))
    assert any(p.line == 1 and "TAB" in p.message for p in doc.warnings)
    assert doc.players[0].name == "A B" and doc.errors == ()


def test_no_player_lines_is_an_error() -> None:
    doc = parse_trf("012 Empty\n")
    assert [str(p) for p in doc.errors] == ["001: the file has no readable player lines (001)"]


@pytest.mark.parametrize(
    "junk",
    ["", "\x00\x01\x02", "001", "001 9999", "\ufeff", "132 99/99/99", "310 x"],
    # ASCII ids (tests/vector_compare.case_id says why)
    ids=["empty", "control", "001", "001 9999", "bom", "132 99/99/99", "310 x"],
)
def test_tiny_junk_never_raises(junk: str) -> None:
    doc = parse_trf(junk)
    assert isinstance(doc, TrfDocument)
    assert doc.problems


def test_team_records_naming_unknown_players_or_teams() -> None:
    doc = parse_trf(
        trf(
            player_line(1, "A", [(2, "w", "1")]),
            player_line(2, "B", [(1, "b", "0")]),
            "310   1 Alpha" + " " * 60 + "1    7",
            "310   2 Beta" + " " * 61 + "2    1",
            "330 +-   1   1   9",
        )
    )
    messages = errors_text(doc)
    assert "line 3, 310: team 'Alpha' lists start number 7, but there is no such player" in messages
    assert "line 4, 310: player 1 is in team 'Beta' and in team 'Alpha'" in messages
    assert "line 5, 330: team 9 does not exist" in messages


def _games(doc: TrfDocument) -> list[object]:
    from zdb.formats.trf import iter_games

    return list(iter_games(doc))
