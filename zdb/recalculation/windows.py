"""The time line of a from-scratch run, read window by window, so that its memory does not
grow with the number of years.

First come the heads (id, current version, acronym, end date of every tournament that is not
withdrawn: a few bytes each), from which the order of spec §2 is known without a single game;
the start ratings and the conversions are merged in by their order keys. Then the tournaments
are read ``WINDOW`` at a time in that order, each window when the replay first asks for one of
its tournaments, and dropped once the replay has passed it. At most two windows and the
replay's own look-ahead are in memory at once, whatever the length of the time line.

A window is read in one of two ways. On PostgreSQL a thread reads the windows ahead on a second
connection (``read_ahead``), one window ahead of the replay, on the snapshot the run's
transaction exports once it has read the heads. A second connection is right here because the
run reads only committed tournament versions, never its own writes (the rows it writes, the
history and the evaluations, are what it computes, not what it reads); and the run's own
connection stays free for the COPY of its rows, which no longer pauses for a read. On SQLite,
which has nothing like an exported snapshot, each window is read on the session's connection
inside the run's transaction, when the replay first asks for one of its tournaments. Either
way, a version's participants and games never change once stored, so a window read later
holds exactly what the heads named.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import date
from operator import itemgetter

from sqlalchemy import and_, select
from sqlalchemy.orm import Session

from zdb.rating import Event, OrderKey, Tournament, order_key
from zdb.tournaments import engine_view
from zdb.tournaments.models import TournamentRecord, TournamentVersion

__all__ = ["WINDOW", "Head", "load_heads", "read_windows", "window_versions", "windowed_timeline"]

#: tournaments read at a time. A window of the synthetic federation (some 200 games a
#: tournament) is about 200,000 games, some 100 MB while it is read, and about the replay's
#: own look-ahead (``zdb.rating.replay``), which holds as many tournaments again. At scale 0.3,
#: windows of 500, 1,000 and 2,000 took about the same time to read (within the machine's
#: noise); the run's peak was 299, 316 and 379 MB.
WINDOW = 1000

#: a tournament to read: its order key (end date, 1, acronym, id) and its current version
Head = tuple[OrderKey, int]


def load_heads(session: Session, since: date | None = None) -> list[Head]:
    """The order key and current version of every tournament that is not withdrawn (ending on
    or after ``since`` if given: the tail of a late change)."""
    v, t = TournamentVersion, TournamentRecord
    query = (
        select(v.end_date, v.acronym, v.tournament_id, v.version)
        .join(t, and_(t.id == v.tournament_id, t.current_version == v.version))
        .where(t.status != "withdrawn")
    )
    if since is not None:
        query = query.where(v.end_date >= since)
    return [((end_date, 1, acronym, tid), version) for end_date, acronym, tid, version in session.execute(query)]


def window_versions(heads: Sequence[Head]) -> list[list[tuple[int, int]]]:
    """The (id, version) pairs of ``heads`` in the order of spec §2, ``WINDOW`` at a time: the
    windows in the order the replay asks for them."""
    window = WINDOW
    order = [(key[3], version) for key, version in sorted(heads, key=itemgetter(0))]
    return [order[start : start + window] for start in range(0, len(order), window)]


def read_windows(
    session: Session, windows: Sequence[Sequence[tuple[int, int]]], before_read: Callable[[], None] = lambda: None
) -> Iterator[dict[int, Tournament]]:
    """The tournaments of each window by id, read on ``session``'s connection when asked for;
    ``before_read`` is called before each read."""
    for pairs in windows:
        before_read()
        read_now = engine_view.load_tournaments(session, pairs)
        loaded = {tid: tournament for tid, (tournament, _) in read_now.items()}
        if len(loaded) != len(pairs):
            raise RuntimeError("a tournament version named by the heads was not found")
        yield loaded


def windowed_timeline(
    session: Session,
    heads: Sequence[Head],
    others: Sequence[Event],
    *,
    before_read: Callable[[], None] = lambda: None,
    read: Iterable[dict[int, Tournament]] | None = None,
) -> Iterator[Event]:
    """The tournaments of ``heads`` and the events ``others`` in the order of spec §2 (as
    ``sorted(..., key=order_key)`` of all of them), the tournaments read ``WINDOW`` at a
    time: from ``read`` (the windows of ``window_versions(heads)``, read elsewhere), or on
    ``session`` with ``before_read`` called before each read."""
    # Tournaments first, then the others, sorted stably by key: the order a sort of the
    # loaded events in that sequence gives. A tournament stands as its version until read.
    entries: list[tuple[OrderKey, int | Event]] = [(key, version) for key, version in heads]
    entries += [(order_key(event), event) for event in others]
    entries.sort(key=itemgetter(0))
    windows = iter(read if read is not None else read_windows(session, window_versions(heads), before_read))
    loaded: dict[int, Tournament] = {}
    for key, entry in entries:
        if not isinstance(entry, int):
            yield entry
            continue
        if key[3] not in loaded:
            loaded = {}  # the window passed is let go before the next is taken
            loaded = next(windows)
        yield loaded[key[3]]
