"""One tournament's evaluation (spec §9, with the readings of §13).

``evaluate_tournament`` takes the tournament and its participants' states before it and returns
the report and the states after it. It is a pure function: the same inputs give the same
outputs, whatever the order of players or games, and nothing outside its arguments is read.

The evaluation works on arrays: one element per participant, and one *entry* per player and
game played at the board (two per game, in game order). Sums over a player's entries are taken
with ``bincount``, which adds in entry order from 0.0, so every figure is the same double as
adding game after game. Newcomers (the joint iteration, first ratings, leftover games) are few
and keep their scalar arithmetic; every rounding that comes near a tie is decided by the exact
scalar rules of ``rounding`` and ``lattice``.

The players and games arrive as columns (``entries``: as a database's loader reads them, or
made from a referee's tuples), and the report leaves as columns (``columns``): a batch's rows
are Python objects only when someone reads them.

``evaluate_tournaments`` evaluates several tournaments that share no player at once, each
exactly as alone: the arrays span all of them, so the fixed cost of an array operation is paid
once per batch instead of once per tournament (the replay batches tournaments whose inputs are
all known, ``replay``). Given a ``Kernel``, the expected-score sums and the performance search
run as its loops instead (compiled, ``kernel``), with the same figures.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from itertools import accumulate, chain, compress, pairwise, repeat
from operator import attrgetter, not_
from types import MappingProxyType
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from zdb.rating.columns import ReportColumns
from zdb.rating.entries import RESULT_ORDER, EntryColumns, entries_of
from zdb.rating.expectation import solve_rating
from zdb.rating.joint import JointEquation, solve_jointly
from zdb.rating.kernel import Kernel
from zdb.rating.lattice import expected_sums, rounded_performances
from zdb.rating.model import (
    EMPTY_STATE,
    LeftoverGame,
    PlayerId,
    PlayerState,
    ResultCode,
    Tournament,
    TournamentEvaluation,
)
from zdb.rating.rounding import FLOAT_DECIMALS, Floats, Ints, round_float, round_float_to, rounded_floats
from zdb.rating.rulesets import (
    ADULT_AGE,
    CoefficientColumns,
    PerfectScore,
    RuleSet,
    conversions_between,
    rule_set_for,
)

__all__ = ["evaluate_tournament", "evaluate_tournaments", "leftover_expired"]

Flags = NDArray[np.bool_]

#: the older performance rule for a 100 % score (spec §9.5): mean of the opponents + 677
_PERFECT_MARGIN = 677
#: W and We closer than this are compared exactly, with We rounded to 9 decimals (§13.1)
_CLOSE = 1e-6
# Stages as array codes, in the order of ``STAGE_CODES``.
_ESTABLISHED, _STAGE1, _STAGE2, _UNRATED = 0, 1, 2, 3
#: result codes: games played at the board first (spec §3), then everything else
_CODES = {
    ResultCode.WHITE_WINS: 0,
    ResultCode.BLACK_WINS: 1,
    ResultCode.DRAW: 2,
    **{code: 3 for code in ResultCode if not code.rated},
}
_PLAYED = 3  # codes below this were played at the board
#: the codes above by ``EntryColumns.result``
_RESULT_CODES = np.array([_CODES[result] for result in RESULT_ORDER], dtype=np.int64)
_RATING, _INDEX = attrgetter("rating"), attrgetter("index")
_WHITE_POINTS = np.array([1.0, 0.0, 0.5])


def leftover_expired(recorded: date, evaluated: date, years: int) -> bool:
    """spec §13.7: expired when its end date plus ``years`` calendar years is earlier than the
    evaluated tournament's end date (29 February plus 2 years is 28 February)."""
    try:
        limit = recorded.replace(year=recorded.year + years)
    except ValueError:
        limit = recorded.replace(year=recorded.year + years, day=28)
    return limit < evaluated


def _at_least_expected(w: Floats, we: Floats) -> Flags:
    """W >= We with We rounded to 9 decimals (spec §13.1): where the two are close, exactly."""
    result: Flags = w > we
    for a in np.flatnonzero(np.abs(w - we) <= _CLOSE).tolist():
        result[a] = Fraction(float(w[a])) >= round_float_to(float(we[a]), FLOAT_DECIMALS)
    return result


