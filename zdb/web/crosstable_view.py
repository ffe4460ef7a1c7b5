"""The tournament page's crosstable: the stored crosstable (``zdb.tournaments.queries``) with
the standings and tie-breaks of ``zdb.standings`` beside each row, and a cell per round.

The standings are computed from the crosstable's own games, so no second read of the games is
needed; each game is taken once, from white's row. A version's games never change (a
correction is a new version), so its standings are kept for the next reader: a large open
tournament's tie-breaks take longer to compute than the page may take to answer.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from zdb.standings import individual_standings
from zdb.standings.individual import IndividualStandings, StandingRow, TieBreak
from zdb.standings.model import PairingSystem
from zdb.standings.stored import standings_input_from_rows
from zdb.tournaments.schemas import Crosstable, CrosstableGame, CrosstableRow

__all__ = ["CrosstableLine", "CrosstableView", "crosstable_view"]

#: standings kept, by (tournament id, version, pairing system)
KEPT_STANDINGS = 256
_kept: OrderedDict[tuple[int, int, PairingSystem], IndividualStandings] = OrderedDict()
_kept_lock = threading.Lock()

#: how a player's own score reads in a cell
_OWN_SCORE = {1.0: "1", 0.5: "½", 0.0: "0"}


@dataclass(frozen=True, slots=True)
class Cell:
    text: str  # "5w1": opponent, colour, own score; "+"/"−" for a forfeit
    title: str  # the result as submitted, for the tooltip


@dataclass(frozen=True, slots=True)
class CrosstableLine:
    row: CrosstableRow
    standing: StandingRow
    cells: tuple[Cell | None, ...]  # one per round
    tie_breaks: tuple[float, ...]  # in the order of ``CrosstableView.tie_breaks``


@dataclass(frozen=True, slots=True)
class CrosstableView:
    rounds: int
    tie_breaks: tuple[str, ...]  # acronyms: the deciding ones in their order, then the others
    deciding: int  # how many of them decided the ranks
    lines: tuple[CrosstableLine, ...]  # in rank order


def _cell(game: CrosstableGame) -> Cell:
    colour = "w" if game.color == "white" else "s"
    score = _OWN_SCORE.get(game.points, str(game.points))
    if not game.rated and game.result in ("+-", "-+", "--"):
        score = {1.0: "+", 0.0: "−"}.get(game.points, score)
    return Cell(f"{game.opponent}{colour}{score}", game.result)


def _standings(table: Crosstable, pairing: PairingSystem) -> IndividualStandings:
    games = [
        (game.round, str(row.start_no), str(game.opponent), game.result)
        for row in table.rows
        for game in row.games
        if game.color == "white"
    ]
    tournament = standings_input_from_rows([str(row.start_no) for row in table.rows], games, pairing)
    return individual_standings(tournament)


def _kept_standings(table: Crosstable, pairing: PairingSystem) -> IndividualStandings:
    key = (table.tournament.id, table.version, pairing)
    with _kept_lock:
        if key in _kept:
            _kept.move_to_end(key)
            return _kept[key]
    standings = _standings(table, pairing)
    with _kept_lock:
        _kept[key] = standings
        while len(_kept) > KEPT_STANDINGS:
            _kept.popitem(last=False)
    return standings


def crosstable_view(table: Crosstable, pairing: PairingSystem) -> tuple[CrosstableView, IndividualStandings]:
    standings = _kept_standings(table, pairing)
    by_start = {str(row.start_no): row for row in table.rows}
    rounds = max(standings.rounds, max((g.round or 0 for row in table.rows for g in row.games), default=0))
    order = (*standings.order, *(t for t in TieBreak if t not in standings.order))
    lines = []
    for standing in standings.rows:
        row = by_start[standing.player]
        cells: list[Cell | None] = [None] * rounds
        loose = [g for g in row.games if g.round is None]
        for game in row.games:
            if game.round is not None and 1 <= game.round <= rounds:
                cells[game.round - 1] = _cell(game)
        for game in loose:  # games without a round fill the first free column
            free = next((k for k, c in enumerate(cells) if c is None), None)
            if free is not None:
                cells[free] = _cell(game)
        values = tuple(float(standing.value(t)) for t in order)
        lines.append(CrosstableLine(row, standing, tuple(cells), values))
    view = CrosstableView(rounds, tuple(t.value for t in order), len(standings.order), tuple(lines))
    return view, standings
