"""The standings document of a stored tournament, for the API and the pages alike.

Why: a team season is stored as individual games (spec §3), so its league table has to be found
again in them (``zdb.standings.stored_team``); when that fails (games without boards, say), the
season is shown as the individual tournament it also is. An individual tournament is ranked as
the pairing system says: the caller's choice, else what the pairings show (``zdb.standings.detect``).
"""

from __future__ import annotations

from typing import Any

from zdb.standings import (
    PairingSystem,
    TeamSeason,
    dump_individual,
    dump_team,
    individual_standings,
    standings_input_from_rows,
    team_season_from_rows,
    team_standings,
)
from zdb.tournaments.standings_queries import StoredGames

__all__ = ["stored_standings_document", "stored_team_season"]


def stored_team_season(stored: StoredGames) -> TeamSeason | None:
    """The team season of a stored ``team_season``, or None (an individual tournament, or games
    that are no team matches)."""
    if stored.kind != "team_season":
        return None
    return team_season_from_rows(stored.games, stored.clubs)


def stored_standings_document(stored: StoredGames, pairing: PairingSystem | None) -> dict[str, Any]:
    season = stored_team_season(stored)
    if season is not None:
        return dump_team(team_standings(season))
    tournament = standings_input_from_rows(
        stored.players, [(r, w, b, res) for r, _, w, b, res in stored.games], pairing
    )
    return dump_individual(individual_standings(tournament), tournament)
