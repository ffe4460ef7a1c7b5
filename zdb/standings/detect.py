"""The pairing system a tournament was played in, read from its pairings when nobody names it.

Why: the tie-breaks depend on it (FIDE C.07 art. 15.2 for pre-determined pairings, art. 15.3
and 16 for Swiss tournaments; seed 002: Sonneborn-Berger in a round robin, Buchholz first in a
Swiss tournament), and a stored tournament or a JSON document often does not say. A round robin
("Rundenturnier", C.07 art. 15.2: pre-determined pairings) is recognised by its defining
property: every pair of players meets exactly once, or exactly twice in a double round robin.
A forfeit is a scheduled pairing and counts as a meeting (art. 15.2 treats it as a regular
game). Two players are a match, not a tournament whose pairings could tell anything, so
detection needs at least three.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from zdb.rating import PlayerId
from zdb.standings.model import Pairing, PairingSystem

__all__ = ["MIN_PLAYERS", "detected_pairing_system", "round_robin_cycles"]

MIN_PLAYERS = 3


def round_robin_cycles(players: Sequence[PlayerId], pairings: Iterable[Pairing]) -> int | None:
    """1 for a single, 2 for a double round robin: how often every pair met; None otherwise."""
    if len(players) < MIN_PLAYERS:
        return None
    met = Counter(frozenset((pairing.white, pairing.black)) for pairing in pairings)
    expected = len(players) * (len(players) - 1) // 2
    if len(met) != expected:
        return None
    counts = set(met.values())
    if len(counts) != 1:
        return None
    (cycles,) = counts
    return cycles if cycles in (1, 2) else None


def detected_pairing_system(players: Sequence[PlayerId], pairings: Iterable[Pairing]) -> PairingSystem:
    """Round robin when the pairings are those of a (double) round robin, else Swiss."""
    if round_robin_cycles(players, pairings) is not None:
        return PairingSystem.ROUND_ROBIN
    return PairingSystem.SWISS
