"""A time line as the arrays the compiled pass reads, and the players' states as arrays.

Players get dense numbers (every player of the initial states, then each new one in the order
met); tournaments are offsets into one participant array and one game array; start ratings and
conversions are rows of small integer tables; each event names its kind, its row and its rule
set. The rule sets (``zdb.rating.rulesets``) become rows of parameters: the integers the pass
needs to compute E and K exactly.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import NDArray

from zdb.rating import (
    CONVERSIONS,
    RULE_SETS,
    Conversion,
    LeftoverGame,
    PlayerId,
    PlayerState,
    StartRating,
    Tournament,
)
from zdb.rating.entries import RESULT_ORDER, entries_of
from zdb.rating.lattice import _AT_ARRAY, _HALF_ARRAY, TABLE_LIMIT
from zdb.rating.model import ResultCode
from zdb.rating.rulesets import (
    ClassicCoefficient,
    ClassicFirstRating,
    PerfectScore,
    RuleSet,
)

__all__ = ["LeftoverPool", "TimelineArrays", "build_arrays", "ymd"]

Ints = NDArray[np.int64]
Floats = NDArray[np.float64]

_PLAYED_CODES = {ResultCode.WHITE_WINS: 0, ResultCode.BLACK_WINS: 1, ResultCode.DRAW: 2}
#: the loop's game codes by ``EntryColumns.result``: 0 white wins, 1 black wins, 2 draw, 3 not played
_GAME_CODES = np.array([_PLAYED_CODES.get(result, 3) for result in RESULT_ORDER], dtype=np.int64)
_RULE_COLUMNS = 19
_COEFFICIENT_COLUMNS = 40
#: leftover games the pool holds at first (it grows as needed)
POOL_CAPACITY = 1024


def ymd(day: date) -> int:
    """A date as the integer yyyymmdd (ordered as the dates are)."""
    return day.year * 10000 + day.month * 100 + day.day


def rule_parameters(rule_set: RuleSet) -> tuple[Ints, Floats]:
    """One rule set as a row of integers (``loop.R_…``) and its first-rating parameters."""
    row = np.zeros(_RULE_COLUMNS, dtype=np.int64)
    coefficient = rule_set.coefficient
    row[1:7] = (
        rule_set.min_games,
        rule_set.sonder_margin,
        rule_set.fide_only_from,
        rule_set.fide_start_index,
        rule_set.leftover_years,
        1 if rule_set.perfect_score is PerfectScore.MEAN_PLUS_677 else 0,
    )
    row[8] = coefficient.fide_start_index
    row[9] = coefficient.youth_age
    if isinstance(coefficient, ClassicCoefficient):
        row[0] = 0
        row[10:16] = (
            coefficient.junior_age,
            coefficient.e_min,
            coefficient.cap_per_index,
            coefficient.cap_index_limit,
            coefficient.cap,
            coefficient.sbr_cap,
        )
    else:
        row[0] = 1
        row[10], row[16] = coefficient.young_age, coefficient.floor
    first = rule_set.first_rating
    if isinstance(first, ClassicFirstRating):
        row[7] = 0
        values: list[float] = [first.below, first.base, first.divisor, 0, 0, 0, 0]
    else:
        row[7] = 1
        values = [first.keep_from, first.r, first.low_below, first.low_base, first.low_factor, first.low_divisor]
        values.append(first.floor)
    return row, np.array(values, dtype=float)


def coefficient_row(rule_set: RuleSet) -> Ints:
    """The integers of a rule set's E or K that the pass computes exactly (``solvers``)."""
    row = np.zeros(_COEFFICIENT_COLUMNS, dtype=np.int64)
    c = rule_set.coefficient
    if isinstance(c, ClassicCoefficient):
        fb_min = Fraction(c.fb_min)
        row[:6] = (c.j_youth, c.j_junior, c.j_adult, fb_min.numerator, fb_min.denominator, c.fb_divisor)
        row[6:8] = (c.sbr_below, c.sbr_scale)
    else:
        row[:10] = (
            c.young_limit,
            c.adult_limit,
            c.youth_bonus_below,
            c.youth_bonus_divisor,
            c.adult_bonus_below,
            c.adult_bonus,
            c.brake_below,
            c.brake_offset,
            c.brake_divisor,
            c.k_max,
        )
        row[10:40] = [k0 for k0_row in c.k0_rows for k0 in k0_row]
    return row


def conversion_row(conversion: Conversion) -> list[int]:
    factor = Fraction(conversion.factor)
    return [
        ymd(conversion.date),
        conversion.low_limit,
        conversion.low_add,
        conversion.high_limit,
        factor.numerator,
        factor.denominator,
        conversion.offset,
        conversion.floor,
        conversion.index_increment,
    ]


