"""The tie-breaks of seed 002: Sonneborn-Berger, Buchholz and its variants.

Every one of them is a sum over the player's rounds of a *contribution*: the score of the
opponent met in that round (or of the dummy of an unplayed round, FIDE C.07 art. 16.4),
together with the points the player scored in it. Computing the contributions once keeps the
tie-breaks consistent with each other and with the crosstable.

- Buchholz (seed 002; C.07 art. 8.1): the sum of the opponents' scores.
- Sonneborn-Berger (seed 002; C.07 art. 9.1): each opponent's score times the points scored
  against him.
- Cut-1 and Cut-2 (seed 002 "Streich-Ergebnisse"; C.07 art. 14.1, 14.2): Buchholz without the
  one or two least significant values; median Buchholz (seed 002 "Gemittelte Buchholzwertung";
  C.07 art. 14.3 Median-1): without the least and then the most significant value.
- Refined Buchholz (seed 002 "Verfeinerte Buchholz-Wertung"): the sum of the Buchholz of all
  opponents the player played against.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

from zdb.rating import PlayerId
from zdb.standings.model import IndividualTournament, PairingSystem
from zdb.standings.records import RoundEntry, score
from zdb.standings.unplayed import adjusted_score, dummy_score

__all__ = ["Contribution", "buchholz", "contributions", "refined_buchholz", "sonneborn_berger"]


@dataclass(frozen=True, slots=True)
class Contribution:
    """What one round adds to a player's opponent-based tie-breaks."""

    round: int
    opponent: PlayerId | None  # None: the dummy of an unplayed round (C.07 art. 16.4)
    opponent_score: Fraction  # what Buchholz adds
    points: Fraction  # the player's own points in the round (Sonneborn-Berger multiplies)
    voluntarily_unplayed: bool  # a VUR (C.07 art. 16.1.2), cut first (art. 16.5)
    met: bool  # the opponent counts as played against (refined Buchholz)


def contributions(
    tournament: IndividualTournament, records: Mapping[PlayerId, tuple[RoundEntry, ...]]
) -> Mapping[PlayerId, tuple[Contribution, ...]]:
    if tournament.pairing_system is PairingSystem.ROUND_ROBIN:
        return _round_robin_contributions(records)
    return _swiss_contributions(records)


def _round_robin_contributions(
    records: Mapping[PlayerId, tuple[RoundEntry, ...]],
) -> Mapping[PlayerId, tuple[Contribution, ...]]:
    """C.07 art. 15.2: with pre-determined pairings, forfeit wins and losses (the only possible
    unplayed rounds) are treated as regular games; a round without a game (the free round of an
    odd round robin) adds nothing."""
    scores = {player: score(record) for player, record in records.items()}
    result = {}
    for player, record in records.items():
        result[player] = tuple(
            Contribution(entry.round, entry.opponent, scores[entry.opponent], entry.points, False, True)
            for entry in record
            if entry.opponent is not None
        )
    return MappingProxyType(result)


def _swiss_contributions(
    records: Mapping[PlayerId, tuple[RoundEntry, ...]],
) -> Mapping[PlayerId, tuple[Contribution, ...]]:
    """C.07 art. 15.3, 16: opponents count with their adjusted score (art. 16.3); each unplayed
    round is a game against a dummy (art. 16.4)."""
    adjusted = {player: adjusted_score(record) for player, record in records.items()}
    result = {}
    for player, record in records.items():
        own = score(record)
        items = []
        for position, entry in enumerate(record):
            if entry.played:
                opponent = entry.opponent
                assert opponent is not None
                items.append(Contribution(entry.round, opponent, adjusted[opponent], entry.points, False, True))
                continue
            scheduled = None if entry.opponent is None else adjusted[entry.opponent]
            dummy = dummy_score(record, position, own, scheduled)
            items.append(Contribution(entry.round, None, dummy, entry.points, entry.voluntarily_unplayed, False))
        result[player] = tuple(items)
    return MappingProxyType(result)


def sonneborn_berger(items: tuple[Contribution, ...]) -> Fraction:
    """seed 002; C.07 art. 9.1: the sum of each opponent's score times the points scored
    against him (a dummy's score for an unplayed round, art. 16.4)."""
    return sum((item.points * item.opponent_score for item in items), Fraction(0))


def buchholz(items: tuple[Contribution, ...], cut_least: int = 0, cut_most: int = 0) -> Fraction:
    """seed 002; C.07 art. 8.1, with the modifiers of art. 14.1 to 14.3.

    ``cut_least`` least significant values are cut first, then ``cut_most`` most significant
    ones (art. 14.3: "in that order"). art. 16.5.1: while the remaining elements hold a
    voluntarily unplayed round, the lowest contribution of such a round is cut instead of the
    least significant value, as long as it is not lower than that value (for Buchholz it never
    is); art. 16.5.2: the same again for every further cut.
    """
    remaining = sorted(items, key=lambda item: (item.opponent_score, item.round))
    for _ in range(cut_least):
        if not remaining:
            break
        least = remaining[0]
        voluntary = [item for item in remaining if item.voluntarily_unplayed]
        cut = voluntary[0] if voluntary and voluntary[0].opponent_score >= least.opponent_score else least
        remaining.remove(cut)
    for _ in range(cut_most):
        if not remaining:
            break
        remaining.pop()
    return sum((item.opponent_score for item in remaining), Fraction(0))


def refined_buchholz(items: tuple[Contribution, ...], buchholz_of: Mapping[PlayerId, Fraction]) -> Fraction:
    """seed 002: the sum of the Buchholz of every opponent played against.

    The seed says "aller Spieler, gegen die gespielt wurde": in a Swiss tournament these are the
    opponents met at the board (as C.07 art. 8.2 counts "the opponents played over the board"
    for the average of opponents' Buchholz); a dummy has no Buchholz. In a round robin a forfeit
    is a regular game (art. 15.2), so its scheduled opponent counts.
    """
    return sum((buchholz_of[item.opponent] for item in items if item.met and item.opponent is not None), Fraction(0))