def _states_after(before: list[PlayerState], rated: Flags, rating: Ints, index: Ints) -> list[PlayerState]:
    """``before``, with ``PlayerState(rating, index)`` where ``rated``."""
    positions = np.flatnonzero(rated)
    made = map(
        tuple.__new__, repeat(PlayerState), zip(rating[positions].tolist(), index[positions].tolist(), repeat(()))
    )
    if positions.size == len(before):
        return list(made)
    # Object arrays hold the states as they are (``fromiter`` does not unpack tuples).
    after = np.fromiter(before, dtype=object, count=len(before))
    after[positions] = np.fromiter(made, dtype=object, count=positions.size)
    states: list[PlayerState] = after.tolist()
    return states


@dataclass(slots=True)
class _Field:
    """The participants of a batch of tournaments during their evaluation: position k is the
    k-th player of the batch, tournament t holds positions ``starts[t]`` to ``starts[t + 1]``."""

    tournaments: Sequence[Tournament]
    starts: list[int]
    home: Ints  # each player's tournament
    pids: list[PlayerId]
    before: list[PlayerState]
    members: list[bool]
    r0: list[int | None]  # DWZ, or the FIDE rating that replaces it (spec §10)
    i0: list[int | None]
    before_rating: Floats  # the states' ratings, nan for none
    before_index: Ints
    fide_start: list[bool]
    r0_is_fide: list[bool]
    #: newcomer candidates: usable leftover games (opponent's rating as used now, points) and
    #: the stored ones still kept (spec §11)
    leftover: dict[int, list[tuple[float, float]]]
    kept: dict[int, tuple[LeftoverGame, ...]]
    ages: Ints
    established: Flags
    rating: Ints  # r0, 0 where there is none
    # entries of games played at the board: owner, opponent, owner's points
    owner: Ints
    opponent: Ints
    points: Floats
    games: Ints  # games of each player, played or not


def evaluate_tournament(
    tournament: Tournament,
    states: Mapping[PlayerId, PlayerState],
    rule_set: RuleSet | None = None,
) -> TournamentEvaluation:
    """Evaluate ``tournament`` from its participants' ``states`` (absent: no rating, no leftover
    games) under the rule set of its end date (spec §1) unless one is given."""
    return evaluate_tournaments((tournament,), states, rule_set or rule_set_for(tournament.end_date))[0]


def evaluate_tournaments(
    tournaments: Sequence[Tournament],
    states: Mapping[PlayerId, PlayerState],
    rules: RuleSet,
    kernel: Kernel | None = None,
) -> list[TournamentEvaluation]:
    """Evaluate tournaments that share no player under ``rules``, each exactly as
    ``evaluate_tournament`` would alone, from their participants' ``states``; with ``kernel``'s
    loops for the sums and performances if given (the same figures)."""
    f = _field(tournaments, states, rules)
    size = len(f.pids)
    stage = np.where(f.established, _ESTABLISHED, _UNRATED)
    newcomers = [] if f.established.all() else _select(f, stage, rules)
    owner, opponent, points = f.owner, f.opponent, f.points
    unrated = stage == _UNRATED
    if unrated.any():
        rated = ~unrated[owner] & ~unrated[opponent]
        owner, opponent, points = owner[rated], opponent[rated], points[rated]
    w = cast(Floats, np.bincount(owner, points, size))  # weighted: floats
    n: Ints = np.bincount(owner, minlength=size)
    games = _Games(owner, opponent, w, n)
    groups = _by_tournament(f, newcomers) if newcomers else {}

    # spec §13.2: joint iteration -> provisional first ratings -> performances -> who is an
    # Ausnahmespieler -> Sonderwertung redo -> final first ratings -> performances again.
    anchors = f.r0  # by position: R0 of an established player, None for a newcomer
    ri = _joint_iteration(f, games, groups, anchors, kernel)
    first = _first_ratings(ri, rules)
    basis = _basis(f, first)
    rh = np.zeros(size, dtype=np.int64)
    has_rh = np.zeros(size, dtype=bool)
    search = rounded_performances if kernel is None else kernel.rounded_performances
    _performances(
        f,
        games,
        np.ones(size, dtype=bool),
        stage=stage,
        basis=basis,
        ri=ri,
        rules=rules,
        rh=rh,
        has_rh=has_rh,
        search=search,
    )
    sonder = f.established & has_rh & (rh - f.rating > rules.sonder_margin)
    we_basis = basis
    if sonder.any():
        redo = np.zeros(len(tournaments), dtype=bool)
        redo[f.home[sonder]] = True  # tournaments with an Ausnahmespieler
        anchors = list(anchors)
        for k, value in zip(np.flatnonzero(sonder).tolist(), rh[sonder].tolist(), strict=True):
            anchors[k] = value
        ri.update(_joint_iteration(f, games, {t: group for t, group in groups.items() if redo[t]}, anchors, kernel))
        first = _first_ratings(ri, rules)
        before, basis = basis, _basis(f, first)
        # Only newcomers' ratings moved: a performance against none of them stands.
        moved = basis != before
        against_moved = np.bincount(owner[moved[opponent]], minlength=size) > 0
        again = redo[f.home] & ~sonder & (~f.established | against_moved)
        _performances(
            f, games, again, stage=stage, basis=basis, ri=ri, rules=rules, rh=rh, has_rh=has_rh, search=search
        )
        # We counts an Ausnahmespieler with his Rh (spec §9.6, §9.8)
        we_basis = np.where(sonder, rh, basis)
    sums = expected_sums if kernel is None else kernel.expected_sums
    return _conclude(
        f, rules, games, stage=stage, first=first, we_basis=we_basis, rh=rh, has_rh=has_rh, sonder=sonder, sums=sums
    )


