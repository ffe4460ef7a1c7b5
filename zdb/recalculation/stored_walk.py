"""The stored time line as the incremental replay walks it: steps read ahead from the history,
and the tournaments it re-evaluates loaded in batches.

The replay asks for a stored step's event only to apply it again, and it re-applies a step
only if a participant's state changed (or the step itself did). When the replay asks for one
tournament, the tournaments near it that it is likely to ask for next are loaded with it, in
one batch: those it holds in its window (``replay_incremental`` takes positions a window at a
time) or that are just ahead, with a participant whose state differs from the stored one now
(the replay's live view of them, ``watch``) or who plays in the tournament asked for (his
state may differ after it). A tournament loaded ahead that the replay then passes by costs its
share of the batch; one it asks for that was not loaded costs a batch of its own. Measured on
a late weekend open (750 tournaments re-evaluated), this guess loads 961 tournaments in 25
batches. (With a replay that took one position at a time, every participant of every event
re-applied so far, a superset that never shrinks, loaded 1,877 in 41.)

The stored steps themselves are read as their keys and players only; a step's history rows
(its players' states before and after) are read when the replay or mending first asks for one
of them (``DbStep.row``), in batches chosen as the tournaments are. A conversion's rows are read
only for the players whose state changed: the replay converts just those again. Measured on
the late weekend open of ``benchmarks/recalc.py``, the walk read every history row of the year
after it before, most of which it only passed by.

Which stored steps the replay applied again (``reapplied``) is recorded when it asks for
their events (``DbStep.on_load``): it holds a window of steps, so the step handed out last is
not the only one it may still apply.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, KeysView
from collections.abc import Set as AbstractSet
from itertools import chain

from sqlalchemy.orm import Session

from zdb.rating import OrderKey, PlayerId, Tournament
from zdb.rating.replay import INCREMENTAL_WINDOW
from zdb.recalculation import store
from zdb.tournaments import engine_view

__all__ = ["StoredWalk"]

_LOOKAHEAD = 256  # stored steps read ahead of the replay
#: steps last handed to the replay: those it may still hold in its window (and a few it is done with)
_HELD = INCREMENTAL_WINDOW + 1
_BATCH = 48  # tournaments (and steps' history rows) loaded at once
#: the order key's phase of a conversion (``zdb.rating.timeline.order_key``)
_CONVERSION_PHASE = 2


class StoredWalk:
    """Feeds ``replay_incremental`` the stored steps from ``start`` on (``steps``; give it
    ``watch`` too), reports progress every 500 tournaments, and records what it did with them:
    the tournament versions it passed (``versions``) and the steps it applied again
    (``reapplied``, whose rows may need mending)."""

    def __init__(
        self,
        session: Session,
        start: OrderKey,
        progress: Callable[[int, int], None],
        total: int,
    ) -> None:
        self._session = session
        self._start = start
        self._progress = progress
        self._total = total  # tournaments from ``start`` on, for the progress figures
        self._ahead: deque[store.DbStep] = deque()
        self._held: deque[store.DbStep] = deque(maxlen=_HELD)
        self._cache: dict[tuple[int, int], Tournament] = {}
        self._dirty: AbstractSet[PlayerId] = frozenset()
        self.versions: dict[int, int] = {}
        self.reapplied: dict[OrderKey, store.DbStep] = {}

    def watch(self, dirty: KeysView[PlayerId]) -> None:
        """Takes the replay's live view of the players whose state differs from the stored one
        (``replay_incremental``'s ``watch``)."""
        self._dirty = dirty

    def steps(self) -> Iterator[store.DbStep]:
        source = store.iter_stored_steps(self._session, self._start, self._load, self._fetch_rows)
        done = 0
        exhausted = False
        while True:
            while not exhausted and len(self._ahead) < _LOOKAHEAD:
                step = next(source, None)
                if step is None:
                    exhausted = True
                else:
                    self._ahead.append(step)
            if not self._ahead:
                return
            step = self._ahead.popleft()
            if step.key[1] == 1 and step.tournament_version is not None:
                self.versions[step.key[3]] = step.tournament_version
                done += 1
                if done % 500 == 0:
                    self._progress(done, self._total)
            step.on_load = self._reapplied
            self._held.append(step)
            yield step

    def _reapplied(self, step: store.DbStep) -> None:
        self.reapplied[step.key] = step

    def _load(self, tid: int, version: int) -> Tournament:
        hit = self._cache.pop((tid, version), None)
        if hit is not None:
            return hit
        batch = [(tid, version)]
        dirty = self._dirty
        asked = next(
            (s for s in self._held if s.key[1] == 1 and s.key[3] == tid and s.tournament_version == version), None
        )
        playing = asked.players.keys() if asked is not None else frozenset()
        for step in chain(self._held, self._ahead):
            if len(batch) >= _BATCH:
                break
            if (
                step.key[1] == 1
                and step.tournament_version is not None
                and not step.loaded
                and (step.key[3], step.tournament_version) not in self._cache
                and step.key[3] != tid
                and not (playing.isdisjoint(step.players) and dirty.isdisjoint(step.players))
            ):
                batch.append((step.key[3], step.tournament_version))
        for tournament, loaded in engine_view.load_tournaments(self._session, batch).values():
            self._cache[(tournament.id, loaded)] = tournament
        return self._cache.pop((tid, version))

    def _fetch_rows(self, step: store.DbStep, pid: PlayerId) -> None:
        """Read the history rows of ``step`` (at least ``pid``'s) and of the steps near it that
        the replay is likely to apply next (chosen as ``_load`` chooses tournaments)."""
        if step.key[1] == _CONVERSION_PHASE:
            # Everyone with a DWZ is a conversion's player; it is applied again only to players
            # whose state changed (``dirty``), and mending compares just those.
            dirty, players = self._dirty, step.players.keys()
            few, many = (dirty, players) if len(dirty) < len(players) else (players, dirty)
            wanted = {pid, *(p for p in few if p in many)}
            found = store.stored_rows(self._session, (), [(step.key, p) for p in wanted])
            step.add_rows(found.get(step.key, {}))
            return
        batch = [step]
        dirty, playing = self._dirty, step.players.keys()
        for other in chain(self._held, self._ahead):
            if len(batch) >= _BATCH:
                break
            if (
                other is not step
                and other.key[1] != _CONVERSION_PHASE
                and not other.rows_read
                and not (playing.isdisjoint(other.players) and dirty.isdisjoint(other.players))
            ):
                batch.append(other)
        found = store.stored_rows(self._session, [s.key for s in batch])
        for chosen in batch:
            chosen.add_rows(found.get(chosen.key, {}))