class LeftoverPool:
    """Every player's stored leftover games: player p's are the slots ``start[p]`` to
    ``start[p] + length[p]`` of the pool's columns, in their order. A changed list is written
    anew at the pool's end; ``grow`` makes room."""

    def __init__(self, capacity: int) -> None:
        self.tid = np.zeros(capacity, dtype=np.int64)
        self.ymd = np.zeros(capacity, dtype=np.int64)
        self.rating = np.zeros(capacity, dtype=np.int64)
        self.points = np.zeros(capacity)
        self.fide = np.zeros(capacity, dtype=np.bool_)
        self.used = np.zeros(1, dtype=np.int64)

    def grow(self, needed: int) -> None:
        capacity = max(needed, 2 * self.tid.size, 1024)
        for name in ("tid", "ymd", "rating", "points", "fide"):
            old = getattr(self, name)
            new = np.zeros(capacity, dtype=old.dtype)
            new[: old.size] = old
            setattr(self, name, new)


@dataclass(slots=True)
class TimelineArrays:
    """The pass's input and its players' states (see the module docstring)."""

    pids: list[PlayerId]
    number: dict[PlayerId, int]
    tournaments: list[Tournament]
    events: tuple[Any, ...]
    rule_sets: tuple[RuleSet, ...]
    rules: tuple[Any, ...]
    rating: Ints
    has_rating: NDArray[np.bool_]
    index: Ints
    lo_start: Ints
    lo_len: Ints
    pool: LeftoverPool

    def state(self) -> tuple[Any, ...]:
        pool = self.pool
        return (
            self.rating,
            self.has_rating,
            self.index,
            self.lo_start,
            self.lo_len,
            pool.tid,
            pool.ymd,
            pool.rating,
            pool.points,
            pool.fide,
            pool.used,
        )

    def player(self, pid: PlayerId) -> int:
        """The dense number of a player, a new one (without a rating) if he is not known yet."""
        p = self.number.get(pid)
        if p is None:
            self._add([pid])
            p = self.number[pid]
        return p

    def _add(self, pids: Sequence[PlayerId]) -> None:
        self._register(pids)
        self._grow()

    def _register(self, pids: Sequence[PlayerId]) -> None:
        number = self.number
        for pid in pids:
            if pid not in number:
                number[pid] = len(self.pids)
                self.pids.append(pid)

    def _grow(self) -> None:
        """State arrays for every registered player (new ones without a rating)."""
        grown = len(self.pids) - self.rating.size
        if grown > 0:
            for name in ("rating", "has_rating", "index", "lo_start", "lo_len"):
                old = getattr(self, name)
                setattr(self, name, np.concatenate([old, np.zeros(grown, dtype=old.dtype)]))

    def rule_of(self, end_date: date) -> int:
        """The position of the rule set of a tournament ending on ``end_date`` (spec §1)."""
        starts = [ymd(r.valid_from) if r.valid_from.year > 1 else 0 for r in self.rule_sets]
        return bisect_right(starts, ymd(end_date)) - 1

    def load(self, timeline: Iterable[Tournament | Conversion | StartRating]) -> None:
        """Make ``timeline`` (in order) the events of the next pass; the states stay."""
        kinds: list[int] = []
        refs: list[int] = []
        event_rules: list[int] = []
        tournaments: list[Tournament] = []
        starts: list[tuple[int, int, int]] = []
        conversions: list[list[int]] = [conversion_row(c) for c in CONVERSIONS]
        entries = []
        for event in timeline:
            if isinstance(event, Tournament):
                columns = entries_of(event)
                self._register(columns.pids)
                kinds.append(0)
                refs.append(len(tournaments))
                event_rules.append(self.rule_of(event.end_date))
                tournaments.append(event)
                entries.append(columns)
            elif isinstance(event, StartRating):
                kinds.append(2)
                refs.append(len(starts))
                event_rules.append(0)
                starts.append((self.player(event.pid), event.rating, event.index))
            else:
                kinds.append(1)
                if event in CONVERSIONS:
                    refs.append(CONVERSIONS.index(event))
                else:
                    refs.append(len(conversions))
                    conversions.append(conversion_row(event))
                event_rules.append(0)
        self._grow()  # once: growing per tournament would copy the states each time
        sizes = [len(e.pids) for e in entries]
        counts = [len(e.white) for e in entries]
        t_pstart = np.zeros(len(entries) + 1, dtype=np.int64)
        t_gstart = np.zeros(len(entries) + 1, dtype=np.int64)
        np.cumsum(sizes, out=t_pstart[1:])
        np.cumsum(counts, out=t_gstart[1:])

        def joined(name: str, dtype: Any) -> Any:
            if not entries:
                return np.zeros(0, dtype=dtype)
            return np.concatenate([getattr(e, name) for e in entries]).astype(dtype)

        all_pids = [pid for e in entries for pid in e.pids]
        self.tournaments = tournaments
        self.events = (
            np.array(kinds, dtype=np.int64),
            np.array(refs, dtype=np.int64),
            np.array(event_rules, dtype=np.int64),
            np.array(starts, dtype=np.int64).reshape(len(starts), 3),
            np.array(conversions, dtype=np.int64).reshape(len(conversions), 9),
            t_pstart,
            t_gstart,
            np.array([t.end_date.year for t in tournaments], dtype=np.int64),
            np.array([ymd(t.end_date) for t in tournaments], dtype=np.int64),
            np.array([t.id for t in tournaments], dtype=np.int64),
            np.fromiter(map(self.number.__getitem__, all_pids), dtype=np.int64, count=len(all_pids)),
            joined("birth_year", np.int64),
            joined("has_birth_year", np.bool_),
            joined("member", np.bool_),
            joined("fide_rating", np.int64),
            joined("has_fide_rating", np.bool_),
            joined("white", np.int64),
            joined("black", np.int64),
            _GAME_CODES[joined("result", np.int64)],
        )

    def compact(self) -> None:
        """The leftover pool with only the games players hold now (changed lists leave their
        old slots behind)."""
        pool = self.pool
        holding = np.flatnonzero(self.lo_len)
        lengths = self.lo_len[holding]
        total = int(lengths.sum())
        new_starts = np.cumsum(lengths) - lengths
        slots = np.repeat(self.lo_start[holding] - new_starts, lengths) + np.arange(total)
        for name in ("tid", "ymd", "rating", "points", "fide"):
            column = getattr(pool, name)
            column[:total] = column[slots]
        self.lo_start[holding] = new_starts
        pool.used[0] = total

    def leftover(self, start: int, length: int) -> tuple[LeftoverGame, ...]:
        """The leftover games in the pool's slots ``start`` to ``start + length``."""
        if not length:
            return ()
        pool = self.pool
        stop = start + length
        return tuple(
            map(
                LeftoverGame,
                pool.tid[start:stop].tolist(),
                map(_date, pool.ymd[start:stop].tolist()),
                pool.rating[start:stop].tolist(),
                pool.points[start:stop].tolist(),
                pool.fide[start:stop].tolist(),
            )
        )

    def state_of(self, p: int) -> PlayerState:
        """Player ``p``'s state as the engine's value."""
        rating = int(self.rating[p]) if self.has_rating[p] else None
        return PlayerState(rating, int(self.index[p]), self.leftover(int(self.lo_start[p]), int(self.lo_len[p])))

    def set_state(self, p: int, state: PlayerState) -> None:
        """Player ``p``'s state as the engine gave it (its leftover games appended to the pool)."""
        self.rating[p] = state.rating if state.rating is not None else 0
        self.has_rating[p] = state.rating is not None
        self.index[p] = state.index
        games = state.leftover
        pool = self.pool
        start = int(pool.used[0])
        if start + len(games) > pool.tid.size:
            pool.grow(start + len(games))
        for at, game in enumerate(games, start):
            pool.tid[at], pool.ymd[at], pool.rating[at] = game.tournament, ymd(game.end_date), game.opp_rating
            pool.points[at], pool.fide[at] = game.points, game.opp_fide
        self.lo_start[p], self.lo_len[p] = (start, len(games)) if games else (0, 0)
        pool.used[0] = start + len(games)