def _field(tournaments: Sequence[Tournament], states: Mapping[PlayerId, PlayerState], rules: RuleSet) -> _Field:
    # The tournaments' columns joined (``entries``): nothing here runs once per game, and
    # once per participant only C-level maps.
    entries = [entries_of(tournament) for tournament in tournaments]
    sizes = [len(e.pids) for e in entries]
    starts = [0, *accumulate(sizes)]
    size = starts[-1]
    home = np.repeat(np.arange(len(tournaments)), sizes)
    years = np.array([tournament.end_date.year for tournament in tournaments])[home]
    has_birth = _joined(entries, "has_birth_year")
    ages = np.where(has_birth, years - _joined(entries, "birth_year"), ADULT_AGE).astype(np.int64)
    pids: list[PlayerId] = list(chain.from_iterable(e.pids for e in entries))
    before = list(map(states.get, pids, repeat(EMPTY_STATE)))
    r0: list[int | None] = list(map(_RATING, before))
    i0: list[int | None] = list(map(_INDEX, before))
    before_rating = np.array(r0, dtype=float)  # None -> nan; before the FIDE ratings below
    before_index = np.array(i0, dtype=np.int64)
    fide, has_fide = _joined(entries, "fide_rating"), _joined(entries, "has_fide_rating")
    fide_start, r0_is_fide = [False] * size, [False] * size
    leftover: dict[int, list[tuple[float, float]]] = {}
    kept: dict[int, tuple[LeftoverGame, ...]] = {}
    members: list[bool] = _joined(entries, "member").tolist()
    for k in compress(range(size), map(not_, members)):
        state = before[k]
        members[k] = state.rating is not None or bool(state.leftover)  # spec §13.12
    # Only players without a DWZ or with a FIDE rating need a look of their own.
    odd = np.isnan(before_rating) | has_fide
    for k in np.flatnonzero(odd).tolist():
        state = before[k]
        fide_rating = int(fide[k]) if has_fide[k] else None
        if state.rating is not None:
            if state.rating >= rules.fide_only_from:
                r0[k], r0_is_fide[k] = fide_rating, True  # spec §10, §13.10
            continue
        i0[k] = None
        if fide_rating is not None:
            # spec §10: a FIDE rating is the start value, with index 6.
            r0[k], i0[k] = fide_rating, rules.fide_start_index
            fide_start[k] = r0_is_fide[k] = True
        else:
            end_date = tournaments[bisect_right(starts, k) - 1].end_date
            leftover[k], kept[k] = _usable_leftover(state.leftover, end_date, rules)
    values = np.array(r0, dtype=float)  # None -> nan; ratings are exact as doubles
    established: Flags = ~np.isnan(values)
    rating = np.where(established, values, 0.0).astype(np.int64)

    if len(set(pids)) < size:
        raise ValueError("tournaments evaluated together must not share a player")
    # Each game's players as positions in the batch.
    offset = np.repeat(np.array(starts[:-1], dtype=np.int64), [len(e.white) for e in entries])
    white, black = _joined(entries, "white") + offset, _joined(entries, "black") + offset
    code = _RESULT_CODES[_joined(entries, "result")]
    played = code < _PLAYED
    white_played, black_played, code = white[played], black[played], code[played]
    count = 2 * len(code)
    owner = np.empty(count, dtype=np.int64)
    opponent = np.empty(count, dtype=np.int64)
    points = np.empty(count)
    owner[0::2] = opponent[1::2] = white_played
    owner[1::2] = opponent[0::2] = black_played
    points[0::2] = _WHITE_POINTS[code]
    points[1::2] = 1.0 - points[0::2]
    games = np.bincount(white, minlength=size) + np.bincount(black, minlength=size)
    return _Field(
        tournaments,
        starts,
        home,
        pids,
        before,
        members,
        r0,
        i0,
        before_rating,
        before_index,
        fide_start,
        r0_is_fide,
        leftover,
        kept,
        ages,
        established,
        rating,
        owner,
        opponent,
        points,
        games,
    )


