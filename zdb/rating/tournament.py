"""One tournament's evaluation (spec §9, with the readings of §13).

``evaluate_tournament`` takes the tournament and its participants' states before it and returns
the report and the states after it. It is a pure function: the same inputs give the same
outputs, whatever the order of players or games, and nothing outside its arguments is read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction

from zdb.rating.expectation import solve_rating
from zdb.rating.joint import JointEquation, solve_jointly
from zdb.rating.lattice import expected_sum, rounded_performance
from zdb.rating.model import (
    EMPTY_STATE,
    LeftoverGame,
    PlayerId,
    PlayerState,
    ReportRow,
    ResultCode,
    Stage,
    Tournament,
    TournamentEvaluation,
    frozen_map,
)
from zdb.rating.rounding import FLOAT_DECIMALS, round_float, round_float_to, rounded_float
from zdb.rating.rulesets import (
    ADULT_AGE,
    CoefficientInput,
    PerfectScore,
    RuleSet,
    conversions_between,
    rule_set_for,
)

__all__ = ["evaluate_tournament", "leftover_expired"]

#: the older performance rule for a 100 % score (spec §9.5): mean of the opponents + 677
_PERFECT_MARGIN = 677
#: W and We closer than this are compared exactly, with We rounded to 9 decimals (§13.1)
_CLOSE = 1e-6
# Enum members bound once: a member looked up on its class costs more than the test.
_ESTABLISHED, _STAGE1, _UNRATED = Stage.ESTABLISHED, Stage.STAGE1, Stage.UNRATED
_WHITE_WINS, _BLACK_WINS, _DRAW = ResultCode.WHITE_WINS, ResultCode.BLACK_WINS, ResultCode.DRAW


def leftover_expired(recorded: date, evaluated: date, years: int) -> bool:
    """spec §13.7: expired when its end date plus ``years`` calendar years is earlier than the
    evaluated tournament's end date (29 February plus 2 years is 28 February)."""
    try:
        limit = recorded.replace(year=recorded.year + years)
    except ValueError:
        limit = recorded.replace(year=recorded.year + years, day=28)
    return limit < evaluated


def _at_least_expected(w: float, we: float) -> bool:
    if abs(w - we) > _CLOSE:
        return w > we
    return Fraction(w) >= round_float_to(we, FLOAT_DECIMALS)


@dataclass(slots=True)
class _Player:
    """Working record of one participant during the evaluation."""

    pid: PlayerId
    state: PlayerState
    member: bool
    age: int
    r0: int | None = None
    i0: int | None = None
    fide_start: bool = False
    r0_is_fide: bool = False
    entries: int = 0
    # games with a result played at the board: (opponent position, own points)
    played: list[tuple[int, float]] = field(default_factory=list)
    # usable stored leftover games: (opponent rating as used now, points); newcomers only
    leftover: list[tuple[float, float]] | tuple[()] = ()
    kept_leftover: tuple[LeftoverGame, ...] = ()
    stage: Stage = _UNRATED
    rated: list[tuple[int, float]] | tuple[()] = ()
    w: float = 0.0
    ri: float = 0.0
    first: int = 0
    rh: int | None = None
    sonder: bool = False


def evaluate_tournament(
    tournament: Tournament,
    states: Mapping[PlayerId, PlayerState],
    rule_set: RuleSet | None = None,
) -> TournamentEvaluation:
    """Evaluate ``tournament`` from its participants' ``states`` (absent: no rating, no leftover
    games) under the rule set of its end date (spec §1) unless one is given."""
    rules = rule_set or rule_set_for(tournament.end_date)
    players = _participants(tournament, states, rules)
    position = {p.pid: k for k, p in enumerate(players)}
    for game in tournament.games:
        w, b = position[game.white], position[game.black]
        white, black = players[w], players[b]
        white.entries += 1
        black.entries += 1
        result = game.result  # identity tests: an Enum's hash is slow in this, the hottest loop
        if result is _WHITE_WINS:
            white.played.append((b, 1.0))
            black.played.append((w, 0.0))
        elif result is _BLACK_WINS:
            white.played.append((b, 0.0))
            black.played.append((w, 1.0))
        elif result is _DRAW:
            white.played.append((b, 0.5))
            black.played.append((w, 0.5))

    newcomers = _select(players, rules)
    unrated = {k for k, player in enumerate(players) if player.stage is _UNRATED}
    for player in players:
        if player.stage is not _UNRATED:
            player.rated = [(j, s) for j, s in player.played if j not in unrated] if unrated else player.played
            player.w = sum(s for _, s in player.rated)

    # spec §13.2: joint iteration -> provisional first ratings -> performances -> who is an
    # Ausnahmespieler -> Sonderwertung redo -> final first ratings -> performances again.
    anchors: dict[int, int] = {k: p.r0 for k, p in enumerate(players) if p.r0 is not None}
    _joint_iteration(players, newcomers, anchors)
    _first_ratings(players, newcomers, rules)
    basis = _basis(players)
    for k in range(len(players)):
        players[k].rh = _performance(players, k, rules, basis)
    sonder = {  # position -> Rh of each Ausnahmespieler
        k: p.rh
        for k, p in enumerate(players)
        if p.stage is _ESTABLISHED and p.rh is not None and p.r0 is not None and p.rh - p.r0 > rules.sonder_margin
    }
    if sonder:
        for k, rh in sonder.items():
            players[k].sonder = True
            anchors[k] = rh
        _joint_iteration(players, newcomers, anchors)
        _first_ratings(players, newcomers, rules)
        before, basis = basis, _basis(players)
        # Only newcomers' ratings moved: a performance against none of them stands.
        moved = {k for k in newcomers if basis[k] != before[k]}
        for k, player in enumerate(players):
            if not player.sonder and (player.stage is not _ESTABLISHED or any(j in moved for j, _ in player.rated)):
                player.rh = _performance(players, k, rules, basis)
        # We counts an Ausnahmespieler with his Rh (spec §9.6, §9.8)
        for k in sonder:
            basis[k] = anchors[k]

    rows = []
    after: dict[PlayerId, PlayerState] = {}
    for k, player in enumerate(players):
        row, state = _conclude(players, k, basis, rules, tournament)
        rows.append(row)
        after[player.pid] = state
    return TournamentEvaluation(rule_set=rules.name, rows=tuple(rows), states=frozen_map(after))


