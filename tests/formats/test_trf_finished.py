"""A tournament that is not finished is refused: rounds announced but not played, a round half
played. A player who withdrew is no unfinished round. (Header records given twice:
``test_trf_header_records.py``.)"""

from __future__ import annotations

from tests.formats.test_trf_problems import Cell, player_line, trf
from zdb.formats.trf import TrfDocument, parse_trf
from zdb.formats.trf.finished import is_unfinished

#: four players, every round a result: (round, white, black); all draws
SCHEDULE = [
    (1, 1, 2),
    (1, 3, 4),
    (2, 3, 1),
    (2, 4, 2),
    (3, 1, 4),
    (3, 2, 3),
    (4, 2, 1),
    (4, 4, 3),
    (5, 1, 3),
    (5, 2, 4),
]


def four_players(*, open_games: frozenset[tuple[int, int]] = frozenset()) -> list[str]:
    """The 001 lines of ``SCHEDULE``; the games in ``open_games`` (round, white) are paired
    without a result."""
    cells: dict[int, list[Cell]] = {k: [] for k in range(1, 5)}
    for round_no, white, black in SCHEDULE:
        result = "" if (round_no, white) in open_games else "="
        cells[white].append((black, "w", result))
        cells[black].append((white, "b", result))
    return [player_line(no, f"Player {no}", cells[no]) for no in range(1, 5)]


def errors(doc: TrfDocument) -> list[str]:
    return [str(p) for p in doc.errors]


def _two_players() -> list[str]:
    return [player_line(1, "A", [(2, "w", "1")]), player_line(2, "B", [(1, "b", "0")])]


def test_round_five_half_played_with_nine_rounds_announced_is_refused() -> None:
    # Before: only warnings ("XXR declares 9 rounds...", "the game 2-4 has no result"): ratable.
    doc = parse_trf(trf("052 2026/11/30", "XXR 9", *four_players(open_games=frozenset({(5, 2)}))))
    assert errors(doc) == [
        "line 2, XXR: the tournament is not finished: record XXR announces 9 rounds, but there are no results "
        "for rounds 6 to 9; if it ended after round 5, correct record XXR",
        "line 4, round 5: round 5 is not finished: players 2, 4 are paired but have no result, "
        "while other games of the round have results",
    ]
    assert not [p for p in doc.warnings if "has no result" in p.message]  # said once, by the error


def test_a_half_played_last_round_is_refused_when_no_more_rounds_are_announced() -> None:
    doc = parse_trf(trf("052 2026/11/30", "XXR 5", *four_players(open_games=frozenset({(5, 2)}))))
    [error] = doc.errors
    assert (error.line, error.field) == (4, "round 5")
    assert "players 2, 4 are paired but have no result" in error.message


def test_the_finished_tournament_passes() -> None:
    doc = parse_trf(trf("052 2026/11/30", "XXR 5", "142 5", *four_players()))
    assert doc.problems == ()


def test_rounds_announced_by_the_round_dates_without_results() -> None:
    dates = "132".ljust(91) + "".join(f"{d:<10}" for d in ("26/11/28", "26/11/29", "26/11/30")).rstrip()
    doc = parse_trf(trf("052 2026/11/30", dates, *_two_players()))
    assert errors(doc) == [
        "line 2, 132: the tournament is not finished: record 132 announces 3 rounds, but there are no results "
        "for rounds 2 and 3; if it ended after round 1, correct record 132"
    ]


def test_a_round_holding_only_byes_entered_ahead_is_not_played() -> None:
    # JaVaFo's Gros sample: the round being paired holds the byes asked for, nothing else.
    lines = [
        player_line(1, "A", [(2, "w", "1"), (0, "-", "H")]),
        player_line(2, "B", [(1, "b", "0"), (0, "-", "Z")]),
        player_line(3, "C", [(4, "w", "1")]),
        player_line(4, "D", [(3, "b", "0")]),
    ]
    doc = parse_trf(trf("052 2026/11/30", *lines))
    assert errors(doc) == [
        "round 2: the tournament is not finished: there are pairings or byes but no results for round 2"
    ]


def test_players_who_withdrew_are_no_unfinished_round() -> None:
    # Players 5 and 6 play rounds 1 and 2, then leave: 5's cells are blank, 6 has '-' and 'Z'.
    lines = four_players()
    extra = {5: [(6, "w", "1"), (6, "b", "=")], 6: [(5, "b", "0"), (5, "w", "=")]}
    lines.append(player_line(5, "E", [*extra[5], (None, "", ""), (None, "", ""), (None, "", "")]))
    lines.append(player_line(6, "F", [*extra[6], (0, "-", "-"), (None, "-", ""), (0, "-", "Z")]))
    doc = parse_trf(trf("052 2026/11/30", "XXR 5", *lines))
    assert doc.errors == (), errors(doc)
    assert doc.rounds == 5


def test_the_not_finished_errors_are_told_apart_from_the_others() -> None:
    unfinished = parse_trf(trf("052 2026/11/30", "XXR 9", *four_players(open_games=frozenset({(5, 2)}))))
    assert len(unfinished.errors) == 2 and all(is_unfinished(p) for p in unfinished.errors)
    contradicting = parse_trf(trf("052 2026/11/30", "052 2026/11/29", *_two_players()))
    assert len(contradicting.errors) == 1 and not is_unfinished(contradicting.errors[0])
