"""Each player's record, round by round: what happened to him in every round of the tournament.

Points, and every tie-break, are sums over this record. It is built once from the rounds, so
that every tie-break reads the same facts: a game at the board, a forfeit, or a bye of some
kind (FIDE C.07 art. 15.1, 16.1).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from types import MappingProxyType

from zdb.rating import PlayerId
from zdb.standings.model import FORFEITS, ByeKind, IndividualTournament, points

__all__ = ["EntryKind", "RoundEntry", "player_records", "score"]


class EntryKind(Enum):
    PLAYED = "played"
    FORFEIT_WIN = "forfeit-win"
    FORFEIT_LOSS = "forfeit-loss"  # a double forfeit is a forfeit loss for both
    PAIRING_ALLOCATED_BYE = "pab"
    FULL_POINT_BYE = "full"
    HALF_POINT_BYE = "half"
    ZERO_POINT_BYE = "zero"  # requested, or absent (not in the round at all)


_BYE_ENTRIES = {
    ByeKind.PAIRING_ALLOCATED: EntryKind.PAIRING_ALLOCATED_BYE,
    ByeKind.FULL_POINT: EntryKind.FULL_POINT_BYE,
    ByeKind.HALF_POINT: EntryKind.HALF_POINT_BYE,
    ByeKind.ZERO_POINT: EntryKind.ZERO_POINT_BYE,
}
#: FIDE C.07 art. 16.1.1: requested byes; art. 16.1.2: a VUR is a requested bye or a forfeit loss.
REQUESTED_BYES = frozenset({EntryKind.HALF_POINT_BYE, EntryKind.ZERO_POINT_BYE})
VOLUNTARILY_UNPLAYED = REQUESTED_BYES | {EntryKind.FORFEIT_LOSS}


@dataclass(frozen=True, slots=True)
class RoundEntry:
    """One round of one player's record: ``opponent`` is the paired (or scheduled) opponent."""

    round: int
    kind: EntryKind
    points: Fraction
    opponent: PlayerId | None = None

    @property
    def played(self) -> bool:
        return self.kind is EntryKind.PLAYED

    @property
    def forfeit(self) -> bool:
        return self.kind in (EntryKind.FORFEIT_WIN, EntryKind.FORFEIT_LOSS)

    @property
    def voluntarily_unplayed(self) -> bool:
        """FIDE C.07 art. 16.1.2: a round the player was not available for (a "VUR")."""
        return self.kind in VOLUNTARILY_UNPLAYED


def player_records(tournament: IndividualTournament) -> Mapping[PlayerId, tuple[RoundEntry, ...]]:
    """Every player's entries for rounds 1 to n, one per round (absent = zero-point bye)."""
    entries: dict[PlayerId, list[RoundEntry]] = {player: [] for player in tournament.players}
    for number, round_ in enumerate(tournament.rounds, start=1):
        for pairing in round_.pairings:
            forfeit = pairing.result in FORFEITS
            for player, opponent, value in (
                (pairing.white, pairing.black, points(pairing.result.white_points)),
                (pairing.black, pairing.white, points(pairing.result.black_points)),
            ):
                if not forfeit:
                    kind = EntryKind.PLAYED
                else:
                    kind = EntryKind.FORFEIT_WIN if value > 0 else EntryKind.FORFEIT_LOSS
                entries[player].append(RoundEntry(number, kind, value, opponent))
        for bye in round_.byes:
            entries[bye.player].append(RoundEntry(number, _BYE_ENTRIES[bye.kind], bye.kind.points))
        for record in entries.values():
            if len(record) < number:
                record.append(RoundEntry(number, EntryKind.ZERO_POINT_BYE, Fraction(0)))
    return MappingProxyType({player: tuple(record) for player, record in entries.items()})


def score(record: tuple[RoundEntry, ...]) -> Fraction:
    """Points as the results say: forfeit wins and byes count with the points awarded."""
    return sum((entry.points for entry in record), Fraction(0))
