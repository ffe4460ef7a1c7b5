"""Why a rating changed: every term of one participant's evaluation, laid open.

The figures themselves are the engine's: ``explain`` re-runs ``evaluate_tournament`` on the
same inputs and asks the rule set's own ``new_rating`` for E or K and Rn. What the engine folds
into those figures (each game's expected score, J, E0, fB, SBr and the caps of spec §6; K0, the
Erfolgsaufschlag a and the Bremsfaktor b of spec §7; the values before rounding) is recomputed
here from the same rule-set parameters, so that a player, a referee or an auditor can follow
every step. The tests hold the parts to the engine's figures for every vector.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import Literal

from zdb.rating.expectation import expected_score
from zdb.rating.model import InvalidInputError, PlayerId, PlayerState, ReportRow, Stage, Tournament
from zdb.rating.rounding import FLOAT_DECIMALS, round_float, round_float_to, round_half_up, round_half_up_to
from zdb.rating.rulesets import (
    ADULT_AGE,
    ClassicCoefficient,
    CoefficientInput,
    RuleSet,
    Wo2026Factor,
    rule_set_for,
)
from zdb.rating.tournament import evaluate_tournament

__all__ = [
    "ClassicTerms",
    "Explanation",
    "GameTerm",
    "Wo2026Terms",
    "age_at",
    "at_least_expected",
    "classic_terms",
    "explain",
    "wo2026_terms",
]

#: spec §6: Rn = R0 + 800 · (W − We) / (E + n)
_CLASSIC_SCALE = 800.0

#: what an opponent counts with: his R0, an Ausnahmespieler's Rh, a newcomer's first rating
Basis = Literal["r0", "rh", "first_rating"]


@dataclass(frozen=True, slots=True)
class GameTerm:
    """One game of the player, rated or not, with what it contributes."""

    game: int  # position of the game in the tournament's games
    opponent: PlayerId
    white: bool
    result: str
    points: float
    rated: bool
    #: why the game does not count: "not played" (forfeit, asymmetric result), "player not rated"
    #: (not in Auswahl II), "opponent not rated"; None for a rated game
    unrated_reason: str | None
    #: the opponent's rating the player's figures use: in We for an established player (R0, an
    #: Ausnahmespieler's Rh, a newcomer's first rating), in Rh for a newcomer (R0 or first rating)
    opponent_rating: float | None
    opponent_basis: Basis | None
    difference: float | None  # own R0 minus the opponent's rating (established players)
    expected: float | None  # P(difference), spec §4 (established players)


@dataclass(frozen=True, slots=True)
class ClassicTerms:
    """spec §6, term by term."""

    j: int
    e0: Fraction  # (R0 / 1000)^4 + J, exact
    fb: Fraction  # 1 unless a youth scored at least We
    sbr: float  # 0 unless R0 < 1300 and W < We
    e_unbounded: int  # round(E0 · fB + SBr)
    e_min: int
    cap: int  # 5 · i (i <= 5), 30, or 150 with SBr
    cap_rule: Literal["index", "sbr"]
    e: int
    rn_exact: float  # R0 + 800 · (W − We) / (E + n), before rounding
    rn: int


@dataclass(frozen=True, slots=True)
class Wo2026Terms:
    """spec §7, term by term."""

    row: int  # 1, 2 or 3 of the K0 table
    k0: int
    a: Fraction  # Erfolgsaufschlag
    b: Fraction  # Bremsfaktor
    k_exact: Fraction  # K0 · b + a
    k_rounded: Fraction  # to one decimal, half up
    k_max: int
    k: Fraction
    rn_exact: float  # R0 + K · (W − We), before rounding and the floor
    floor: int
    rn: int


@dataclass(frozen=True, slots=True)
class Explanation:
    """One participant's evaluation: the report row and the terms behind it."""

    pid: PlayerId
    rule_set: str
    row: ReportRow
    age: int
    age_known: bool
    #: the index the E cap or the K0 column uses (index 0 counts as 1; FIDE start values per rule set)
    index_used: int | None
    games: tuple[GameTerm, ...]
    we_exact: float | None  # the sum of the expected scores, before rounding to 6 decimals
    at_least_expected: bool | None  # W >= We, with We rounded to 9 decimals (spec §13.1)
    classic: ClassicTerms | None
    wo2026: Wo2026Terms | None


def age_at(end_date: date, birth_year: int | None) -> int:
    """The age the rules use: year of the end date minus birth year; unknown counts as adult."""
    return ADULT_AGE if birth_year is None else end_date.year - birth_year


def at_least_expected(w: float, we: float) -> bool:
    """spec §13.1: W >= We with We rounded to 9 decimals."""
    return Fraction(w) >= round_float_to(we, FLOAT_DECIMALS)


