"""After the Sonderwertung, the performances of the tournament's established players are
computed again against the newcomers' final first ratings (spec §13.2), also for a player who
met only newcomers: the redo moves every one of his opponents' ratings.

The tournament: five established players X, S, E1, E2, E3 and five newcomers N1–N5, each
newcomer playing each established player once and no one else. S (R0 1200) scores 4 of 5 and
becomes an Ausnahmespieler. The newcomers play no newcomer, so the joint iteration (§9.4) is
one equation per newcomer, solved here by bisection on Σ ½ · (1 + erf((R − r) / 400)) = W
(spec §4); the first ratings (classic §9.7: 800 or more stays) and the performances (§9.5) are
rounded as spec §5 says. Every expected figure is worked out here, from the spec alone.
"""

from __future__ import annotations

from datetime import date
from decimal import ROUND_HALF_UP, Decimal

from tests.rating.performance_roots import performance_root
from zdb.rating import Game, Participant, PlayerState, ResultCode, Tournament, evaluate_tournament

ESTABLISHED = {"X": 1600, "S": 1200, "E1": 1650, "E2": 1550, "E3": 1700}
#: each newcomer's points against X, S, E1, E2, E3
SCORES = {
    "N1": (0.0, 0.0, 0.0, 1.0, 1.0),
    "N2": (0.0, 0.0, 0.0, 1.0, 0.5),
    "N3": (0.5, 0.0, 0.0, 0.5, 1.0),
    "N4": (1.0, 0.0, 1.0, 0.0, 0.5),
    "N5": (1.0, 1.0, 1.0, 0.0, 0.0),
}
_RESULT = {1.0: ResultCode.WHITE_WINS, 0.5: ResultCode.DRAW, 0.0: ResultCode.BLACK_WINS}


def _rounded(value: float) -> int:
    # spec §5: nine decimals first, then half up; no root here lies near a tie
    assert abs(value - int(value) - 0.5) > 1e-6 and abs(value - int(value) + 0.5) > 1e-6
    return int(Decimal(value).quantize(Decimal("1e-9")).quantize(Decimal(1), ROUND_HALF_UP))


def _first_ratings(s_counts_with: int) -> dict[str, tuple[float, int]]:
    """Each newcomer's Ri against the established players' R0 (S counted with ``s_counts_with``)
    and his first rating (classic §9.7: Ri of 800 or more stays, rounded)."""
    ratings = [*ESTABLISHED.values()]
    ratings[1] = s_counts_with
    found = {}
    for newcomer, scores in SCORES.items():
        ri = performance_root(ratings, sum(scores))
        assert ri >= 800
        found[newcomer] = ri, _rounded(ri)
    return found


def _performance(player: str, first: dict[str, tuple[float, int]]) -> int:
    column = [*ESTABLISHED].index(player)
    points = sum(1 - scores[column] for scores in SCORES.values())
    return _rounded(performance_root([first[n][1] for n in SCORES], points))


def test_a_player_who_met_only_newcomers_has_his_performance_computed_against_their_final_ratings() -> None:
    players = [Participant(pid, 1980) for pid in ESTABLISHED] + [Participant(pid, 1990) for pid in SCORES]
    games = [
        Game(newcomer, opponent, _RESULT[score])
        for newcomer, scores in SCORES.items()
        for opponent, score in zip(ESTABLISHED, scores, strict=True)
    ]
    tournament = Tournament(1, "SWR", date(2025, 3, 1), tuple(players), tuple(games))
    states = {pid: PlayerState(rating, 10) for pid, rating in ESTABLISHED.items()}

    provisional = _first_ratings(ESTABLISHED["S"])
    s_rh = _performance("S", provisional)  # the Rh he keeps and his opponents count him with
    assert s_rh - ESTABLISHED["S"] > 300  # an Ausnahmespieler (§9.6)
    assert all(_performance(p, provisional) - r0 <= 300 for p, r0 in ESTABLISHED.items() if p != "S")
    final = _first_ratings(s_rh)
    expected_rh = {p: _performance(p, final) for p in ESTABLISHED if p != "S"}
    # The redo moved X's opponents: against the provisional ratings his Rh would be another.
    assert expected_rh["X"] != _performance("X", provisional)

    rows = {row.pid: row for row in evaluate_tournament(tournament, states).rows}
    assert (rows["S"].sonder, rows["S"].rh) == (True, s_rh)
    assert {p: (rows[p].sonder, rows[p].rh) for p in expected_rh} == {p: (False, rh) for p, rh in expected_rh.items()}
    assert {n: (rows[n].rh, rows[n].rn) for n in SCORES} == {n: (first, first) for n, (_, first) in final.items()}
