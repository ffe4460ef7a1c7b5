"""The effective-dated rule-set table (spec §1) and the one-off conversion (spec §8).

Every parameter of the rules lives here, in one table keyed by the date from which a rule set
applies, so that a federation can add a future rule set by adding a row, not by editing the
engine. The evaluation (``tournament.py``) asks this module which rule set an end date falls
under and delegates the rule-specific arithmetic (E or K, first ratings) to it.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from enum import Enum
from fractions import Fraction
from functools import lru_cache
from math import exp
from typing import NamedTuple, Protocol

import numpy as np
from numpy.typing import NDArray

from zdb.rating.rounding import Floats, Ints, round_float, round_floats, round_half_up, round_half_up_to
from zdb.rating.tabulated import LazyTable

__all__ = [
    "CONVERSIONS",
    "RULE_SETS",
    "ClassicCoefficient",
    "ClassicFirstRating",
    "Coefficient",
    "CoefficientColumns",
    "CoefficientInput",
    "CoefficientResult",
    "CoefficientResults",
    "Conversion",
    "FirstRatingCorrection",
    "PerfectScore",
    "RuleSet",
    "Wo2026Factor",
    "Wo2026FirstRating",
    "conversions_between",
    "rule_set_for",
]

#: spec §6, §7, §13.11: a player of unknown birth year counts as 26 or older.
ADULT_AGE = 99


class CoefficientInput(NamedTuple):
    """What the E or K rule needs of one established player (a named tuple: built for every
    one of them, and as immutable as a frozen dataclass)."""

    r0: int
    rule_index: int  # the index the rule uses (index 0 counted as 1; FIDE start values per rule set)
    age: int  # ADULT_AGE when unknown
    w: float
    we: float
    n: int
    at_least_expected: bool  # W >= We, with We rounded to 9 decimals (spec §13.1)


class CoefficientResult(NamedTuple):
    e: int | None
    k: Fraction | None
    rn: int


class CoefficientColumns(NamedTuple):
    """``CoefficientInput`` of many players at once, one array per field."""

    r0: Ints
    rule_index: Ints
    age: Ints
    w: Floats
    we: Floats
    n: Ints
    at_least_expected: NDArray[np.bool_]

    @classmethod
    def of(cls, player: CoefficientInput) -> CoefficientColumns:
        r0, rule_index, age, w, we, n, ale = player
        return cls(
            np.array([r0]),
            np.array([rule_index]),
            np.array([age]),
            np.array([w]),
            np.array([we]),
            np.array([n]),
            np.array([ale]),
        )


class CoefficientResults(NamedTuple):
    """E (classic) or K (WO 2026, as the float it counts with) and Rn of many players."""

    e: Ints | None
    k: Floats | None
    rn: Ints


class Coefficient(Protocol):
    #: the index a FIDE start value uses in this rule (spec §6: 1 for the cap; §7: 6 for K0)
    fide_start_index: int

    def new_rating(self, player: CoefficientInput) -> CoefficientResult: ...

    def new_ratings(self, players: CoefficientColumns) -> CoefficientResults: ...


# eq=False: rule objects are compared and hashed by identity, which keeps the caches cheap.
@dataclass(frozen=True, slots=True, eq=False)
class ClassicCoefficient:
    """Development coefficient E of the Wertungsordnung before 2026 (spec §6)."""

    youth_age: int = 20
    junior_age: int = 25
    j_youth: int = 5
    j_junior: int = 10
    j_adult: int = 15
    fb_min: Fraction = Fraction(1, 2)
    fb_divisor: int = 2000
    sbr_below: int = 1300
    sbr_scale: int = 150
    e_min: int = 5
    cap_per_index: int = 5
    cap_index_limit: int = 5
    cap: int = 30
    sbr_cap: int = 150
    fide_start_index: int = 1  # WO Anhang 1.2: the cap uses i = 1 in the first evaluation
    #: E before its caps by (R0, age group and W >= We), with 1.0 in the second column where SBr applies
    _unbounded: LazyTable = field(init=False, repr=False)

    def __post_init__(self) -> None:
        groups = self.junior_age + 2 - self.youth_age
        object.__setattr__(self, "_unbounded", LazyTable(2 * groups, 2, self._unbounded_row))

    def j(self, age: int) -> int:
        """The age term J of E0."""
        if age <= self.youth_age:
            return self.j_youth
        if age <= self.junior_age:
            return self.j_junior
        return self.j_adult

    def e0(self, r0: int, age: int) -> Fraction:
        """E0 = (R0 / 1000)^4 + J, exact (spec §5)."""
        return Fraction(r0, 1000) ** 4 + self.j(age)

    def youth_factor(self, r0: int, age: int, at_least_expected: bool) -> Fraction:
        """fB: R0 / 2000 within [0.5, 1] for a youth at or above expectation, else 1."""
        if age <= self.youth_age and at_least_expected:
            return min(Fraction(1), max(self.fb_min, Fraction(r0, self.fb_divisor)))
        return Fraction(1)

    def braking_term(self, r0: int, at_least_expected: bool) -> float:
        """SBr = exp((1300 − R0) / 150) − 1 below 1300 and below expectation, else 0."""
        if r0 < self.sbr_below and not at_least_expected:
            return exp((self.sbr_below - r0) / self.sbr_scale) - 1.0
        return 0.0

    def index_cap(self, index: int) -> int:
        """The cap of E without SBr: 5 · i up to index 5, then 30."""
        return self.cap_per_index * index if index <= self.cap_index_limit else self.cap

    def new_rating(self, player: CoefficientInput) -> CoefficientResult:
        result = self.new_ratings(CoefficientColumns.of(player))
        assert result.e is not None
        return CoefficientResult(int(result.e[0]), None, int(result.rn[0]))  # e, k, rn

    def new_ratings(self, players: CoefficientColumns) -> CoefficientResults:
        r0, index = players.r0, players.rule_index
        # Ages within one class of J and fB share E0 · fB (youth, each junior year, adult).
        group = np.where(players.age <= self.youth_age, self.youth_age, np.minimum(players.age, self.junior_age + 1))
        unbounded = self._unbounded(r0, (group - self.youth_age) * 2 + players.at_least_expected)
        braked = unbounded[:, 1] > 0.0
        index_cap = np.where(index <= self.cap_index_limit, self.cap_per_index * index, self.cap)
        e = np.minimum(
            np.maximum(self.e_min, unbounded[:, 0].astype(np.int64)), np.where(braked, self.sbr_cap, index_cap)
        )
        rn = round_floats(r0 + 800.0 * (players.w - players.we) / (e + players.n))
        return CoefficientResults(e, None, rn)

    def _unbounded_row(self, r0: int, key: int) -> tuple[float, float]:
        exact, rounded, sbr = self._base(r0, self.youth_age + key // 2, bool(key % 2))
        if sbr > 0.0:
            return float(round_float(exact + sbr)), 1.0
        return float(rounded), 0.0

    @lru_cache(maxsize=1 << 16)  # noqa: B019 - rule objects hash by identity and live for the process
    def _base(self, r0: int, age: int, at_least_expected: bool) -> tuple[float, int, float]:
        """E0 · fB, exact (rational by definition, spec §5), as a float and rounded half up; SBr."""
        exact = self.e0(r0, age) * self.youth_factor(r0, age, at_least_expected)
        return float(exact), round_half_up(exact), self.braking_term(r0, at_least_expected)


@dataclass(frozen=True, slots=True, eq=False)
class Wo2026Factor:
    """Factor K of the Wertungsordnung 2026 (spec §7, seed 001)."""

    # K0 by index 1-2, 3, 4, ..., 10, >= 11; rows as in spec §7.
    k0_rows: tuple[tuple[int, ...], ...] = (
        (60, 48, 46, 44, 42, 40, 38, 36, 34, 32),
        (60, 44, 42, 40, 38, 36, 34, 32, 30, 28),
        (60, 41, 39, 37, 35, 33, 31, 29, 27, 25),
    )
    young_age: int = 25
    young_limit: int = 2200
    adult_limit: int = 2000
    youth_age: int = 20
    youth_bonus_below: int = 2000
    youth_bonus_divisor: int = 30
    adult_bonus_below: int = 1600
    adult_bonus: int = 4
    brake_below: int = 1600
    brake_offset: int = 800
    brake_divisor: int = 2400
    k_max: int = 80
    floor: int = 1100
    fide_start_index: int = 6  # spec §7: no index-1 rule in WO 2026
    #: float(K) by (R0, age class, K0 column and W >= We)
    _factors: LazyTable = field(init=False, repr=False)

    def __post_init__(self) -> None:
        ages = self.young_age + 2 - self.youth_age
        object.__setattr__(self, "_factors", LazyTable(ages * self._COLUMNS * 2, 1, self._factor_row))

    _COLUMNS = 10  # K0 columns: index 1-2, 3, ..., 10, 11 and above

    def row(self, r0: int, age: int) -> int:
        """The row of the K0 table (1-3, spec §7)."""
        if age <= self.young_age and r0 < self.young_limit:
            return 1
        if age > self.young_age and r0 < self.adult_limit:
            return 2
        return 3

    def k0(self, r0: int, age: int, index: int) -> int:
        return self.k0_rows[self.row(r0, age) - 1][min(max(index, 2), 11) - 2]

    def success_bonus(self, r0: int, age: int, at_least_expected: bool) -> Fraction:
        """Erfolgsaufschlag a (only at or above expectation)."""
        if at_least_expected:
            if age <= self.youth_age and r0 < self.youth_bonus_below:
                return Fraction(self.youth_bonus_below - r0, self.youth_bonus_divisor)
            if age > self.youth_age and r0 < self.adult_bonus_below:
                return Fraction(self.adult_bonus)
        return Fraction(0)

    def brake(self, r0: int, at_least_expected: bool) -> Fraction:
        """Bremsfaktor b (only below expectation and below 1600)."""
        if not at_least_expected and r0 < self.brake_below:
            return Fraction(r0 + self.brake_offset, self.brake_divisor)
        return Fraction(1)

    def new_rating(self, player: CoefficientInput) -> CoefficientResult:
        k = self.factor(player.r0, self._age_class(player.age), min(player.rule_index, 11), player.at_least_expected)
        return CoefficientResult(None, k, int(self.new_ratings(CoefficientColumns.of(player)).rn[0]))  # e, k, rn

    def new_ratings(self, players: CoefficientColumns) -> CoefficientResults:
        ages = np.where(players.age <= self.youth_age, self.youth_age, np.minimum(players.age, self.young_age + 1))
        columns = np.minimum(np.maximum(players.rule_index, 2), self._COLUMNS + 1) - 2
        keys = ((ages - self.youth_age) * self._COLUMNS + columns) * 2 + players.at_least_expected
        k = self._factors(players.r0, keys)[:, 0]
        rn = np.maximum(self.floor, round_floats(players.r0 + k * (players.w - players.we)))
        return CoefficientResults(None, k, rn)

    def _age_class(self, age: int) -> int:
        """K depends on the age only through ≤ 20 (bonus), ≤ 25 (row) and above: one age stands
        for each class, which keeps the caches small."""
        return self.youth_age if age <= self.youth_age else min(age, self.young_age + 1)

    def _factor_row(self, r0: int, key: int) -> tuple[float]:
        ages, rest = divmod(key, self._COLUMNS * 2)
        column, ale = divmod(rest, 2)
        return (float(self.factor(r0, self.youth_age + ages, column + 2, bool(ale))),)

    @lru_cache(maxsize=1 << 16)  # noqa: B019 - rule objects hash by identity and live for the process
    def factor(self, r0: int, age: int, index: int, at_least_expected: bool) -> Fraction:
        """K, exact (spec §5): K0 · b + a, rounded half up to one decimal, at most 80."""
        exact = self.k0(r0, age, index) * self.brake(r0, at_least_expected)
        exact += self.success_bonus(r0, age, at_least_expected)
        return min(Fraction(self.k_max), round_half_up_to(exact, 1))


class FirstRatingCorrection(Protocol):
    def first_rating(self, ri: float) -> int: ...


@dataclass(frozen=True, slots=True)
class ClassicFirstRating:
    """spec §9.7, classic: Ri below 800 becomes 700 + Ri / 8."""

    below: int = 800
    base: int = 700
    divisor: int = 8

    def first_rating(self, ri: float) -> int:
        return round_float(self.base + ri / self.divisor if ri < self.below else ri)


@dataclass(frozen=True, slots=True)
class Wo2026FirstRating:
    """spec §9.7, WO 2026 [decision after the published parameter r = 0.08]."""

    keep_from: int = 2000
    r: float = 0.08
    low_below: int = 1100
    low_base: int = 1100
    low_factor: float = 0.72
    low_divisor: int = 11
    floor: int = 1100

    def first_rating(self, ri: float) -> int:
        if ri >= self.keep_from:
            value = ri
        elif ri >= self.low_below:
            value = ri + self.r * (self.keep_from - ri)
        else:
            value = self.low_base + self.low_factor * ri / self.low_divisor
        return max(self.floor, round_float(value))


class PerfectScore(Enum):
    """How a 100 % score gets a performance (spec §9.5 [decision])."""

    FICTITIOUS_DRAW = "fictitious-draw"  # a draw against the mean of the opponents
    MEAN_PLUS_677 = "mean+677"  # the older rule


@dataclass(frozen=True, slots=True)
class RuleSet:
    """One row of the effective-dated table: applies to tournaments ending on or after
    ``valid_from`` until the next row's date."""

    name: str
    valid_from: date
    coefficient: ClassicCoefficient | Wo2026Factor
    first_rating: ClassicFirstRating | Wo2026FirstRating
    perfect_score: PerfectScore = PerfectScore.FICTITIOUS_DRAW
    min_games: int = 5  # stage conditions and performance (spec §9.2, §9.3, §9.5)
    sonder_margin: int = 300  # Rh − R0 above this makes an Ausnahmespieler (spec §9.6)
    fide_only_from: int = 2400  # DWZ from which a given FIDE rating is R0 (spec §10)
    fide_start_index: int = 6  # index of a FIDE start value (WO 2.2.4, spec §10)
    leftover_years: int = 2  # leftover games expire after this many years (WO 4.1.1)