def _date(value: int) -> date:
    return date(value // 10000, value // 100 % 100, value % 100)


def build_arrays(
    initial_states: Mapping[PlayerId, PlayerState],
    timeline: Iterable[Tournament | Conversion | StartRating],
    rule_sets: Sequence[RuleSet] = RULE_SETS,
) -> TimelineArrays:
    """The arrays of a time line (in order, ``build_timeline``) and of its initial states."""
    arrays = new_arrays(initial_states, rule_sets)
    arrays.load(timeline)
    return arrays


def new_arrays(
    initial_states: Mapping[PlayerId, PlayerState], rule_sets: Sequence[RuleSet] = RULE_SETS
) -> TimelineArrays:
    """The players' states as arrays, no events yet (``TimelineArrays.load``)."""
    parameters = [rule_parameters(rule_set) for rule_set in rule_sets]
    rules = (
        np.array([row for row, _ in parameters]),
        np.array([first for _, first in parameters]),
        _AT_ARRAY,
        _HALF_ARRAY,
        TABLE_LIMIT,
        np.array([coefficient_row(rule_set) for rule_set in rule_sets]),
    )
    players = len(initial_states)
    arrays = TimelineArrays(
        pids=list(initial_states),
        number={pid: k for k, pid in enumerate(initial_states)},
        tournaments=[],
        events=(),
        rule_sets=tuple(rule_sets),
        rules=rules,
        rating=np.zeros(players, dtype=np.int64),
        has_rating=np.zeros(players, dtype=np.bool_),
        index=np.zeros(players, dtype=np.int64),
        lo_start=np.zeros(players, dtype=np.int64),
        lo_len=np.zeros(players, dtype=np.int64),
        pool=LeftoverPool(POOL_CAPACITY),
    )
    for pid, state in initial_states.items():
        arrays.set_state(arrays.number[pid], state)
    return arrays
