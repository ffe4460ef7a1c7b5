"""What FIDE's report file of a stored tournament carries in TRF-2026 beyond TRF16: the records
``zdb.formats.trf.writer26`` writes, filled from what ZDB stores.

Each record, and where it comes from (what ZDB does not store is left out, not made up):

* ``142`` the rounds played (the writer writes it from the document's rounds);
* ``152`` the initial colour: the colour the lowest start number paired in round 1 had (TRF26
  asks for it where it differs from that player's; written always, as it is known);
* ``162`` is not written: ZDB scores 1, ½ and 0, a zero-point bye 0 (TRF26's defaults);
* ``172`` belongs to National Rating Support lines, which the report does not carry (FIDE rates
  by its own list), and ``182`` names the program that paired the rounds, which ZDB does not
  know: neither is written;
* ``192`` the encoded type, from the FIDE registration: a Swiss ``FIDE_DUTCH`` (FIDE's table:
  the Dutch system in the edition in force at the start; the German pairing programs pair by
  it), a round robin ``FIDE_ROUNDROBIN``; a team season ``FIDE_TEAM_ROUNDROBIN`` (a league: each
  team meets each other once), registered or not; an unregistered individual tournament has none;
* ``202`` tie-breaks: ZDB stores none (its pages compute their own), so none is written;
* ``222`` the rate of play (``122``) encoded, where ``zdb.formats.time_control`` reads it;
* ``240`` the bye section: a round in which a player has no game is a zero-point bye (``Z``),
  listed per round as well as in the player's cell. Not in a team season: there the section's
  ids are teams (TRF26, "Player/Team ID"), and a team without a match in a round is nothing
  ZDB stores; a player's round without a game stays in his cell;
* ``310`` a team season's teams as its league table has them (``zdb.standings``): numbered in
  the order they first play, named as the table names them, members in start order (those who
  played for the team), match points (2-1-0, TRF26's default ``362``), game points and rank.
  Games that make no team matches keep the teams by club, without points. ``320`` and ``330``
  are not needed: ZDB stores no match-wide byes, and a forfeited board is a forfeit game.
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

from sqlalchemy import select
from sqlalchemy.orm import Session

from zdb.fide.models import FideRegistration
from zdb.formats.time_control import encoded_time_control, parse_time_control
from zdb.formats.trf import TrfByeRecord, TrfDocument, TrfTeam
from zdb.standings import team_season_from_rows, team_standings
from zdb.tournaments.models import Announcement
from zdb.tournaments.standings_queries import stored_games

__all__ = ["TYPE_CODES", "as_trf26"]

#: TRF26's 192 by the registered system, and of a team season
TYPE_CODES = {"swiss": "FIDE_DUTCH", "round_robin": "FIDE_ROUNDROBIN", "team": "FIDE_TEAM_ROUNDROBIN"}


def _registered_system(session: Session, tournament_id: int) -> str | None:
    return session.execute(
        select(FideRegistration.system)
        .join(Announcement, FideRegistration.announcement_id == Announcement.id)
        .where(Announcement.tournament_id == tournament_id)
    ).scalar()


def _initial_colour(document: TrfDocument) -> str | None:
    for player in document.players:  # in start order
        cell = player.cell(1)
        if cell is not None and cell.opponent is not None and cell.colour in ("w", "b"):
            return cell.colour.upper()
    return None


def _zero_point_byes(document: TrfDocument) -> tuple[TrfByeRecord, ...]:
    records = []
    for round_no in range(1, document.rounds + 1):
        ids = tuple(
            player.start_no
            for player in document.players
            if (cell := player.cell(round_no)) is not None and cell.opponent is None and cell.result == "Z"
        )
        if ids:
            records.append(TrfByeRecord(0, "Z", round_no, ids))
    return tuple(records)


def _league_teams(session: Session, tournament_id: int) -> tuple[TrfTeam, ...] | None:
    """The teams of the league table with their points and ranks; None when the games make no
    team matches."""
    _, stored = stored_games(session, tournament_id)
    season = team_season_from_rows(stored.games, stored.clubs)
    if season is None:
        return None
    start_no = {pkz: number for number, pkz in enumerate(stored.players, 1)}
    members: dict[str, set[int]] = {team: set() for team in season.teams}
    for match in season.matches:
        for home, away in match.lineup:
            for team, player in ((match.home, home), (match.away, away)):
                if player is not None:
                    members[team].add(start_no[player])
    table = team_standings(season)
    return tuple(
        TrfTeam(
            line=0,
            number=k,
            name=team,
            members=tuple(sorted(members[team])),
            source="310",
            match_points=float(table.row(team).match_points),
            game_points=float(table.row(team).board_points),
            rank=table.row(team).rank,
        )
        for k, team in enumerate(season.teams, 1)
    )


def as_trf26(session: Session, tournament_id: int, document: TrfDocument, *, team_season: bool) -> TrfDocument:
    """``document`` (the report as TRF16 has it) with what TRF26 adds."""
    header: dict[str, tuple[str, ...]] = {}
    colour = _initial_colour(document)
    if colour is not None:
        header["152"] = (colour,)
    system = "team" if team_season else _registered_system(session, tournament_id)
    if system is not None:
        header["192"] = (TYPE_CODES[system],)
    periods = None if document.time_control is None else parse_time_control(document.time_control)
    teams = document.teams
    if team_season:
        teams = _league_teams(session, tournament_id) or tuple(replace(team, source="310") for team in document.teams)
    return replace(
        document,
        header=MappingProxyType(header),
        time_control_code=None if periods is None else encoded_time_control(periods),
        bye_records=() if team_season else _zero_point_byes(document),
        teams=teams,
    )
