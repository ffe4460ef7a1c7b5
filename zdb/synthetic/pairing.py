"""Who plays whom: round-robin tables and an approximation of Swiss pairing.

The Swiss pairing follows the Dutch idea without its full rule book: players are ranked by
score, then by seeding; each score group (with the players floating down from the group above)
pairs its top half against its bottom half; nobody meets the same opponent twice; the colour
goes to the player who had fewer whites, then to the one who had black last. What cannot be
paired without a repeat floats down; whoever is left at the bottom sits the round out. That is
enough for realistic score distributions and opponent strengths, which is all the rating engine
sees.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["Swiss", "round_robin"]


def round_robin(players: int) -> list[list[tuple[int, int]]]:
    """Rounds of (white, black) pairs in which each of ``players`` meets every other once (the
    circle method of the Berger tables); with an odd number one player sits out each round."""
    size = players + players % 2
    ring = list(range(size))
    rounds = []
    for number in range(size - 1):
        pairs = []
        for k in range(size // 2):
            a, b = ring[k], ring[size - 1 - k]
            if (k + number) % 2:
                a, b = b, a
            if a < players and b < players:
                pairs.append((a, b))
        rounds.append(pairs)
        ring = [ring[size - 2], *ring[: size - 2], ring[size - 1]]
    return rounds


class Swiss:
    """The state of one Swiss tournament of players ``0..n-1``, paired round by round."""

    __slots__ = ("_active", "_balance", "_had_bye", "_last", "_opponents", "_rank", "_score")

    def __init__(self, seeds: Sequence[float]) -> None:
        """``seeds``: the seeding value of each player (higher is seeded first)."""
        count = len(seeds)
        self._rank = [0] * count
        for position, k in enumerate(sorted(range(count), key=lambda k: (-seeds[k], k))):
            self._rank[k] = position
        self._score = [0] * count  # half points
        self._opponents: list[set[int]] = [set() for _ in range(count)]
        self._balance = [0] * count  # whites minus blacks
        self._last = [0] * count  # +1 white, -1 black, 0 not yet played
        self._had_bye = [False] * count
        self._active = [True] * count

    def pair(self) -> list[tuple[int, int]]:
        """The next round's (white, black) pairs, top board first. The lowest-ranked player
        without a bye gets one if the number is odd (a point, no game)."""
        score, rank = self._score, self._rank
        order = sorted((k for k, active in enumerate(self._active) if active), key=lambda k: (-score[k], rank[k]))
        if len(order) % 2:
            bye = next((k for k in reversed(order) if not self._had_bye[k]), order[-1])
            order.remove(bye)
            self._had_bye[bye] = True
            score[bye] += 2
        pairs: list[tuple[int, int]] = []
        floaters: list[int] = []
        start = 0
        while start < len(order):
            stop = start + 1
            while stop < len(order) and score[order[stop]] == score[order[start]]:
                stop += 1
            floaters = self._pair_group([*floaters, *order[start:stop]], pairs)
            start = stop
        while len(floaters) > 1:
            a = floaters.pop(0)
            partner = next((b for b in floaters if b not in self._opponents[a]), None)
            if partner is not None:
                floaters.remove(partner)
                pairs.append((a, partner))
            else:
                self._exchange(a, floaters, pairs)
        return [self._colours(a, b, table) for table, (a, b) in enumerate(pairs)]

    def _exchange(self, a: int, floaters: list[int], pairs: list[tuple[int, int]]) -> None:
        """Last resort at the bottom: ``a`` has met everyone left, so break up the lowest pair
        (x, y) such that a can play one of them and another floater the other."""
        met = self._opponents
        for k in range(len(pairs) - 1, -1, -1):
            x, y = pairs[k]
            for b in floaters:
                for p, q in ((x, y), (y, x)):
                    if p not in met[a] and q not in met[b]:
                        pairs[k] = (p, a) if self._rank[p] < self._rank[a] else (a, p)
                        pairs.append((q, b) if self._rank[q] < self._rank[b] else (b, q))
                        floaters.remove(b)
                        return

    def _pair_group(self, group: list[int], pairs: list[tuple[int, int]]) -> list[int]:
        """Top half against bottom half, shifting down the bottom half to avoid repeats;
        returns the players left over, who float down to the next group."""
        half = len(group) // 2
        top, bottom = group[:half], group[half:]
        taken = [False] * len(bottom)
        left = []
        for position, a in enumerate(top):
            met = self._opponents[a]
            for step in range(len(bottom)):
                q = (position + step) % len(bottom)
                if not taken[q] and bottom[q] not in met:
                    taken[q] = True
                    pairs.append((a, bottom[q]))
                    break
            else:
                left.append(a)
        return left + [b for q, b in enumerate(bottom) if not taken[q]]

    def _colours(self, a: int, b: int, table: int) -> tuple[int, int]:
        """(white, black) for ``a`` (the higher-ranked) and ``b``."""
        if self._balance[a] != self._balance[b]:
            return (a, b) if self._balance[a] < self._balance[b] else (b, a)
        last_a, last_b = self._last[a], self._last[b]
        if last_a != last_b:
            return (a, b) if last_a < last_b else (b, a)
        if last_a == 0:
            return (a, b) if table % 2 == 0 else (b, a)
        return (a, b) if last_a < 0 else (b, a)

    def record(self, white: int, black: int, white_halves: int, black_halves: int) -> None:
        """Enter a game's result (points in halves)."""
        self._score[white] += white_halves
        self._score[black] += black_halves
        self._opponents[white].add(black)
        self._opponents[black].add(white)
        self._balance[white] += 1
        self._balance[black] -= 1
        self._last[white] = 1
        self._last[black] = -1

    def withdraw(self, player: int) -> None:
        """The player is no longer paired (he left, or did not show up)."""
        self._active[player] = False

    def active(self, player: int) -> bool:
        return self._active[player]
