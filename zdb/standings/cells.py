"""What each player did in each round, and how a referee writes it in a crosstable cell.

Why: a crosstable is read by club players who know the referees' notation, and a blank cell
says nothing. A game reads "5w1" (opponent 5, white, won; "s" for black), a forfeit keeps the
opponent and writes "+" or "−" for the points (C.07 art. 16.1.2 and 16.2.2 call it a forfeit
win or loss; German prose says "kampflos"), a pairing-allocated or full-point bye reads
"spielfrei" (C.07 art. 16.2.1), a requested bye (art. 16.1.1) "spielfrei" with its ½ or 0, and a
round the player was not in at all "–", except in a round robin, where a round without a game is
the player's scheduled free round and reads "spielfrei" too (C.07 art. 15.2: it adds nothing to
the tie-breaks). The words come from a ``Notation`` so that a page can
give them in its language; ``GERMAN`` is how the federation's referees write them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from types import MappingProxyType

from zdb.rating import PlayerId, ResultCode
from zdb.standings.model import FORFEITS, ByeKind, IndividualTournament, PairingSystem, points

__all__ = ["ENGLISH", "GERMAN", "CellKind", "Notation", "RoundCell", "round_cells"]


class CellKind(Enum):
    GAME = "game"  # played at the board (asymmetric arbiter results too, as the tie-breaks count them)
    FORFEIT_WIN = "forfeit-win"  # C.07 art. 16.2.2
    FORFEIT_LOSS = "forfeit-loss"  # C.07 art. 16.2.4; a double forfeit is one for both
    BYE = "bye"  # C.07 art. 16.2.1: pairing-allocated or full-point bye; a round robin's free round
    HALF_POINT_BYE = "half-point-bye"  # C.07 art. 16.1.1
    ZERO_POINT_BYE = "zero-point-bye"  # C.07 art. 16.1.1, as the file or document gives it
    ABSENT = "absent"  # in no pairing and no bye of the round


@dataclass(frozen=True, slots=True)
class RoundCell:
    round: int
    kind: CellKind
    points: Fraction
    opponent: PlayerId | None = None
    white: bool | None = None  # None: no game


@dataclass(frozen=True, slots=True)
class Notation:
    """The words and signs of a crosstable cell in one language."""

    white: str
    black: str
    bye: str
    forfeit: str  # the prose word for a game not played ("kampflos")
    absent: str = "–"
    forfeit_win: str = "+"
    forfeit_loss: str = "−"

    def score(self, cell: RoundCell) -> str:
        """The cell of an n×n table (the opponent is the column): "1", "½", "0", "+", "−"."""
        if cell.kind is CellKind.FORFEIT_WIN:
            return self.forfeit_win
        if cell.kind is CellKind.FORFEIT_LOSS:
            return self.forfeit_loss
        return _points(cell.points)

    def text(self, cell: RoundCell, label: str | None = None) -> str:
        """The cell of a round column; ``label`` names the opponent (default: his id)."""
        if cell.kind in (CellKind.GAME, CellKind.FORFEIT_WIN, CellKind.FORFEIT_LOSS):
            colour = self.white if cell.white else self.black
            return f"{label if label is not None else cell.opponent}{colour}{self.score(cell)}"
        if cell.kind is CellKind.BYE:
            return self.bye
        if cell.kind is CellKind.ABSENT:
            return self.absent
        return f"{self.bye} {_points(cell.points)}"

    def title(self, cell: RoundCell) -> str:
        """The prose of a forfeit ("+ kampflos"), else the cell's own score."""
        if cell.kind in (CellKind.FORFEIT_WIN, CellKind.FORFEIT_LOSS):
            return f"{self.score(cell)} {self.forfeit}"
        return self.text(cell)


def _points(value: Fraction) -> str:
    """ "1", "½", "0" (compared by numerator and denominator: a page writes thousands of cells)."""
    if value.denominator == 1:
        return str(value.numerator)
    if value.denominator == 2 and value.numerator == 1:
        return "½"
    return str(value)


GERMAN = Notation(white="w", black="s", bye="spielfrei", forfeit="kampflos")
ENGLISH = Notation(white="w", black="b", bye="bye", forfeit="forfeit")

_BYE_CELLS = {
    ByeKind.PAIRING_ALLOCATED: CellKind.BYE,
    ByeKind.FULL_POINT: CellKind.BYE,
    ByeKind.HALF_POINT: CellKind.HALF_POINT_BYE,
    ByeKind.ZERO_POINT: CellKind.ZERO_POINT_BYE,
}


def _game_kind(result: ResultCode, own: Fraction) -> CellKind:
    if result not in FORFEITS:
        return CellKind.GAME
    return CellKind.FORFEIT_WIN if own > 0 else CellKind.FORFEIT_LOSS


def round_cells(tournament: IndividualTournament) -> Mapping[PlayerId, tuple[RoundCell, ...]]:
    """Every player's cell for rounds 1 to n, in round order."""
    cells: dict[PlayerId, list[RoundCell]] = {player: [] for player in tournament.players}
    free = CellKind.BYE if tournament.pairing_system is PairingSystem.ROUND_ROBIN else CellKind.ABSENT
    for number, round_ in enumerate(tournament.rounds, start=1):
        for pairing in round_.pairings:
            white, black = points(pairing.result.white_points), points(pairing.result.black_points)
            cells[pairing.white].append(
                RoundCell(number, _game_kind(pairing.result, white), white, pairing.black, True)
            )
            cells[pairing.black].append(
                RoundCell(number, _game_kind(pairing.result, black), black, pairing.white, False)
            )
        for bye in round_.byes:
            cells[bye.player].append(RoundCell(number, _BYE_CELLS[bye.kind], bye.kind.points))
        for row in cells.values():
            if len(row) < number:
                row.append(RoundCell(number, free, Fraction(0)))
    return MappingProxyType({player: tuple(row) for player, row in cells.items()})