@dataclass(frozen=True, slots=True)
class Conversion:
    """A one-off rescaling of every DWZ (spec §8), ordered after all tournaments of its date."""

    name: str
    date: date
    low_limit: int = 1000
    low_add: int = 400
    high_limit: int = 2110
    factor: Fraction = Fraction(64, 100)
    offset: int = 760
    floor: int = 1100  # [decision]
    index_increment: int = 1

    def convert(self, rating: int) -> int:
        if rating <= self.low_limit:
            value = rating + self.low_add
        elif rating <= self.high_limit:
            value = round_half_up(self.factor * rating + self.offset)  # exact: 1001 -> 1401
        else:
            value = rating
        return max(self.floor, value)


RULE_SETS: tuple[RuleSet, ...] = (
    RuleSet("classic", date.min, ClassicCoefficient(), ClassicFirstRating()),
    RuleSet("wo2026", date(2026, 6, 8), Wo2026Factor(), Wo2026FirstRating()),
)

CONVERSIONS: tuple[Conversion, ...] = (Conversion("conversion-2026", date(2026, 6, 7)),)

_STARTS = [rule_set.valid_from for rule_set in RULE_SETS]


def rule_set_for(end_date: date, table: Sequence[RuleSet] = RULE_SETS) -> RuleSet:
    """The rule set that applies to a tournament ending on ``end_date`` (spec §1)."""
    starts = _STARTS if table is RULE_SETS else [rule_set.valid_from for rule_set in table]
    position = bisect_right(starts, end_date) - 1
    if position < 0:
        raise ValueError(f"no rule set applies to {end_date.isoformat()}")
    return table[position]


def conversions_between(recorded: date, used: date) -> tuple[Conversion, ...]:
    """Conversions that lie between a rating recorded on ``recorded`` and its use in a
    tournament ending on ``used`` (spec §13.6): recorded on or before the conversion's date,
    used in a tournament ending after it."""
    return tuple(c for c in CONVERSIONS if recorded <= c.date < used)
