"""FIDE C.07 (effective 1 March 2026) articles 15 and 16, one rule at a time, on small Swiss
tournaments built by hand; each expected number is derived in the comment beside it."""

from __future__ import annotations

from fractions import Fraction

from zdb.rating import ResultCode
from zdb.standings import (
    Bye,
    ByeKind,
    IndividualTournament,
    Pairing,
    PairingSystem,
    Round,
    individual_standings,
)
from zdb.standings.records import player_records
from zdb.standings.unplayed import Category, adjusted_score, category

W, L, D = ResultCode.WHITE_WINS, ResultCode.BLACK_WINS, ResultCode.DRAW
WIN_FORFEIT, LOSE_FORFEIT = ResultCode.WHITE_WINS_FORFEIT, ResultCode.BLACK_WINS_FORFEIT


def _swiss(players: str, *rounds: Round) -> IndividualTournament:
    return IndividualTournament(tuple(players), rounds, PairingSystem.SWISS)


def test_categories_of_unplayed_rounds() -> None:
    # A: PAB (16.2.1), forfeit win (16.2.2), half bye (16.2.3: round 5 is not a VUR), forfeit
    # loss (16.2.4), a game, then a zero bye in the last round (16.2.5).
    tournament = _swiss(
        "ABCDE",
        Round((Pairing("B", "C", W), Pairing("D", "E", W)), (Bye("A", ByeKind.PAIRING_ALLOCATED),)),
        Round((Pairing("A", "B", WIN_FORFEIT), Pairing("C", "D", W)), (Bye("E", ByeKind.PAIRING_ALLOCATED),)),
        Round((Pairing("B", "C", D), Pairing("D", "E", D)), (Bye("A", ByeKind.HALF_POINT),)),
        Round((Pairing("A", "C", LOSE_FORFEIT), Pairing("B", "D", W)), (Bye("E", ByeKind.PAIRING_ALLOCATED),)),
        Round((Pairing("A", "E", D), Pairing("B", "C", W))),
        Round((Pairing("B", "C", D), Pairing("D", "E", D)), (Bye("A", ByeKind.ZERO_POINT),)),
    )
    record = player_records(tournament)["A"]
    assert [category(record, k) for k in range(6)] == [
        Category.ALLOCATED_OR_FULL_BYE,
        Category.FORFEIT_WIN,
        Category.REQUESTED_BYE_THEN_AVAILABLE,
        Category.FORFEIT_LOSS,
        None,  # played at the board
        Category.REQUESTED_BYE_AT_THE_END,
    ]
    # art. 16.3: 1 + 1 + 1/2 + 0 + 1/2 as awarded, the last round as a draw (16.3.2): 7/2
    assert adjusted_score(record) == Fraction(7, 2)


def test_requested_bye_followed_only_by_vurs_counts_as_a_draw_for_opponents() -> None:
    # B plays round 1 (loses to A), then a half bye, then withdraws (absent = zero-point bye).
    # art. 16.2.5: the half bye is followed only by VURs -> evaluated as a draw (art. 16.3.2),
    # and so is every absent round: adjusted score 0 + 1/2 + 1/2 + 1/2 = 3/2; actual score 1/2.
    tournament = _swiss(
        "ABCD",
        Round((Pairing("A", "B", W), Pairing("C", "D", D))),
        Round((Pairing("A", "C", D),), (Bye("B", ByeKind.HALF_POINT), Bye("D", ByeKind.PAIRING_ALLOCATED))),
        Round((Pairing("A", "D", D),), (Bye("C", ByeKind.PAIRING_ALLOCATED),)),
        Round((Pairing("A", "C", W),), (Bye("D", ByeKind.PAIRING_ALLOCATED),)),
    )
    record = player_records(tournament)["B"]
    assert adjusted_score(record) == Fraction(3, 2)
    standings = individual_standings(tournament)
    assert standings.row("B").points == Fraction(1, 2)
    # A met B, C, D and C again: B counts with 3/2 (art. 16.3), C with 2 (1/2 + 1/2 + 1 + 0),
    # D with 3 (1/2 + 1 + 1/2 + 1): 3/2 + 2 + 3 + 2.
    assert standings.row("A").buchholz == Fraction(17, 2)


def test_requested_bye_before_a_played_round_counts_as_awarded() -> None:
    # B: zero bye in round 1 (followed by a game: art. 16.2.3), loses to A in round 2.
    tournament = _swiss(
        "ABC",
        Round((Pairing("A", "C", W),), (Bye("B", ByeKind.ZERO_POINT),)),
        Round((Pairing("A", "B", W),), (Bye("C", ByeKind.PAIRING_ALLOCATED),)),
    )
    assert adjusted_score(player_records(tournament)["B"]) == 0  # art. 16.3.1: as awarded


