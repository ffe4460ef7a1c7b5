"""iter_games and iter_byes: each pairing once, TRF codes mapped to engine codes, byes by kind."""

from __future__ import annotations

import pytest

from tests.formats.test_trf_problems import player_line, trf
from zdb.formats.trf import ByeKind, iter_byes, iter_games, parse_trf
from zdb.rating import ResultCode


@pytest.mark.parametrize(
    ("white_code", "black_code", "expected", "rated"),
    [
        ("1", "0", ResultCode.WHITE_WINS, True),
        ("0", "1", ResultCode.BLACK_WINS, True),
        ("=", "=", ResultCode.DRAW, True),
        ("+", "-", ResultCode.WHITE_WINS_FORFEIT, False),
        ("-", "+", ResultCode.BLACK_WINS_FORFEIT, False),
        ("-", "-", ResultCode.DOUBLE_FORFEIT, False),
        ("W", "L", ResultCode.WHITE_WINS_FORFEIT, False),
        ("L", "W", ResultCode.BLACK_WINS_FORFEIT, False),
        ("D", "D", ResultCode.DRAW, False),
        ("0", "0", ResultCode.BOTH_LOSE, False),
    ],
)
def test_result_mapping(white_code: str, black_code: str, expected: ResultCode, rated: bool) -> None:
    # Black has the lower start number, so the game must come out with 2 as white.
    doc = parse_trf(trf(player_line(1, "A", [(2, "b", black_code)]), player_line(2, "B", [(1, "w", white_code)])))
    (game,) = iter_games(doc)
    assert (game.round, game.white, game.black, game.result, game.rated) == (1, 2, 1, expected, rated)
    assert game.codes == (white_code, black_code) and game.colours_known
    assert doc.errors == ()


def test_a_game_unpacks_as_round_white_black_and_code() -> None:
    doc = parse_trf(trf(player_line(1, "A", [(2, "w", "=")]), player_line(2, "B", [(1, "b", "=")])))
    [(round_no, white, black, code)] = iter_games(doc)
    assert (round_no, white, black, code) == (1, 1, 2, "1/2-1/2")


def test_lowercase_codes_are_accepted() -> None:
    doc = parse_trf(trf(player_line(1, "A", [(2, "W", "w")]), player_line(2, "B", [(1, "B", "l")])))
    (game,) = iter_games(doc)
    assert (game.white, game.result, game.rated) == (1, ResultCode.WHITE_WINS_FORFEIT, False)


def test_each_pairing_once_over_several_rounds() -> None:
    doc = parse_trf(
        trf(
            player_line(1, "A", [(2, "w", "1"), (3, "b", "="), (0, "-", "H")]),
            player_line(2, "B", [(1, "b", "0"), (0, "-", "U"), (3, "w", "0")]),
            player_line(3, "C", [(0, "-", "Z"), (1, "w", "="), (2, "b", "1")]),
        )
    )
    games = [(g.round, g.white, g.black, g.result.value) for g in iter_games(doc)]
    assert games == [(1, 1, 2, "1-0"), (2, 3, 1, "1/2-1/2"), (3, 2, 3, "0-1")]
    byes = [(b.round, b.start_no, b.kind, b.points) for b in iter_byes(doc)]
    assert byes == [
        (1, 3, ByeKind.ZERO_POINT, 0.0),
        (2, 2, ByeKind.PAIRING_ALLOCATED, 1.0),
        (3, 1, ByeKind.HALF_POINT, 0.5),
    ]
    assert doc.problems[:-1] == ()  # only the missing end date


def test_missing_colours_use_the_lower_start_number_with_a_warning() -> None:
    doc = parse_trf(trf(player_line(1, "A", [(2, "-", "1")]), player_line(2, "B", [(1, "", "0")])))
    (game,) = iter_games(doc)
    assert (game.white, game.black, game.colours_known) == (1, 2, False)
    assert any("lower start number is taken as white" in p.message for p in doc.warnings)


def test_one_sided_colour_is_enough() -> None:
    doc = parse_trf(trf(player_line(1, "A", [(2, "-", "0")]), player_line(2, "B", [(1, "w", "1")])))
    (game,) = iter_games(doc)
    assert (game.white, game.black, game.result, game.colours_known) == (2, 1, ResultCode.WHITE_WINS, True)


@pytest.mark.parametrize(
    ("cell", "kind", "points"),
    [
        ((0, "-", "H"), ByeKind.HALF_POINT, 0.5),
        ((0, "-", "F"), ByeKind.FULL_POINT, 1.0),
        ((0, "-", "U"), ByeKind.PAIRING_ALLOCATED, 1.0),
        ((0, "-", "Z"), ByeKind.ZERO_POINT, 0.0),
        ((0, "-", "+"), ByeKind.PAIRING_PLUS, 1.0),
        ((0, "-", "-"), ByeKind.NOT_PAIRED, 0.0),
        ((0, "-", ""), ByeKind.ZERO_POINT, 0.0),
        ((None, "", "H"), ByeKind.HALF_POINT, 0.5),  # lichess: no 0000, no colour
        ((None, "", "-"), ByeKind.NOT_PAIRED, 0.0),
        ((None, "-", ""), ByeKind.ZERO_POINT, 0.0),  # ICU: dash in the colour column only
        ((None, "", ""), ByeKind.ABSENT, 0.0),
    ],
)
def test_bye_kinds(cell: tuple[int | None, str, str], kind: ByeKind, points: float) -> None:
    # Round 2 is played, so a blank round-1 cell is inside the document's rounds.
    doc = parse_trf(
        trf(player_line(1, "A", [cell, (2, "w", "1")]), player_line(2, "B", [(0, "-", "Z"), (1, "b", "0")]))
    )
    (bye,) = (b for b in iter_byes(doc) if b.start_no == 1)
    assert (bye.round, bye.kind, bye.points) == (1, kind, points)
    assert doc.errors == ()


def test_game_code_without_opponent_is_read_as_bye_with_a_warning() -> None:
    doc = parse_trf(trf(player_line(1, "A", [(0, "-", "1")])))
    (bye,) = iter_byes(doc)
    assert bye.kind is ByeKind.FULL_POINT
    assert any("without an opponent" in p.message for p in doc.warnings)


def test_inconsistent_and_unfinished_pairings_are_left_out() -> None:
    doc = parse_trf(
        trf(
            player_line(1, "A", [(2, "w", "1"), (2, "b", "")]),
            player_line(2, "B", [(1, "b", "1"), (1, "w", "")]),
        )
    )
    assert list(iter_games(doc)) == []
    # round 1: both claim the win; round 2 is paired without results: the tournament is not finished
    assert [p.field for p in doc.errors] == ["round 1", "round 2"]
    assert "not finished" in doc.errors[1].message