def _joined(entries: list[EntryColumns], name: str) -> NDArray[Any]:
    """One column of every tournament's entries, end to end."""
    if len(entries) == 1:
        column: NDArray[Any] = getattr(entries[0], name)
        return column
    return np.concatenate([getattr(e, name) for e in entries])


def _usable_leftover(
    stored: tuple[LeftoverGame, ...], end_date: date, rules: RuleSet
) -> tuple[list[tuple[float, float]], tuple[LeftoverGame, ...]]:
    kept = []
    usable: list[tuple[float, float]] = []
    for game in stored:
        if leftover_expired(game.end_date, end_date, rules.leftover_years):
            continue  # spec §11: dropped
        kept.append(game)
        rating = game.opp_rating
        if not game.opp_fide:  # spec §13.6
            for conversion in conversions_between(game.end_date, end_date):
                rating = conversion.convert(rating)
        usable.append((float(rating), game.points))
    return usable, tuple(kept)


@dataclass(slots=True)
class _Games:
    """The rated games' entries (against Auswahl II only) and each player's W and n."""

    owner: Ints
    opponent: Ints
    w: Floats
    n: Ints

    def of(self, k: int) -> list[int]:
        """Player ``k``'s rated opponents, in game order."""
        opponents: list[int] = self.opponent[self.owner == k].tolist()
        return opponents


def _select(f: _Field, stage: Ints, rules: RuleSet) -> list[int]:
    """Stages 1 and 2 (spec §9.1-9.3); sets ``stage`` and returns the newcomers of Auswahl II
    (stage 1 before stage 2, each in player order)."""
    size = len(f.pids)
    leftover_games = np.zeros(size, dtype=np.int64)
    leftover_points = np.zeros(size)
    for k, usable in f.leftover.items():
        leftover_games[k] = len(usable)
        leftover_points[k] = sum(s for _, s in usable)
    newcomers: list[int] = []
    pool = f.established.copy()
    for code in (_STAGE1, _STAGE2):
        waiting = stage == _UNRATED
        against_pool = waiting[f.owner] & pool[f.opponent]
        owners = f.owner[against_pool]
        count = np.bincount(owners, minlength=size) + leftover_games
        points = np.bincount(owners, f.points[against_pool], size) + leftover_points
        entering = waiting & (count >= rules.min_games) & (points > 0) & (points < count)
        stage[entering] = code
        newcomers += np.flatnonzero(entering).tolist()
        pool |= entering
    return newcomers


def _by_tournament(f: _Field, newcomers: list[int]) -> dict[int, list[int]]:
    """The newcomers of each tournament, in their order."""
    groups: dict[int, list[int]] = {}
    for k, t in zip(newcomers, f.home[newcomers].tolist(), strict=True):
        groups.setdefault(t, []).append(k)
    return groups


def _joint_iteration(
    f: _Field, games: _Games, groups: dict[int, list[int]], anchors: list[int | None], kernel: Kernel | None
) -> dict[int, float]:
    """spec §9.4: the ratings of all first- and second-stage players of a tournament, solved
    together, with established opponents at their anchors (R0, or Rh for an Ausnahmespieler,
    §9.6); each tournament's newcomers (``groups``) form one system."""
    systems: list[list[JointEquation]] = []
    for newcomers in groups.values():
        unknown = {k: a for a, k in enumerate(newcomers)}
        equations = []
        for k in newcomers:
            opponents = games.of(k)
            leftover = f.leftover.get(k, [])
            fixed: list[float] = [anchor for j in opponents if (anchor := anchors[j]) is not None]
            fixed += [r for r, _ in leftover]
            coupled = tuple(unknown[j] for j in opponents if anchors[j] is None)
            equations.append(JointEquation(tuple(fixed), coupled, float(games.w[k]) + sum(s for _, s in leftover)))
        systems.append(equations)
    solutions = [solve_jointly(equations) for equations in systems] if kernel is None else kernel.solve_jointly(systems)
    ri: dict[int, float] = {}
    for newcomers, solution in zip(groups.values(), solutions, strict=True):
        ri.update(zip(newcomers, solution, strict=True))
    return ri