def _participants(tournament: Tournament, states: Mapping[PlayerId, PlayerState], rules: RuleSet) -> list[_Player]:
    year = tournament.end_date.year
    players = []
    for entry in tournament.players:
        state = states.get(entry.pid, EMPTY_STATE)
        # spec §13.12: a stored DWZ or stored leftover games make a member.
        member = entry.member or state.rating is not None or bool(state.leftover)
        age = ADULT_AGE if entry.birth_year is None else year - entry.birth_year
        player = _Player(entry.pid, state, member, age)
        if state.rating is not None:
            player.i0 = state.index
            if state.rating >= rules.fide_only_from and entry.fide_rating is not None:
                player.r0, player.r0_is_fide = entry.fide_rating, True  # spec §10, §13.10
            else:
                player.r0 = state.rating
        elif entry.fide_rating is not None:
            # spec §10: a FIDE rating is the start value, with index 6.
            player.r0, player.i0 = entry.fide_rating, rules.fide_start_index
            player.fide_start = player.r0_is_fide = True
        else:
            kept = []
            usable: list[tuple[float, float]] = []
            for game in state.leftover:
                if leftover_expired(game.end_date, tournament.end_date, rules.leftover_years):
                    continue  # spec §11: dropped
                kept.append(game)
                rating = game.opp_rating
                if not game.opp_fide:  # spec §13.6
                    for conversion in conversions_between(game.end_date, tournament.end_date):
                        rating = conversion.convert(rating)
                usable.append((float(rating), game.points))
            player.leftover = usable
            player.kept_leftover = tuple(kept)
        players.append(player)
    return players


def _select(players: list[_Player], rules: RuleSet) -> list[int]:
    """Stages 1 and 2 (spec §9.1-9.3); returns the newcomers of Auswahl II."""
    for player in players:
        if player.r0 is not None:
            player.stage = _ESTABLISHED
    newcomers = []
    for stage, pool in ((_STAGE1, {_ESTABLISHED}), (Stage.STAGE2, {_ESTABLISHED, _STAGE1})):
        entering = []
        for k, player in enumerate(players):
            if player.stage is not _UNRATED or player.r0 is not None:
                continue
            scores = [s for j, s in player.played if players[j].stage in pool]
            scores += [s for _, s in player.leftover]
            points = sum(scores)
            if len(scores) >= rules.min_games and 0 < points < len(scores):
                entering.append(k)
        for k in entering:
            players[k].stage = stage
        newcomers += entering
    return newcomers


def _joint_iteration(players: list[_Player], newcomers: list[int], anchors: dict[int, int]) -> None:
    """spec §9.4: the ratings of all first- and second-stage players, solved together, with
    established opponents at their anchors (R0, or Rh for an Ausnahmespieler, §9.6)."""
    if not newcomers:
        return
    unknown = {k: a for a, k in enumerate(newcomers)}
    equations = []
    for k in newcomers:
        player = players[k]
        fixed: list[float] = [anchors[j] for j, _ in player.rated if j in anchors]
        fixed += [r for r, _ in player.leftover]
        coupled = tuple(unknown[j] for j, _ in player.rated if j not in anchors)
        equations.append(JointEquation(tuple(fixed), coupled, player.w + sum(s for _, s in player.leftover)))
    for k, ri in zip(newcomers, solve_jointly(equations), strict=True):
        players[k].ri = ri


