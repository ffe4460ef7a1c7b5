"""The standings' input from a stored tournament: its current version's players in start
order and its games grouped by the round they were submitted with. Games without a round
number are placed in the first round where both players are free (as for the engine's JSON
format, ``engine_adapter``). The pairing system, unless the caller names it, is read from the
pairings (``detect``: a stored tournament does not say). Pure: it takes the rows, the caller
reads them."""

from __future__ import annotations

from collections.abc import Sequence

from zdb.rating import ResultCode
from zdb.standings.detect import detected_pairing_system
from zdb.standings.model import IndividualTournament, Pairing, PairingSystem, Round

__all__ = ["standings_input_from_rows"]


def standings_input_from_rows(
    players: Sequence[str],
    games: Sequence[tuple[int | None, str, str, str]],
    pairing_system: PairingSystem | None = None,
) -> IndividualTournament:
    """``games``: (round or None, white, black, result code) in stored order."""
    numbered: dict[int, list[Pairing]] = {}
    loose: list[Pairing] = []
    for number, white, black, result in games:
        pairing = Pairing(white, black, ResultCode(result))
        if number is None:
            loose.append(pairing)
        else:
            numbered.setdefault(number, []).append(pairing)
    rounds = [numbered.get(n, []) for n in range(1, max(numbered, default=0) + 1)]
    for pairing in loose:
        for pairings in rounds:
            taken = {p for q in pairings for p in (q.white, q.black)}
            if pairing.white not in taken and pairing.black not in taken:
                pairings.append(pairing)
                break
        else:
            rounds.append([pairing])
    if pairing_system is None:
        pairing_system = detected_pairing_system(players, (p for ps in rounds for p in ps))
    return IndividualTournament(
        players=tuple(players),
        rounds=tuple(Round(pairings=tuple(p)) for p in rounds),
        pairing_system=pairing_system,
    )