def _first_ratings(ri: dict[int, float], rules: RuleSet) -> dict[int, int]:
    return {k: rules.first_rating.first_rating(value) for k, value in ri.items()}


def _basis(f: _Field, first: dict[int, int]) -> Ints:
    """Every player's rating as an opponent counts it in performances: R0, or the first rating
    of a newcomer (spec §9.5, §13.2). Players outside Auswahl II are never anyone's rated
    opponent: 0 stands in."""
    basis = f.rating.copy()
    for k, value in first.items():
        basis[k] = value
    return basis


def _performances(
    f: _Field,
    games: _Games,
    which: Flags,
    *,
    stage: Ints,
    basis: Ints,
    ri: dict[int, float],
    rules: RuleSet,
    rh: Ints,
    has_rh: Flags,
    search: Callable[[Ints, Ints, Floats, Ints, Ints], Ints],
) -> None:
    """spec §9.5, §13.3, §13.4: Rh over this tournament's rated games, for the players in
    ``which``, into ``rh`` where ``has_rh``."""
    w, n = games.w, games.n
    has_rh[which] = False
    from_games = which & (stage != _UNRATED)
    for k, value in ri.items():
        if which[k] and not f.leftover.get(k):
            rh[k], has_rh[k] = round_float(value), True  # WO 3.6: a newcomer's Rh is his Ri
            from_games[k] = False
    chosen = from_games & (n >= rules.min_games) & (w > 0)
    # An Ausnahmespieler counts with Rh only in the joint iteration and in We (spec §9.6);
    # in performances every established opponent counts with his R0 (spec §9.5, §13.2).
    partial = np.flatnonzero(chosen & (w < n))
    if partial.size:
        rh[partial] = search(games.owner, basis[games.opponent], w, n, partial)
        has_rh[partial] = True
    for k in np.flatnonzero(chosen & (w >= n)).tolist():
        opponents: list[int] = basis[games.opponent[games.owner == k]].tolist()
        mean = sum(opponents) / len(opponents)
        if rules.perfect_score is PerfectScore.MEAN_PLUS_677:
            rh[k] = round_float(mean + _PERFECT_MARGIN)
        else:
            rh[k] = round_float(solve_rating([*map(float, opponents), mean], float(w[k]) + 0.5))
        has_rh[k] = True