def classic_terms(coefficient: ClassicCoefficient, player: CoefficientInput) -> ClassicTerms:
    result = coefficient.new_rating(player)
    assert result.e is not None
    r0, age = player.r0, player.age
    j = coefficient.j(age)
    e0 = coefficient.e0(r0, age)
    fb = coefficient.youth_factor(r0, age, player.at_least_expected)
    sbr = coefficient.braking_term(r0, player.at_least_expected)
    rule: Literal["index", "sbr"]
    if sbr > 0.0:
        unbounded = round_float(float(e0 * fb) + sbr)
        cap, rule = coefficient.sbr_cap, "sbr"
    else:
        unbounded = round_half_up(e0 * fb)
        cap, rule = coefficient.index_cap(player.rule_index), "index"
    rn_exact = r0 + _CLASSIC_SCALE * (player.w - player.we) / (result.e + player.n)
    return ClassicTerms(j, e0, fb, sbr, unbounded, coefficient.e_min, cap, rule, result.e, rn_exact, result.rn)


def wo2026_terms(factor: Wo2026Factor, player: CoefficientInput) -> Wo2026Terms:
    result = factor.new_rating(player)
    assert result.k is not None
    r0, age = player.r0, player.age
    row = factor.row(r0, age)
    a = factor.success_bonus(r0, age, player.at_least_expected)
    b = factor.brake(r0, player.at_least_expected)
    k0 = factor.k0(r0, age, player.rule_index)
    k_exact = k0 * b + a
    rn_exact = r0 + float(result.k) * (player.w - player.we)
    return Wo2026Terms(
        row, k0, a, b, k_exact, round_half_up_to(k_exact, 1), factor.k_max, result.k, rn_exact, factor.floor, result.rn
    )


def _basis(row: ReportRow, for_expected: bool) -> tuple[float, Basis]:
    """The rating an opponent counts with (spec §9.4-9.6): an established opponent with his R0
    (an Ausnahmespieler with his Rh in We), a newcomer with his first rating."""
    if row.stage is Stage.ESTABLISHED:
        assert row.r0 is not None
        if for_expected and row.sonder:
            assert row.rh is not None
            return float(row.rh), "rh"
        return float(row.r0), "r0"
    assert row.rn is not None
    return float(row.rn), "first_rating"


def explain(
    tournament: Tournament,
    states: Mapping[PlayerId, PlayerState],
    pid: PlayerId,
    rule_set: RuleSet | None = None,
) -> Explanation:
    """Explain player ``pid``'s evaluation in ``tournament`` from the participants' ``states``
    before it (as ``evaluate_tournament`` takes them)."""
    entries = {p.pid: p for p in tournament.players}
    if pid not in entries:
        raise InvalidInputError("pid", f"player {pid!r} did not take part in tournament {tournament.id}")
    rules = rule_set or rule_set_for(tournament.end_date)
    evaluation = evaluate_tournament(tournament, states, rules)
    rows = {row.pid: row for row in evaluation.rows}
    own = rows[pid]
    established = own.stage is Stage.ESTABLISHED
    games = []
    for position, game in enumerate(tournament.games):
        if pid not in (game.white, game.black):
            continue
        white = game.white == pid
        opponent = game.black if white else game.white
        points = game.result.white_points if white else game.result.black_points
        reason = None
        if not game.result.rated:
            reason = "not played"
        elif own.stage is Stage.UNRATED:
            reason = "player not rated"
        elif rows[opponent].stage is Stage.UNRATED:
            reason = "opponent not rated"
        rating = basis = difference = expected = None
        if reason is None:
            rating, basis = _basis(rows[opponent], for_expected=established)
            if established:
                assert own.r0 is not None
                difference = own.r0 - rating
                expected = expected_score(difference)
        games.append(
            GameTerm(
                position,
                opponent,
                white,
                game.result.value,
                points,
                reason is None,
                reason,
                rating,
                basis,
                difference,
                expected,
            )
        )
    birth_year = entries[pid].birth_year
    age = age_at(tournament.end_date, birth_year)
    we_exact = ale = index_used = classic = wo2026 = None
    if established and own.n:
        assert own.r0 is not None and own.i0 is not None
        # Summed in the order of the games, as the engine sums: the same float to the last bit.
        we_exact = sum(g.expected for g in games if g.expected is not None)
        ale = at_least_expected(own.w, we_exact)
        index_used = rules.coefficient.fide_start_index if own.fide_start else max(1, own.i0)
        player = CoefficientInput(own.r0, index_used, age, own.w, we_exact, own.n, ale)
        if isinstance(rules.coefficient, ClassicCoefficient):
            classic = classic_terms(rules.coefficient, player)
        else:
            wo2026 = wo2026_terms(rules.coefficient, player)
    return Explanation(
        pid=pid,
        rule_set=rules.name,
        row=own,
        age=age,
        age_known=birth_year is not None,
        index_used=index_used,
        games=tuple(games),
        we_exact=we_exact,
        at_least_expected=ale,
        classic=classic,
        wo2026=wo2026,
    )
