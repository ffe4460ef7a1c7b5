"""Standings: points, ranks and the classic tie-breaks of a tournament; team season tables.

A pure library beside the rating engine (no I/O, no clock): the crosstable a referee publishes
next to the rating evaluation. Individual tournaments get points (forfeit wins and byes count as
the results say), Sonneborn-Berger, Buchholz, refined Buchholz, median Buchholz and Buchholz
cut-1 and cut-2 (seed 002), with unplayed rounds managed as the FIDE Tie-Break Regulations
(Handbook C.07, effective 1 March 2026) prescribe, the pairing system read from the pairings
where nobody names it, round cells in the referees' notation and a round robin's n×n table;
team seasons (JSON, TRF team files, stored seasons) get match points, board points and the
Berliner Wertung of every match (seed 002), a team crosstable and each player's boards.
"""

from zdb.standings.cells import ENGLISH, GERMAN, CellKind, Notation, RoundCell, round_cells
from zdb.standings.detect import detected_pairing_system, round_robin_cycles
from zdb.standings.documents import IndividualRequest, dump_individual, dump_team, load_document
from zdb.standings.engine_adapter import from_engine_tournament
from zdb.standings.from_trf import standings_input_from_trf
from zdb.standings.from_trf_team import standings_document_from_trf, team_season_from_trf
from zdb.standings.grid import RoundRobinGrid, round_robin_grid
from zdb.standings.individual import (
    DEFAULT_ORDER,
    IndividualStandings,
    StandingRow,
    TieBreak,
    individual_standings,
)
from zdb.standings.model import Bye, ByeKind, IndividualTournament, Pairing, PairingSystem, Round
from zdb.standings.stored import standings_input_from_rows
from zdb.standings.stored_team import team_season_from_rows
from zdb.standings.team import (
    MatchPoints,
    MatchReport,
    TeamBye,
    TeamMatch,
    TeamRow,
    TeamSeason,
    TeamStandings,
    berliner_wertung,
    board_points,
    team_standings,
)
from zdb.standings.team_tables import BoardCell, MatchCell, PlayerScore, TeamGrid, board_scores, team_grid

__all__ = [
    "DEFAULT_ORDER",
    "ENGLISH",
    "GERMAN",
    "BoardCell",
    "Bye",
    "ByeKind",
    "CellKind",
    "IndividualRequest",
    "IndividualStandings",
    "IndividualTournament",
    "MatchCell",
    "MatchPoints",
    "MatchReport",
    "Notation",
    "Pairing",
    "PairingSystem",
    "PlayerScore",
    "Round",
    "RoundCell",
    "RoundRobinGrid",
    "StandingRow",
    "TeamBye",
    "TeamGrid",
    "TeamMatch",
    "TeamRow",
    "TeamSeason",
    "TeamStandings",
    "TieBreak",
    "berliner_wertung",
    "board_points",
    "board_scores",
    "detected_pairing_system",
    "dump_individual",
    "dump_team",
    "from_engine_tournament",
    "individual_standings",
    "load_document",
    "round_cells",
    "round_robin_cycles",
    "round_robin_grid",
    "standings_document_from_trf",
    "standings_input_from_rows",
    "standings_input_from_trf",
    "team_grid",
    "team_season_from_rows",
    "team_season_from_trf",
    "team_standings",
]