def _conclude(
    f: _Field,
    rules: RuleSet,
    games: _Games,
    *,
    stage: Ints,
    first: dict[int, int],
    we_basis: Ints,
    rh: Ints,
    has_rh: Flags,
    sonder: Flags,
    sums: Callable[[Ints, Ints, Ints, int], Floats],
) -> list[TournamentEvaluation]:
    """The report rows and the states after each tournament (spec §9.7-9.9). ``we_basis``: every
    player's rating as an opponent's We counts it (§9.8): R0, Rh of an Ausnahmespieler (§9.6),
    or the final first rating of a newcomer."""
    size = len(f.pids)
    w, n = games.w, games.n
    established = f.established
    members = np.array(f.members, dtype=bool)
    fide_start = np.array(f.fide_start, dtype=bool)
    # spec §13.11: an index below 1 counts as 1 (no index: None -> nan, which fmax passes over)
    index = np.fmax(np.array(f.i0, dtype=float), 1.0).astype(np.int64)
    we = np.zeros(size)
    e = np.zeros(size, dtype=np.int64)
    k_factor = np.zeros(size)
    rn = np.zeros(size, dtype=np.int64)
    i_new = np.zeros(size, dtype=np.int64)
    has_rn = np.zeros(size, dtype=bool)
    has_e = has_k = np.zeros(size, dtype=bool)
    rated_after = np.zeros(size, dtype=bool)  # a member who has a DWZ after the tournament

    live = established & (n > 0)
    evaluated = np.flatnonzero(live)
    if evaluated.size:
        mine = live[games.owner]
        expected = sums(f.rating, we_basis[games.opponent[mine]], games.owner[mine], size)[evaluated]
        played = w[evaluated]
        own = f.rating[evaluated]
        own_index = index[evaluated]
        rule_index = np.where(fide_start[evaluated], rules.coefficient.fide_start_index, own_index)
        ale = _at_least_expected(played, expected)
        result = rules.coefficient.new_ratings(
            CoefficientColumns(own, rule_index, f.ages[evaluated], played, expected, n[evaluated], ale)
        )
        we[evaluated] = rounded_floats(expected, 6)
        if result.e is not None:
            e[evaluated], has_e = result.e, live
        if result.k is not None:
            k_factor[evaluated], has_k = result.k, live
        rn[evaluated], i_new[evaluated], has_rn[evaluated] = result.rn, own_index + 1, True
        rated_after[evaluated] = members[evaluated]
    kept = np.flatnonzero(established & (n == 0) & ~fide_start).tolist()
    for k in kept:  # nothing rated: rating and index kept
        state = f.before[k]
        assert state.rating is not None
        rn[k], i_new[k], has_rn[k] = state.rating, state.index, True
    stored = live & members
    leftover_used = [0] * size
    leftover_stored = [0] * size
    for k, rating in first.items():
        rn[k], i_new[k], has_rn[k] = rating, 1, True
        leftover_used[k] = len(f.leftover.get(k, ()))
        stored[k] = rated_after[k] = f.members[k]
    after = _states_after(f.before, rated_after, rn, i_new)
    for k in np.flatnonzero((stage == _UNRATED) & members).tolist():
        new_games = _new_leftover(f, f.tournaments[int(f.home[k])], stage, first, k)
        leftover_stored[k] = len(new_games)
        state = f.before[k]
        after[k] = PlayerState(rating=None, index=state.index, leftover=f.kept.get(k, ()) + new_games)

    i0 = np.array(f.i0, dtype=float)  # None -> nan
    has_i0 = ~np.isnan(i0)
    had_rating = ~np.isnan(f.before_rating)
    before_rating = np.where(had_rating, f.before_rating, 0).astype(np.int64)
    columns = ReportColumns(
        rule_set=rules.name,
        ids=tuple(t.id for t in f.tournaments),
        end_dates=tuple(t.end_date for t in f.tournaments),
        acronyms=tuple(t.acronym for t in f.tournaments),
        starts=tuple(f.starts),
        home=f.home,
        pids=f.pids,
        before=f.before,
        after=after,
        before_rating=before_rating,
        has_before_rating=had_rating,
        before_index=f.before_index,
        # as ``after``: a new DWZ where ``rated_after``, else the rating and index before
        after_rating=np.where(rated_after, rn, before_rating),
        has_after_rating=rated_after | had_rating,
        after_index=np.where(rated_after, i_new, f.before_index),
        member=members,
        stage=stage,
        fide_start=fide_start,
        r0=f.rating,
        has_r0=established,
        i0=np.where(has_i0, i0, 0).astype(np.int64),
        has_i0=has_i0,
        w=w,
        n=n,
        unrated_games=f.games - n,
        we=we,
        has_we=live,
        e=e,
        has_e=has_e,
        k=k_factor,
        has_k=has_k,
        rh=rh,
        has_rh=has_rh,
        sonder=sonder,
        rn=rn,
        has_rn=has_rn,
        i_new=i_new,
        stored=stored,
        leftover_used=np.array(leftover_used, dtype=np.int64),
        leftover_stored=np.array(leftover_stored, dtype=np.int64),
    )
    pids, before = f.pids, f.before
    return [
        TournamentEvaluation(
            rules.name,
            states=MappingProxyType(dict(zip(pids[a:b], after[a:b], strict=True))),
            inputs=MappingProxyType(dict(zip(pids[a:b], before[a:b], strict=True))),
            columns=columns,
            span=(a, b),
        )
        for a, b in pairwise(f.starts)
    ]


def _new_leftover(
    f: _Field, tournament: Tournament, stage: Ints, first: dict[int, int], k: int
) -> tuple[LeftoverGame, ...]:
    """spec §9.9: the games of a member outside Auswahl II against Auswahl I, kept for later
    tournaments, each with the opponent's R0 (marked when FIDE) or new first rating, never an
    Rh (§13.5)."""
    mine = f.owner == k
    new_games = []
    for j, points in zip(f.opponent[mine].tolist(), f.points[mine].tolist(), strict=True):
        if stage[j] == _ESTABLISHED:
            rating = f.r0[j]
            assert rating is not None
            new_games.append(LeftoverGame(tournament.id, tournament.end_date, rating, points, f.r0_is_fide[j]))
        elif stage[j] == _STAGE1:
            new_games.append(LeftoverGame(tournament.id, tournament.end_date, first[j], points))
    return tuple(new_games)
