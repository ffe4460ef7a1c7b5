"""Standings for a tournament in the rating engine's form (the vectors' JSON format).

The engine's ``Tournament`` lists games without round numbers. It is read as a round robin:
every game is one scheduled pairing, so that FIDE C.07 art. 15.2 applies (forfeits are regular
games; nothing depends on which round a game was in). The games are placed into rounds only to
satisfy the round structure (a player at most once per round): each game goes into the first
round, in game order, where neither player has a game yet. For a Swiss tournament, whose
unplayed rounds need real round numbers (art. 16), give the rounds themselves.
"""

from __future__ import annotations

from zdb.rating import PlayerId, Tournament
from zdb.standings.model import IndividualTournament, Pairing, PairingSystem, Round

__all__ = ["from_engine_tournament"]


def from_engine_tournament(tournament: Tournament) -> IndividualTournament:
    rounds: list[list[Pairing]] = []
    busy: list[set[PlayerId]] = []
    for game in tournament.games:
        pairing = Pairing(game.white, game.black, game.result)
        for number, taken in enumerate(busy):
            if game.white not in taken and game.black not in taken:
                rounds[number].append(pairing)
                taken.update((game.white, game.black))
                break
        else:
            rounds.append([pairing])
            busy.append({game.white, game.black})
    return IndividualTournament(
        players=tuple(player.pid for player in tournament.players),
        rounds=tuple(Round(pairings=tuple(pairings)) for pairings in rounds),
        pairing_system=PairingSystem.ROUND_ROBIN,
    )
