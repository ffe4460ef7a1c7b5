"""DWZ for every possible score, through the rating engine (never a second DWZ formula).

For each score the simulator builds the tournament the player would have played: he meets each
opponent once, every opponent an established player who plays only him, and he scores that many
points (wins first, then a draw for a half point, the rest losses). The engine evaluates it
under the rule set of the end date (dwz-rules.md §1) unless another is asked for. Which games
he wins does not matter: his new rating depends on his points and his expected points only
(dwz-rules.md §6, §7), and an opponent with one game never gets a performance (§9.5), so never
changes the player's expected points through the Sonderwertung (§9.6).
"""

from __future__ import annotations

from fractions import Fraction

from zdb.rating import (
    Game,
    Participant,
    PlayerState,
    ResultCode,
    RuleSet,
    Tournament,
    evaluate_tournament,
    rule_set_for,
)
from zdb.simulator.model import Outcome, SimulationRequest, System, SystemResult, possible_scores

__all__ = ["PLAYER", "simulate_dwz", "simulated_tournament"]

PLAYER = "P"
#: an opponent's index does not enter the player's evaluation; any established index will do
OPPONENT_INDEX = 10
_SIMULATION_ID = 1
_SIMULATION_ACRONYM = "SIM"


def _opponent(k: int) -> str:
    return f"O{k + 1}"


def simulated_tournament(request: SimulationRequest, score: Fraction) -> tuple[Tournament, dict[str, PlayerState]]:
    """The tournament and the states before it in which the player scores ``score``."""
    wins = int(score)
    draw = score - wins == Fraction(1, 2)
    games = []
    for k in range(request.games):
        if k < wins:
            result = ResultCode.WHITE_WINS
        elif k == wins and draw:
            result = ResultCode.DRAW
        else:
            result = ResultCode.BLACK_WINS
        games.append(Game(PLAYER, _opponent(k), result))
    players = (
        Participant(PLAYER, request.birth_year),
        *(Participant(_opponent(k), None) for k in range(request.games)),
    )
    tournament = Tournament(_SIMULATION_ID, _SIMULATION_ACRONYM, request.end_date, players, tuple(games))
    states = {PLAYER: PlayerState(rating=request.rating, index=request.index)}
    states |= {_opponent(k): PlayerState(rating=r, index=OPPONENT_INDEX) for k, r in enumerate(request.opponents)}
    return tournament, states


def simulate_dwz(request: SimulationRequest, rule_set: RuleSet | None = None) -> SystemResult:
    rules = rule_set or rule_set_for(request.end_date)
    outcomes = []
    expected = None
    label = "K"
    for score in possible_scores(request.games):
        tournament, states = simulated_tournament(request, score)
        row = evaluate_tournament(tournament, states, rules).rows[0]
        assert row.pid == PLAYER and row.rn is not None, "an established player with rated games gets a rating"
        expected = row.we
        coefficient: Fraction | None
        if row.e is not None:  # classic rule set: development coefficient E (dwz-rules.md §6)
            label, coefficient = "E", Fraction(row.e)
        else:  # WO 2026: factor K, one decimal (dwz-rules.md §7)
            coefficient = None if row.k is None else Fraction(str(row.k))
        outcomes.append(
            Outcome(
                score=score,
                rating=row.rn,
                change=row.rn - request.rating,
                coefficient=coefficient,
                performance=None if row.rh is None else Fraction(row.rh),
            )
        )
    return SystemResult(
        system=System.DWZ,
        rule_set=rules.name,
        scale="DWZ",
        coefficient=label,
        expected=expected,
        lower_is_better=False,
        outcomes=tuple(outcomes),
    )
