"""Unplayed rounds in the tie-breaks, as the current FIDE Tie-Break Regulations manage them.

Source: FIDE Handbook C.07, Play-Off and Tie-Break Regulations effective from 1 March 2026
(handbook.fide.com/chapter/TieBreakRegulations032026), articles 15 and 16. Article 16 (Swiss
tournaments) replaced the older "virtual opponent" with two rules: an opponent's score is
*adjusted* before it enters someone else's tie-break (art. 16.3), and a player's own unplayed
round is a game against a *dummy* whose score is his own, capped (art. 16.4). In tournaments
with pre-determined pairings (round robins) forfeits are simply regular games (art. 15.2).
"""

from __future__ import annotations

from enum import Enum
from fractions import Fraction

from zdb.standings.records import REQUESTED_BYES, EntryKind, RoundEntry

__all__ = ["DRAW", "Category", "adjusted_score", "category", "dummy_score"]

#: "the points awarded for a draw" (art. 16.3.2, 16.4.2)
DRAW = Fraction(1, 2)


class Category(Enum):
    """FIDE C.07 art. 16.2: the categories of unplayed rounds."""

    ALLOCATED_OR_FULL_BYE = "16.2.1"
    FORFEIT_WIN = "16.2.2"
    REQUESTED_BYE_THEN_AVAILABLE = "16.2.3"
    FORFEIT_LOSS = "16.2.4"
    REQUESTED_BYE_AT_THE_END = "16.2.5"


def category(record: tuple[RoundEntry, ...], position: int) -> Category | None:
    """The art. 16.2 category of ``record[position]``, or None for a game played at the board."""
    entry = record[position]
    if entry.kind in (EntryKind.PAIRING_ALLOCATED_BYE, EntryKind.FULL_POINT_BYE):
        return Category.ALLOCATED_OR_FULL_BYE
    if entry.kind is EntryKind.FORFEIT_WIN:
        return Category.FORFEIT_WIN
    if entry.kind is EntryKind.FORFEIT_LOSS:
        return Category.FORFEIT_LOSS
    if entry.kind in REQUESTED_BYES:
        # art. 16.2.3 / 16.2.5: is it followed by at least one round that is not a VUR?
        later = record[position + 1 :]
        if any(not other.voluntarily_unplayed for other in later):
            return Category.REQUESTED_BYE_THEN_AVAILABLE
        return Category.REQUESTED_BYE_AT_THE_END
    return None


def adjusted_score(record: tuple[RoundEntry, ...]) -> Fraction:
    """art. 16.3: the score a player counts with in his opponents' tie-breaks.

    art. 16.3.1: categories 16.2.1 to 16.2.4 with the points awarded; art. 16.3.2: requested
    byes at the end (16.2.5) as draws.
    """
    total = Fraction(0)
    for position, entry in enumerate(record):
        if category(record, position) is Category.REQUESTED_BYE_AT_THE_END:
            total += DRAW
        else:
            total += entry.points
    return total


def dummy_score(
    record: tuple[RoundEntry, ...], position: int, own_score: Fraction, scheduled_opponent_adjusted: Fraction | None
) -> Fraction:
    """art. 16.4: the score of the dummy a player meets in his own unplayed round.

    It is the player's own score, but not more than the scheduled opponent's adjusted score for
    a forfeit (art. 16.4.1), and not more than a draw's points times the number of rounds for
    every other unplayed round (art. 16.4.2).
    """
    kind = category(record, position)
    if kind in (Category.FORFEIT_WIN, Category.FORFEIT_LOSS):
        assert scheduled_opponent_adjusted is not None, "a forfeit always has a scheduled opponent"
        return min(own_score, scheduled_opponent_adjusted)
    return min(own_score, DRAW * len(record))