def _first_ratings(players: list[_Player], newcomers: list[int], rules: RuleSet) -> None:
    for k in newcomers:
        players[k].first = rules.first_rating.first_rating(players[k].ri)


def _basis(players: list[_Player]) -> list[int]:
    """Every player's rating as an opponent counts it in performances: R0, or the first rating
    of a newcomer (spec §9.5, §13.2). Players outside Auswahl II are never anyone's rated
    opponent: 0 stands in."""
    return [p.first if p.r0 is None else p.r0 for p in players]


def _performance(players: list[_Player], k: int, rules: RuleSet, basis: list[int]) -> int | None:
    """spec §9.5, §13.3, §13.4: Rh over this tournament's rated games."""
    player = players[k]
    if player.stage is _UNRATED:
        return None
    if player.stage is not _ESTABLISHED and not player.leftover:
        return round_float(player.ri)  # WO 3.6: a newcomer's Rh is his Ri
    n = len(player.rated)
    if n < rules.min_games or player.w == 0:
        return None
    # An Ausnahmespieler counts with Rh only in the joint iteration and in We (spec §9.6);
    # in performances every established opponent counts with his R0 (spec §9.5, §13.2).
    opponents = [basis[j] for j, _ in player.rated]
    if player.w < n:
        return rounded_performance(opponents, player.w)
    mean = sum(opponents) / n
    if rules.perfect_score is PerfectScore.MEAN_PLUS_677:
        return round_float(mean + _PERFECT_MARGIN)
    return round_float(solve_rating([*map(float, opponents), mean], player.w + 0.5))


def _conclude(
    players: list[_Player], k: int, we_basis: list[int], rules: RuleSet, tournament: Tournament
) -> tuple[ReportRow, PlayerState]:
    """The report row and the state after the tournament of player ``k`` (spec §9.7-9.9).
    ``we_basis``: every player's rating as an opponent's We counts it (§9.8): R0, Rh of an
    Ausnahmespieler (§9.6), or the final first rating of a newcomer."""
    player = players[k]
    state = player.state
    n = len(player.rated)
    we = e = k_factor = rn = i_new = None
    stored = False
    leftover_used = leftover_stored = 0
    new_state = state
    if player.stage is _ESTABLISHED:
        assert player.r0 is not None and player.i0 is not None
        if n:
            own = player.r0
            expected = expected_sum(own, [we_basis[j] for j, _ in player.rated])
            index = max(1, player.i0)  # spec §13.11: index 0 counts as 1
            w = player.w
            rule_index = rules.coefficient.fide_start_index if player.fide_start else index
            # positional (r0, index, age, w, we, n, at_least_expected): a frozen record's keywords cost
            ale = _at_least_expected(w, expected)
            result = rules.coefficient.new_rating(CoefficientInput(own, rule_index, player.age, w, expected, n, ale))
            we = rounded_float(expected, 6)
            e = result.e
            k_factor = None if result.k is None else float(result.k)
            rn, i_new = result.rn, index + 1
            stored = player.member
            if stored:
                new_state = PlayerState(rating=rn, index=i_new)
        elif not player.fide_start:
            rn, i_new = state.rating, state.index  # nothing rated: rating and index kept
    elif player.stage is not _UNRATED:
        rn, i_new = player.first, 1
        leftover_used = len(player.leftover)
        stored = player.member
        if stored:
            new_state = PlayerState(rating=rn, index=1)
    elif player.member:
        # spec §9.9: keep the games against Auswahl I for later tournaments, each with the
        # opponent's R0 (marked when FIDE) or new first rating, never an Rh (§13.5).
        new_games = []
        for j, points in player.played:
            opponent = players[j]
            if opponent.stage is _ESTABLISHED:
                assert opponent.r0 is not None
                new_games.append(
                    LeftoverGame(tournament.id, tournament.end_date, opponent.r0, points, opponent.r0_is_fide)
                )
            elif opponent.stage is _STAGE1:
                new_games.append(LeftoverGame(tournament.id, tournament.end_date, opponent.first, points))
        leftover_stored = len(new_games)
        new_state = PlayerState(rating=None, index=state.index, leftover=player.kept_leftover + tuple(new_games))
    # positional, in ReportRow's field order: built for every participant, keywords cost
    row = ReportRow(
        player.pid,
        player.member,
        player.stage,
        player.fide_start,
        player.r0,
        player.i0,
        player.w,
        n,
        player.entries - n,  # unrated_games
        we,
        e,
        k_factor,
        player.rh,
        player.sonder,
        rn,
        i_new,
        stored,
        leftover_used,
        leftover_stored,
    )
    return row, new_state