def test_dummy_for_a_bye_is_own_score_capped_at_half_the_rounds() -> None:
    # A wins rounds 1-3 and gets the PAB in round 4: own score 4, cap 1/2 * 4 rounds = 2 (art. 16.4.2).
    tournament = _swiss(
        "ABCDE",
        Round((Pairing("A", "B", W), Pairing("C", "D", D)), (Bye("E", ByeKind.PAIRING_ALLOCATED),)),
        Round((Pairing("A", "C", W), Pairing("B", "E", D)), (Bye("D", ByeKind.PAIRING_ALLOCATED),)),
        Round((Pairing("A", "D", W), Pairing("B", "C", L)), (Bye("E", ByeKind.PAIRING_ALLOCATED),)),
        Round((Pairing("B", "D", D), Pairing("C", "E", D)), (Bye("A", ByeKind.PAIRING_ALLOCATED),)),
    )
    standings = individual_standings(tournament)
    b, c, d = (standings.row(p).points for p in "BCD")
    assert standings.row("A").points == 4
    assert standings.row("A").buchholz == b + c + d + 2
    # Sonneborn-Berger: three wins against B, C, D, and a full point against the dummy (art. 16.4).
    assert standings.row("A").sonneborn_berger == b + c + d + 2


def test_dummy_for_a_low_scorers_bye_is_his_own_score() -> None:
    # C (1/2 after four rounds) got a half-point bye: the dummy has C's own score, 1/2 (art. 16.4).
    tournament = _swiss(
        "ABCD",
        Round((Pairing("A", "C", W), Pairing("B", "D", D))),
        Round((Pairing("A", "B", W), Pairing("C", "D", L))),
        Round((Pairing("A", "D", W), Pairing("B", "C", W))),
        Round((Pairing("A", "B", D),), (Bye("C", ByeKind.HALF_POINT), Bye("D", ByeKind.PAIRING_ALLOCATED))),
    )
    standings = individual_standings(tournament)
    row = standings.row("C")
    assert row.points == Fraction(1, 2)
    # A 3.5, D 2.5 (1/2 + 1 + 0 + 1), B 2 (1/2 + 0 + 1 + 1/2) and the dummy 1/2
    assert row.buchholz == Fraction(7, 2) + Fraction(5, 2) + 2 + Fraction(1, 2)
    assert row.sonneborn_berger == Fraction(1, 2) * Fraction(1, 2)  # half a point against the dummy


def test_forfeit_loss_is_cut_first() -> None:
    # D loses round 2 by forfeit against B (a VUR, art. 16.1.2). Cut-1 removes that round's
    # contribution (art. 16.5.1), not the lowest one.
    tournament = _swiss(
        "ABCD",
        Round((Pairing("A", "D", W), Pairing("B", "C", W))),
        Round((Pairing("B", "D", WIN_FORFEIT), Pairing("A", "C", W))),
        Round((Pairing("C", "D", D), Pairing("A", "B", W))),
    )
    standings = individual_standings(tournament)
    row = standings.row("D")
    # D: 1/2 point. Opponents A (3), dummy for the forfeit = min(1/2, B's adjusted 2) = 1/2, C (1/2).
    assert row.points == Fraction(1, 2)
    assert row.buchholz == 3 + Fraction(1, 2) + Fraction(1, 2)
    # Cut-1: the VUR's 1/2 goes (art. 16.5.1), leaving A's 3 and C's 1/2.
    assert row.buchholz_cut1 == Fraction(7, 2)
    # Cut-2: then the lowest of the rest, C's 1/2 (art. 16.5.2, 14.2).
    assert row.buchholz_cut2 == 3
    # Median-1: the VUR first (least significant, art. 16.5.1), then the most significant, A's 3.
    assert row.buchholz_median1 == Fraction(1, 2)


def test_round_robin_forfeits_are_regular_games() -> None:
    # C.07 art. 15.2: with pre-determined pairings a forfeit is a regular game: no dummy.
    rounds = (
        Round((Pairing("A", "B", WIN_FORFEIT),)),
        Round((Pairing("A", "C", D),)),
        Round((Pairing("B", "C", W),)),
    )
    round_robin = individual_standings(IndividualTournament(("A", "B", "C"), rounds, PairingSystem.ROUND_ROBIN))
    # A: 1.5 points; B 1; C 1/2. A's Buchholz = B's 1 + C's 1/2; SB = 1 * 1 + 1/2 * 1/2.
    assert round_robin.row("A").buchholz == Fraction(3, 2)
    assert round_robin.row("A").sonneborn_berger == Fraction(5, 4)
    # refined Buchholz counts the forfeit's opponent too: B's BH (A 1.5 + C 0.5) + C's BH (A 1.5 + B 1)
    assert round_robin.row("A").refined_buchholz == 2 + Fraction(5, 2)


def test_swiss_refined_buchholz_counts_only_opponents_met_at_the_board() -> None:
    tournament = _swiss(
        "ABC",
        Round((Pairing("A", "B", WIN_FORFEIT),), (Bye("C", ByeKind.PAIRING_ALLOCATED),)),
        Round((Pairing("A", "C", D),), (Bye("B", ByeKind.PAIRING_ALLOCATED),)),
    )
    standings = individual_standings(tournament)
    assert standings.row("A").refined_buchholz == standings.row("C").buchholz


def test_absent_player_gets_zero_point_byes() -> None:
    tournament = _swiss("ABC", Round((Pairing("A", "B", D),)), Round((Pairing("A", "C", W),)))
    records = player_records(tournament)
    assert [entry.kind.value for entry in records["C"]] == ["zero", "played"]
    assert [entry.kind.value for entry in records["B"]] == ["played", "zero"]
