"""FIDE Elo rule sets, effective-dated, and the tables they use.

Sources:
- FIDE Handbook B.02, FIDE Rating Regulations effective from 1 March 2024
  (handbook.fide.com/chapter/B022024), art. 7.2.1 (the 1400 floor of the list), 8.1.2 (table of
  scoring probability PD), 8.3.1 (the 400-point rule, amended effective 1 October 2025: not for
  players rated 2650 and above), 8.3.2 (Delta R = score - PD; the change is K times the sum),
  8.3.3 (K), 8.3.4 (the change is rounded, 0.5 away from zero).
- seed 003 (the "Wertungszahl-Simulator"): the older rule, k = 15, 25 with fewer than 30 rated
  games, 10 from 2400, an expected score 1 / (1 + 10^((R_G - R_E) / 400)) with differences
  above 400 cut to 400. It names no dates; FIDE's handbook of that time gives K = 25 for new
  players too (B.02 art. 14.3 of the 2003 handbook: "K = 25 it is 30 games"). The table uses it
  for every end date before the first dated row; the rule sets FIDE applied between (K 30/15/10
  before July 2014, K 40/20/10 from July 2014) are not tabulated.

A future rule set is one more row of ``FIDE_RULE_SETS``.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from enum import Enum
from fractions import Fraction

__all__ = ["FIDE_RULE_SETS", "Expectation", "FideRuleSet", "KFactorRules", "fide_rule_set", "fide_rule_set_for", "pd"]


class Expectation(Enum):
    FIDE_TABLE = "table 8.1.2"  # B.02 art. 8.3.2 a)
    LOGISTIC = "1/(1+10^(D/400))"  # seed 003


@dataclass(frozen=True, slots=True)
class KFactorRules:
    """B.02 art. 8.3.3. The article lists its lines in no order; they are applied as FIDE's
    published K values show: a rating that reached 2400 first, then a junior under the junior
    limit, then a new player, else the standard K. The cap keeps K times the games at most
    ``games_cap`` (K becomes the largest whole number that does)."""

    standard_k: int = 20  # "as long as a player's rating remains under 2400"
    new_player_k: int = 40  # "until they have completed events with at least 30 games"
    new_player_games: int = 30
    high_k: int = 10  # "once a player's published rating has reached 2400"
    high_from: int = 2400
    junior_k: int | None = 40  # "until the end of the year of their 18th birthday"
    junior_age: int = 18  # year of the end date minus the birth year, at most this
    junior_below: int = 2300  # "as long as their rating remains under 2300"
    games_cap: int | None = 700  # "K x n does not exceed 700"


@dataclass(frozen=True, slots=True)
class FideRuleSet:
    """One row of the effective-dated table: applies to tournaments ending on or after
    ``valid_from`` until the next row's date."""

    name: str
    valid_from: date
    k: KFactorRules
    expectation: Expectation
    difference_cap: int = 400  # art. 8.3.1: the 400-point rule
    cap_exempt_from: int | None = None  # art. 8.3.1 from 1 October 2025: no cap from 2650
    list_floor: int | None = None  # art. 7.2.1: below this, unrated on the next list


FIDE_RULE_SETS: tuple[FideRuleSet, ...] = (
    FideRuleSet(
        "fide-seed003",
        date.min,
        KFactorRules(standard_k=15, new_player_k=25, high_k=10, junior_k=None, games_cap=None),
        Expectation.LOGISTIC,
    ),
    FideRuleSet("fide-2024", date(2024, 3, 1), KFactorRules(), Expectation.FIDE_TABLE, list_floor=1400),
    FideRuleSet(
        "fide-2025-10", date(2025, 10, 1), KFactorRules(), Expectation.FIDE_TABLE, cap_exempt_from=2650, list_floor=1400
    ),
)

_STARTS = [rule_set.valid_from for rule_set in FIDE_RULE_SETS]


def fide_rule_set_for(end_date: date, table: Sequence[FideRuleSet] = FIDE_RULE_SETS) -> FideRuleSet:
    starts = _STARTS if table is FIDE_RULE_SETS else [rule_set.valid_from for rule_set in table]
    return table[max(0, bisect_right(starts, end_date) - 1)]


def fide_rule_set(name: str) -> FideRuleSet:
    for rule_set in FIDE_RULE_SETS:
        if rule_set.name == name:
            return rule_set
    raise KeyError(name)


#: B.02 table 8.1.2: the upper end of each band of |D| and the higher-rated player's PD in
#: hundredths; the lower-rated player's PD is 1 - that (the "L" column); above 735, 1.0 / .00.
_PD_BANDS: tuple[tuple[int, int], ...] = (
    (3, 50),
    (10, 51),
    (17, 52),
    (25, 53),
    (32, 54),
    (39, 55),
    (46, 56),
    (53, 57),
    (61, 58),
    (68, 59),
    (76, 60),
    (83, 61),
    (91, 62),
    (98, 63),
    (106, 64),
    (113, 65),
    (121, 66),
    (129, 67),
    (137, 68),
    (145, 69),
    (153, 70),
    (162, 71),
    (170, 72),
    (179, 73),
    (188, 74),
    (197, 75),
    (206, 76),
    (215, 77),
    (225, 78),
    (235, 79),
    (245, 80),
    (256, 81),
    (267, 82),
    (278, 83),
    (290, 84),
    (302, 85),
    (315, 86),
    (328, 87),
    (344, 88),
    (357, 89),
    (374, 90),
    (391, 91),
    (411, 92),
    (432, 93),
    (456, 94),
    (484, 95),
    (517, 96),
    (559, 97),
    (619, 98),
    (735, 99),
)
_BAND_ENDS = [end for end, _ in _PD_BANDS]
_CERTAIN = 100


def pd(difference: int) -> Fraction:
    """B.02 art. 8.3.2 a): the scoring probability for a rating difference D (own - opponent)."""
    band = bisect_left(_BAND_ENDS, abs(difference))
    higher = Fraction(_PD_BANDS[band][1] if band < len(_PD_BANDS) else _CERTAIN, 100)
    return higher if difference >= 0 else 1 - higher
