"""The synthetic federation with its tournaments on disk instead of in memory, for scale 10.

At scale 10 (a million players, ~52 M games) ``zdb.synthetic.generate`` would hold every game
as a Python tuple at once, several gigabytes on a machine others share. ``spooled`` draws the
same tournaments one at a time (``zdb.synthetic.drafted``), pickles each draft into a scratch
file as it comes, keeps only its key in the submission order and its place in the file, and
hands the loader a sequence that reads the tournaments back in submission order, a slice at a
time, with the ids ``generate`` gives them. The register (players, clubs, initial states) stays
in memory: it is what every tournament is drawn from.
"""

from __future__ import annotations

import pickle
import time
from collections.abc import Iterator, Sequence
from dataclasses import replace
from datetime import date, timedelta
from operator import itemgetter
from pathlib import Path
from typing import Any, cast, overload

from zdb.synthetic import SyntheticFederation, SyntheticTournament, drafted, release

__all__ = ["SpooledTournaments", "late_open_view", "spooled"]


class SpooledTournaments(Sequence[SyntheticTournament]):
    """Tournaments in submission order, read from the spool file as they are asked for.
    ``read_s`` is the wall time spent reading and unpickling them, so that a caller timing a
    load can tell the spool's share from the load's."""

    def __init__(self, path: Path, places: Sequence[tuple[date, date, int, int]]) -> None:
        self._path = path
        self._places = places  # (submitted, end date, offset, length), in submission order
        self.read_s = 0.0

    def __len__(self) -> int:
        return len(self._places)

    @overload
    def __getitem__(self, index: int) -> SyntheticTournament: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[SyntheticTournament]: ...

    def __getitem__(self, index: int | slice) -> SyntheticTournament | Sequence[SyntheticTournament]:
        if isinstance(index, slice):
            return self._read(range(len(self._places))[index])
        return self._read([range(len(self._places))[index]])[0]

    def __iter__(self) -> Iterator[SyntheticTournament]:
        for start in range(0, len(self._places), 1000):
            yield from self[start : start + 1000]

    def ending_within(self, first: date, last: date) -> list[SyntheticTournament]:
        """The tournaments that end on a day in [first, last], in submission order (only
        those are read)."""
        return self._read([k for k, place in enumerate(self._places) if first <= place[1] <= last])

    def _read(self, numbers: Sequence[int]) -> list[SyntheticTournament]:
        began = time.perf_counter()
        read = []
        with self._path.open("rb") as spool:
            for number in numbers:
                submitted, _, offset, length = self._places[number]
                spool.seek(offset)
                read.append(release(pickle.loads(spool.read(length)), number + 1, submitted))
        self.read_s += time.perf_counter() - began
        return read


def spooled(seed: int, scale: float, directory: Path) -> SyntheticFederation:
    """``generate(seed, scale)`` with its tournaments in a file under ``directory`` (which the
    caller removes): the same tournaments, ids and submission order, never all in memory."""
    register, arriving = drafted(seed, scale)
    path = directory / "tournaments.pickle"
    keys: list[tuple[Any, int, int]] = []
    with path.open("wb") as spool:
        for key, draft in arriving:
            offset = spool.tell()
            pickle.dump(draft, spool, protocol=pickle.HIGHEST_PROTOCOL)
            keys.append((key, offset, spool.tell() - offset))
    keys.sort(key=itemgetter(0))  # the submission order (``zdb.synthetic.events.submit_in_order``)
    places = [(key[0], key[1], offset, length) for key, offset, length in keys]
    # the loader and ``late_open`` only iterate and slice ``tournaments``: a sequence serves
    return replace(register, tournaments=cast(tuple[SyntheticTournament, ...], SpooledTournaments(path, places)))


def late_open_view(world: SyntheticFederation) -> SyntheticFederation:
    """``world`` as ``zdb.synthetic.late_open`` (default date) reads it, without reading every
    tournament: those ending within the two years before the open's date (it looks at the
    players of the year before it) and the last one submitted (it takes the latest submission
    date and the highest id, both the last tournament's: ids follow the submission order)."""
    tournaments = world.tournaments
    if not isinstance(tournaments, SpooledTournaments):
        return world
    target = world.end - timedelta(days=365)
    recent = tournaments.ending_within(target - timedelta(days=2 * 365), target)
    last = tournaments[len(tournaments) - 1]
    return replace(world, tournaments=(*recent, last))
