"""The standings of an individual tournament: points, every tie-break, and the rank.

Players are ordered by points and then by the tie-breaks in the order chosen for the
tournament (FIDE C.07 art. 4.2: move to the next tie-break whenever a tie persists). Players
still tied after the last one share their rank (C.07 art. 2.1 leaves this to the tournament's
regulations; no drawing of lots in a pure function) and are listed in starting order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction
from types import MappingProxyType

from zdb.rating import InvalidInputError, PlayerId
from zdb.standings.model import IndividualTournament, PairingSystem
from zdb.standings.records import player_records, score
from zdb.standings.tiebreaks import buchholz, contributions, refined_buchholz, sonneborn_berger

__all__ = ["DEFAULT_ORDER", "IndividualStandings", "StandingRow", "TieBreak", "individual_standings"]


class TieBreak(Enum):
    """The tie-breaks of seed 002, named by the acronyms of FIDE C.07 where it has one."""

    SONNEBORN_BERGER = "SB"  # C.07 art. 9.1
    BUCHHOLZ = "BH"  # C.07 art. 8.1
    BUCHHOLZ_CUT1 = "BH-C1"  # C.07 art. 14.1
    BUCHHOLZ_CUT2 = "BH-C2"  # C.07 art. 14.2
    BUCHHOLZ_MEDIAN1 = "BH-M1"  # C.07 art. 14.3 (seed 002: "Gemittelte Buchholzwertung")
    REFINED_BUCHHOLZ = "RBH"  # seed 002: "Verfeinerte Buchholz-Wertung"


#: seed 002: in a round robin Buchholz decides nothing ("belanglos") and Sonneborn-Berger is
#: used; in a Swiss tournament Buchholz comes first and "zumeist" Sonneborn-Berger second.
DEFAULT_ORDER: Mapping[PairingSystem, tuple[TieBreak, ...]] = MappingProxyType(
    {
        PairingSystem.ROUND_ROBIN: (TieBreak.SONNEBORN_BERGER,),
        PairingSystem.SWISS: (TieBreak.BUCHHOLZ, TieBreak.SONNEBORN_BERGER),
    }
)


@dataclass(frozen=True, slots=True)
class StandingRow:
    rank: int
    player: PlayerId
    points: Fraction
    games: int  # games played at the board
    sonneborn_berger: Fraction
    buchholz: Fraction
    buchholz_cut1: Fraction
    buchholz_cut2: Fraction
    buchholz_median1: Fraction
    refined_buchholz: Fraction

    def value(self, tie_break: TieBreak) -> Fraction:
        return {
            TieBreak.SONNEBORN_BERGER: self.sonneborn_berger,
            TieBreak.BUCHHOLZ: self.buchholz,
            TieBreak.BUCHHOLZ_CUT1: self.buchholz_cut1,
            TieBreak.BUCHHOLZ_CUT2: self.buchholz_cut2,
            TieBreak.BUCHHOLZ_MEDIAN1: self.buchholz_median1,
            TieBreak.REFINED_BUCHHOLZ: self.refined_buchholz,
        }[tie_break]


@dataclass(frozen=True, slots=True)
class IndividualStandings:
    pairing_system: PairingSystem
    rounds: int
    order: tuple[TieBreak, ...]  # the tie-breaks that decided the ranks, in order
    rows: tuple[StandingRow, ...]  # in rank order

    def row(self, player: PlayerId) -> StandingRow:
        for row in self.rows:
            if row.player == player:
                return row
        raise KeyError(player)


def individual_standings(
    tournament: IndividualTournament, order: Sequence[TieBreak] | None = None
) -> IndividualStandings:
    """Points, tie-breaks and ranks; ``order`` defaults to ``DEFAULT_ORDER`` of the pairing system."""
    chosen = tuple(DEFAULT_ORDER[tournament.pairing_system] if order is None else order)
    if len(set(chosen)) != len(chosen):
        raise InvalidInputError("tie_breaks", "a tie-break is listed twice")
    records = player_records(tournament)
    items = contributions(tournament, records)
    buchholz_of = {player: buchholz(items[player]) for player in tournament.players}
    unranked = [
        StandingRow(
            rank=0,
            player=player,
            points=score(records[player]),
            games=sum(1 for entry in records[player] if entry.played),
            sonneborn_berger=sonneborn_berger(items[player]),
            buchholz=buchholz_of[player],
            buchholz_cut1=buchholz(items[player], cut_least=1),
            buchholz_cut2=buchholz(items[player], cut_least=2),
            buchholz_median1=buchholz(items[player], cut_least=1, cut_most=1),
            refined_buchholz=refined_buchholz(items[player], buchholz_of),
        )
        for player in tournament.players
    ]

    def key(row: StandingRow) -> tuple[Fraction, ...]:
        return (row.points, *(row.value(tie_break) for tie_break in chosen))

    ordered = sorted(unranked, key=key, reverse=True)  # stable: ties keep the starting order
    rows: list[StandingRow] = []
    for position, row in enumerate(ordered, start=1):
        rank = rows[-1].rank if rows and key(rows[-1]) == key(row) else position
        rows.append(replace(row, rank=rank))
    return IndividualStandings(tournament.pairing_system, len(tournament.rounds), chosen, tuple(rows))
