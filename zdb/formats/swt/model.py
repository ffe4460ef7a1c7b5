"""The SWT reader's frozen value types: an SWT file's records as Swiss-Chess wrote them.

Values keep the file's meaning (code-table values of ``layout``, texts as written without
trailing blanks); ``convert.py`` turns them into the ``TrfDocument`` the intake reads. The
field numbers in the comments are those of the structure files (see ``layout.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from zdb.formats.trf.model import Severity, TrfProblem

__all__ = ["SwtFile", "SwtGeneral", "SwtPairing", "SwtPlayer", "SwtTeam", "SwtTeamPairing"]


@dataclass(frozen=True, slots=True)
class SwtGeneral:
    """The general data at the start of the file."""

    version: int  # 9999, e.g. 883
    rounds: int  # 1
    current_round: int  # 2
    paired_rounds: int  # 3
    players: int  # 4
    teams: int  # 80 (0 for an individual tournament)
    team_tournament: bool  # 35
    mode: int  # 31: 0 Swiss, 1 round robin, 2 knock-out, 3 Scheveningen
    boards: int  # 34
    scoring: int  # 81: 0 win 1 / draw 1/2, 1 and 2 three-point wins, 3 own scoring
    team_id_offset: int  # 185
    name: str  # 65
    city: str  # 66
    arbiter: str  # 67
    deputies: tuple[str, ...]  # 68, and 85-87 (8.xx)
    remark: str  # 69
    start_date: str  # 70, as written
    end_date: str  # 71, as written
    periods: tuple[str, ...]  # 72-74, time control periods as written
    organiser: str  # 88 (8.xx)
    round_dates: tuple[date | None, ...]  # 89, 91, ... (8.xx; empty for 7.xx)


@dataclass(frozen=True, slots=True)
class SwtPlayer:
    """A player record (``index``: its 0-based position among the player records)."""

    index: int
    id: int  # 2021 TNr.-ID: what the round records name as opponent
    name: str  # 2000 "Surname,Given name"
    club: str  # 2001
    title: str  # 2002
    elo: str  # 2003
    nwz: str  # 2004 national rating (DWZ)
    federation: str  # 2006
    birth: str  # 2008 "YYYYMMDD" or "YYYY"
    zps_club: str  # 2010
    zps_member: str  # 2011
    pkz: str  # 2034 (8.xx) or the last five digits, 2039 (7.xx)
    fide_id: str  # 2033
    attribute: str  # 2013
    team: int  # 2016 MNr.
    board: int  # 2017
    rank: int  # 2022

    @property
    def record(self) -> str:
        return f"player {self.id or self.index + 1}"


@dataclass(frozen=True, slots=True)
class SwtPairing:
    """A player's round record; only rounds with a colour or an opponent are kept."""

    player: int  # index of the player record
    round: int
    colour: int  # 4000: 1 white, 2 black, 3 white (bye), 4 black (bye), 0 unknown
    opponent: int  # 4001: the opponent's id, 0 for none
    result: int  # 4002: low two bits 1 loss, 2 draw, 3 win, 0 none
    status: int  # 4005: 0 played, 1/4 forfeit, 2/3 not in the line-up, 5/6 adjourned
    table: int  # 4004
    board: int  # 4006


@dataclass(frozen=True, slots=True)
class SwtTeam:
    """A team record (team tournaments)."""

    index: int
    id: int  # 1018 MNr.-ID
    number: int  # 1019 MNr.: what the players' 2016 names
    name: str  # 1000
    first_player: int  # 1015: the id of the team's first player - 1
    players: int  # 1016
    rank: int  # 1020

    @property
    def record(self) -> str:
        return f"team {self.number or self.index + 1}"


@dataclass(frozen=True, slots=True)
class SwtTeamPairing:
    """A team's round record."""

    team: int  # index of the team record
    round: int
    place: int  # 3001: 1 home, 2 away, 3 home (bye), 4 away (bye), 0 none
    opponent: int  # 3002: the opposing team's id
    result: int  # 3004
    table: int  # 3005
    status: int  # 3006
    board: int  # 3008


@dataclass(frozen=True, slots=True)
class SwtFile:
    """What could be read, and every problem found (``record`` names where, there are no lines)."""

    general: SwtGeneral | None
    players: tuple[SwtPlayer, ...] = ()
    pairings: tuple[SwtPairing, ...] = ()
    teams: tuple[SwtTeam, ...] = ()
    team_pairings: tuple[SwtTeamPairing, ...] = ()
    problems: tuple[TrfProblem, ...] = ()

    @property
    def errors(self) -> tuple[TrfProblem, ...]:
        return tuple(p for p in self.problems if p.severity is Severity.ERROR)
