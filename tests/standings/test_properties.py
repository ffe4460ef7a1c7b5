"""Properties the standings must have whatever the tournament: consistency with the crosstable."""

from __future__ import annotations

import os
from datetime import date
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zdb.rating import Game, Participant, ResultCode, Tournament
from zdb.standings import (
    Bye,
    ByeKind,
    IndividualTournament,
    Pairing,
    PairingSystem,
    Round,
    TieBreak,
    from_engine_tournament,
    individual_standings,
)

PROPERTY = settings(
    max_examples=int(os.environ.get("ZDB_PROPERTY_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
PLAYED = [ResultCode.WHITE_WINS, ResultCode.BLACK_WINS, ResultCode.DRAW]
EVERY_RESULT = list(ResultCode)


def _points(value: float) -> Fraction:
    return Fraction(value)


@st.composite
def round_robins(
    draw: st.DrawFn, results: list[ResultCode] = PLAYED
) -> tuple[tuple[str, ...], dict[tuple[str, str], ResultCode]]:
    count = draw(st.integers(min_value=2, max_value=8))
    players = tuple(f"P{k}" for k in range(count))
    games = {}
    for i in range(count):
        for j in range(i + 1, count):
            games[players[i], players[j]] = draw(st.sampled_from(results))
    return players, games


def _engine_tournament(players: tuple[str, ...], games: dict[tuple[str, str], ResultCode]) -> Tournament:
    return Tournament(
        1,
        "RRT",
        date(2025, 5, 1),
        tuple(Participant(player, None) for player in players),
        tuple(Game(white, black, result) for (white, black), result in games.items()),
    )


def _crosstable_scores(players: tuple[str, ...], games: dict[tuple[str, str], ResultCode]) -> dict[str, Fraction]:
    scores = dict.fromkeys(players, Fraction(0))
    for (white, black), result in games.items():
        scores[white] += _points(result.white_points)
        scores[black] += _points(result.black_points)
    return scores


@PROPERTY
@given(round_robins(results=EVERY_RESULT))
def test_round_robin_buchholz_is_everyone_elses_points(
    case: tuple[tuple[str, ...], dict[tuple[str, str], ResultCode]],
) -> None:
    players, games = case
    standings = individual_standings(from_engine_tournament(_engine_tournament(players, games)))
    scores = _crosstable_scores(players, games)
    total = sum(scores.values())
    for row in standings.rows:
        assert row.points == scores[row.player]
        assert row.buchholz == total - scores[row.player]  # seed 002: "in Rundenturnieren ... belanglos"


@PROPERTY
@given(round_robins(results=EVERY_RESULT))
def test_round_robin_sonneborn_berger_is_the_crosstable_product(
    case: tuple[tuple[str, ...], dict[tuple[str, str], ResultCode]],
) -> None:
    players, games = case
    standings = individual_standings(from_engine_tournament(_engine_tournament(players, games)))
    scores = _crosstable_scores(players, games)
    expected = dict.fromkeys(players, Fraction(0))
    for (white, black), result in games.items():
        expected[white] += _points(result.white_points) * scores[black]
        expected[black] += _points(result.black_points) * scores[white]
    for row in standings.rows:
        assert row.sonneborn_berger == expected[row.player]
        assert row.sonneborn_berger <= row.buchholz


@PROPERTY
@given(round_robins())
def test_round_robin_sum_of_sonneborn_berger(case: tuple[tuple[str, ...], dict[tuple[str, str], ResultCode]]) -> None:
    # With one point per game, the points scored against q are (n - 1) - s(q), so the sum of all
    # SB is the sum over q of s(q) * ((n - 1) - s(q)).
    players, games = case
    standings = individual_standings(from_engine_tournament(_engine_tournament(players, games)))
    scores = _crosstable_scores(players, games)
    games_each = len(players) - 1
    assert sum(row.sonneborn_berger for row in standings.rows) == sum(s * (games_each - s) for s in scores.values())


@st.composite
def swiss_tournaments(draw: st.DrawFn) -> IndividualTournament:
    count = draw(st.integers(min_value=2, max_value=9))
    players = tuple(f"P{k}" for k in range(count))
    rounds = []
    for _ in range(draw(st.integers(min_value=1, max_value=6))):
        order = draw(st.permutations(players))
        absent = draw(st.integers(min_value=0, max_value=min(2, count)))
        byes = []
        for player in order[:absent]:
            kind = draw(st.sampled_from([None, *ByeKind]))  # None: simply absent
            if kind is not None:
                byes.append(Bye(player, kind))
        rest = order[absent:]
        pairings = [
            Pairing(rest[k], rest[k + 1], draw(st.sampled_from(EVERY_RESULT))) for k in range(0, len(rest) - 1, 2)
        ]
        if len(rest) % 2:
            byes.append(Bye(rest[-1], ByeKind.PAIRING_ALLOCATED))
        rounds.append(Round(tuple(pairings), tuple(byes)))
    return IndividualTournament(players, tuple(rounds), PairingSystem.SWISS)


@PROPERTY
@given(swiss_tournaments())
def test_points_are_what_the_results_and_byes_award(tournament: IndividualTournament) -> None:
    standings = individual_standings(tournament)
    awarded = dict.fromkeys(tournament.players, Fraction(0))
    for round_ in tournament.rounds:
        for pairing in round_.pairings:
            awarded[pairing.white] += _points(pairing.result.white_points)
            awarded[pairing.black] += _points(pairing.result.black_points)
        for bye in round_.byes:
            awarded[bye.player] += bye.kind.points
    assert {row.player: row.points for row in standings.rows} == awarded


@PROPERTY
@given(swiss_tournaments())
def test_cuts_only_ever_remove(tournament: IndividualTournament) -> None:
    for row in individual_standings(tournament).rows:
        assert 0 <= row.buchholz_cut2 <= row.buchholz_cut1 <= row.buchholz
        assert 0 <= row.buchholz_median1 <= row.buchholz_cut1
        assert 0 <= row.sonneborn_berger <= row.buchholz


@PROPERTY
@given(swiss_tournaments(), st.data())
def test_ranks_follow_points_and_tie_breaks(tournament: IndividualTournament, data: st.DataObject) -> None:
    order = tuple(data.draw(st.lists(st.sampled_from(list(TieBreak)), unique=True, max_size=3)))
    standings = individual_standings(tournament, order)
    keys = [(row.points, *(row.value(t) for t in order)) for row in standings.rows]
    assert keys == sorted(keys, reverse=True)
    for k, row in enumerate(standings.rows):
        if k and keys[k] == keys[k - 1]:
            assert row.rank == standings.rows[k - 1].rank
        else:
            assert row.rank == k + 1


@PROPERTY
@given(swiss_tournaments(), st.data())
def test_player_order_changes_no_value(tournament: IndividualTournament, data: st.DataObject) -> None:
    shuffled = IndividualTournament(
        tuple(data.draw(st.permutations(tournament.players))), tournament.rounds, tournament.pairing_system
    )
    before = {row.player: row for row in individual_standings(tournament).rows}
    after = {row.player: row for row in individual_standings(shuffled).rows}
    assert before == after
