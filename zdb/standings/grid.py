"""The n×n crosstable of a round robin: every player against every other, in rank order.

Why: a round robin is published as a square table (seed 002's matrix, lines 47-54), each row
a player's results against the column players, the diagonal empty. In a double round robin each
pair meets twice (FIDE C.07 art. 15.2: pre-determined pairings), so every cell holds two
results, in the order of the rounds. Forfeits keep their place in the table (art. 15.2 treats
them as regular games); ``Notation.score`` writes them "+" and "−".
"""

from __future__ import annotations

from dataclasses import dataclass

from zdb.rating import PlayerId
from zdb.standings.cells import RoundCell, round_cells
from zdb.standings.detect import round_robin_cycles
from zdb.standings.individual import IndividualStandings
from zdb.standings.model import IndividualTournament

__all__ = ["RoundRobinGrid", "round_robin_grid"]


@dataclass(frozen=True, slots=True)
class RoundRobinGrid:
    players: tuple[PlayerId, ...]  # rows and columns, in rank order
    cycles: int  # 1: single, 2: double round robin (the cells hold this many results at most)
    cells: tuple[tuple[tuple[RoundCell, ...], ...], ...]  # cells[i][j]: players[i] against players[j]


def round_robin_grid(tournament: IndividualTournament, standings: IndividualStandings) -> RoundRobinGrid:
    """The square table in the standings' order; the cycles are counted from the pairings
    (``round_robin_cycles``), or the most games any pair played when they are incomplete."""
    order = tuple(row.player for row in standings.rows)
    index = {player: k for k, player in enumerate(order)}
    table: list[list[list[RoundCell]]] = [[[] for _ in order] for _ in order]
    for player, row in round_cells(tournament).items():
        for cell in row:
            if cell.opponent is not None:
                table[index[player]][index[cell.opponent]].append(cell)
    pairings = [pairing for round_ in tournament.rounds for pairing in round_.pairings]
    cycles = round_robin_cycles(tournament.players, pairings)
    if cycles is None:
        cycles = max((len(cell) for line in table for cell in line), default=1)
    return RoundRobinGrid(order, max(cycles, 1), tuple(tuple(tuple(cell) for cell in line) for line in table))
