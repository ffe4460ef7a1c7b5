"""Standings: points, ranks and the classic tie-breaks of a tournament; team season tables.

A pure library beside the rating engine (no I/O, no clock): the crosstable a referee publishes
next to the rating evaluation. Individual tournaments get points (forfeit wins and byes count as
the results say), Sonneborn-Berger, Buchholz, refined Buchholz, median Buchholz and Buchholz
cut-1 and cut-2 (seed 002), with unplayed rounds managed as the FIDE Tie-Break Regulations
(Handbook C.07, effective 1 March 2026) prescribe; team seasons get match points, board points
and the Berliner Wertung of every match (seed 002).
"""

from zdb.standings.documents import IndividualRequest, dump_individual, dump_team, load_document
from zdb.standings.engine_adapter import from_engine_tournament
from zdb.standings.from_trf import standings_input_from_trf
from zdb.standings.individual import (
    DEFAULT_ORDER,
    IndividualStandings,
    StandingRow,
    TieBreak,
    individual_standings,
)
from zdb.standings.model import Bye, ByeKind, IndividualTournament, Pairing, PairingSystem, Round
from zdb.standings.team import (
    MatchPoints,
    MatchReport,
    TeamMatch,
    TeamRow,
    TeamSeason,
    TeamStandings,
    berliner_wertung,
    board_points,
    team_standings,
)

__all__ = [
    "DEFAULT_ORDER",
    "Bye",
    "ByeKind",
    "IndividualRequest",
    "IndividualStandings",
    "IndividualTournament",
    "MatchPoints",
    "MatchReport",
    "Pairing",
    "PairingSystem",
    "Round",
    "StandingRow",
    "TeamMatch",
    "TeamRow",
    "TeamSeason",
    "TeamStandings",
    "TieBreak",
    "berliner_wertung",
    "board_points",
    "dump_individual",
    "dump_team",
    "from_engine_tournament",
    "individual_standings",
    "load_document",
    "standings_input_from_trf",
    "team_standings",
]
