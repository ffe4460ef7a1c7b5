"""The tournament page's crosstable: the stored crosstable (``zdb.tournaments.queries``) with
the standings and tie-breaks of ``zdb.standings`` beside each row, a cell per round in the
referees' notation ("spielfrei", "+", "−"), and for a round robin the n×n table.

The standings are computed from the crosstable's own games, so no second read of the games is
needed; each game is taken once, from white's row. A version's games never change (a
correction is a new version), so its standings are kept for the next reader: a large open
tournament's tie-breaks take longer to compute than the page may take to answer.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, replace

from zdb.standings import (
    IndividualTournament,
    Notation,
    individual_standings,
    round_cells,
    round_robin_grid,
    standings_input_from_rows,
)
from zdb.standings.individual import IndividualStandings, StandingRow, TieBreak
from zdb.standings.model import PairingSystem
from zdb.tournaments.schemas import Crosstable, CrosstableRow

__all__ = ["Cell", "CrosstableLine", "CrosstableView", "crosstable_view"]

#: standings kept, by (tournament id, version, pairing system or None: read from the pairings)
KEPT_STANDINGS = 256
_kept: OrderedDict[tuple[int, int, PairingSystem | None], tuple[IndividualTournament, IndividualStandings]] = (
    OrderedDict()
)
_kept_lock = threading.Lock()


@dataclass(frozen=True, slots=True)
class Cell:
    text: str  # "5w1": opponent, colour, own score; "5w+" for a forfeit; "spielfrei"; "–"
    title: str  # the result in words, for the tooltip ("+ kampflos")


@dataclass(frozen=True, slots=True)
class CrosstableLine:
    row: CrosstableRow
    standing: StandingRow
    cells: tuple[Cell | None, ...]  # one per round
    tie_breaks: tuple[float, ...]  # in the order of ``CrosstableView.tie_breaks``
    grid: tuple[tuple[str, ...], ...] = ()  # a round robin: the results against each line, in rank order


@dataclass(frozen=True, slots=True)
class CrosstableView:
    rounds: int
    tie_breaks: tuple[str, ...]  # acronyms: the deciding ones in their order, then the others
    deciding: int  # how many of them decided the ranks
    lines: tuple[CrosstableLine, ...]  # in rank order
    pairing_system: PairingSystem
    cycles: int = 0  # a round robin: 1 single, 2 double (two cells per pair); 0: no n×n table


def _standings(table: Crosstable, pairing: PairingSystem | None) -> tuple[IndividualTournament, IndividualStandings]:
    games = [
        (game.round, str(row.start_no), str(game.opponent), game.result)
        for row in table.rows
        for game in row.games
        if game.color == "white"
    ]
    tournament = standings_input_from_rows([str(row.start_no) for row in table.rows], games, pairing)
    return tournament, individual_standings(tournament)


def _kept_standings(
    table: Crosstable, pairing: PairingSystem | None
) -> tuple[IndividualTournament, IndividualStandings]:
    key = (table.tournament.id, table.version, pairing)
    with _kept_lock:
        if key in _kept:
            _kept.move_to_end(key)
            return _kept[key]
    kept = _standings(table, pairing)
    with _kept_lock:
        _kept[key] = kept
        while len(_kept) > KEPT_STANDINGS:
            _kept.popitem(last=False)
    return kept


#: views kept, by (tournament id, version, pairing system, notation): the cells of a large open
#: take longer to write than the page may take to answer. The rows are taken fresh each time
#: (a version's R0 appears once it is evaluated).
_views: OrderedDict[tuple[int, int, PairingSystem | None, Notation], tuple[CrosstableView, IndividualStandings]] = (
    OrderedDict()
)


def crosstable_view(
    table: Crosstable, pairing: PairingSystem | None, notation: Notation
) -> tuple[CrosstableView, IndividualStandings]:
    """``pairing`` None: as the pairings show (``zdb.standings.detect``)."""
    key = (table.tournament.id, table.version, pairing, notation)
    with _kept_lock:
        kept = _views.get(key)
        if kept is not None:
            _views.move_to_end(key)
    if kept is None:
        kept = _crosstable_view(table, pairing, notation)
        with _kept_lock:
            _views[key] = kept
            while len(_views) > KEPT_STANDINGS:
                _views.popitem(last=False)
    view, standings = kept
    by_start = {str(row.start_no): row for row in table.rows}
    lines = tuple(replace(line, row=by_start[line.standing.player]) for line in view.lines)
    return replace(view, lines=lines), standings


def _crosstable_view(
    table: Crosstable, pairing: PairingSystem | None, notation: Notation
) -> tuple[CrosstableView, IndividualStandings]:
    tournament, standings = _kept_standings(table, pairing)
    by_start = {str(row.start_no): row for row in table.rows}
    order = (*standings.order, *(t for t in TieBreak if t not in standings.order))
    cells = round_cells(tournament)
    grid = None
    if standings.pairing_system is PairingSystem.ROUND_ROBIN:
        grid = round_robin_grid(tournament, standings)
    lines = []
    for k, standing in enumerate(standings.rows):
        texts = tuple(Cell(notation.text(cell), notation.title(cell)) for cell in cells[standing.player])
        values = tuple(float(standing.value(t)) for t in order)
        results: tuple[tuple[str, ...], ...] = ()
        if grid is not None:
            results = tuple(tuple(notation.score(cell) for cell in games) for games in grid.cells[k])
        lines.append(CrosstableLine(by_start[standing.player], standing, texts, values, results))
    view = CrosstableView(
        len(tournament.rounds),
        tuple(t.value for t in order),
        len(standings.order),
        tuple(lines),
        standings.pairing_system,
        grid.cycles if grid is not None else 0,
    )
    return view, standings
