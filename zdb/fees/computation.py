"""The fees of one evaluated tournament from its basis and a schedule's terms: pure arithmetic on
whole cents, no database, so that each case can be checked by hand.

- national (DWZ) fees: per tournament, per game played, per non-member, as the schedule says
  (a fee of 0 gives no line);
- FIDE's, for a tournament registered as FIDE-rated: per player for a Swiss or team tournament;
  for a round robin per player by the tier of the players' average Elo (the tier is the last one
  whose lowest average is at most the average; a round robin without a rated player pays the
  lowest tier); the late fee once when the results came after the due day.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Basis", "LineDraft", "Terms", "average_elo", "fee_lines"]


@dataclass(frozen=True, slots=True)
class Basis:
    players: int
    games: int
    non_members: int
    fide_system: str | None  # None: not FIDE-rated
    average_elo: int | None
    days_late: int | None


@dataclass(frozen=True, slots=True)
class Terms:
    dwz_tournament: int
    dwz_game: int
    dwz_non_member: int
    fide_player: int
    fide_round_robin: tuple[tuple[int, int], ...]  # (lowest average, cents), ascending
    fide_late: int


@dataclass(frozen=True, slots=True)
class LineDraft:
    kind: str
    quantity: int
    unit_cents: int

    @property
    def amount_cents(self) -> int:
        return self.quantity * self.unit_cents


def average_elo(ratings: list[int]) -> int | None:
    """The rated players' average, rounded half up to a whole number (2229.5 → 2230)."""
    if not ratings:
        return None
    return (2 * sum(ratings) + len(ratings)) // (2 * len(ratings))


def _tier(tiers: tuple[tuple[int, int], ...], average: int | None) -> int:
    if not tiers:
        return 0
    unit = tiers[0][1]
    for low, amount in tiers:
        if average is not None and average >= low:
            unit = amount
    return unit


def fee_lines(basis: Basis, terms: Terms) -> list[LineDraft]:
    drafts = [
        LineDraft("dwz_tournament", 1, terms.dwz_tournament),
        LineDraft("dwz_game", basis.games, terms.dwz_game),
        LineDraft("dwz_non_member", basis.non_members, terms.dwz_non_member),
    ]
    if basis.fide_system in ("swiss", "team"):
        drafts.append(LineDraft("fide_player", basis.players, terms.fide_player))
    elif basis.fide_system == "round_robin":
        drafts.append(LineDraft("fide_round_robin", basis.players, _tier(terms.fide_round_robin, basis.average_elo)))
    if basis.fide_system is not None and basis.days_late:
        drafts.append(LineDraft("fide_late", 1, terms.fide_late))
    return [d for d in drafts if d.quantity and d.unit_cents]
