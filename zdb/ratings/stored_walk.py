"""The stored time line as the incremental replay walks it: steps read ahead from the history,
and the tournaments it re-evaluates loaded in batches.

The replay asks for a stored step's event only to apply it again, and it re-applies a step
only if a participant's state changed (or the step itself did). When the replay asks for one
tournament, the tournaments just ahead that it is likely to ask for next are loaded with it,
in one batch: those with a participant whose state differs from the stored one now (the
replay's live view of them, ``watch``) or who plays in the tournament asked for (his state may
differ after it). A tournament loaded ahead that the replay then passes by costs its share of
the batch; one it asks for that was not loaded costs a batch of its own. Measured on a late
weekend open (750 tournaments re-evaluated), this guess loads 1,175 tournaments in 26 batches;
every participant of every event re-applied so far (a superset that never shrinks) loaded
1,877 in 41.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, KeysView
from collections.abc import Set as AbstractSet

from sqlalchemy.orm import Session

from zdb.rating import OrderKey, PlayerId, Tournament
from zdb.ratings import repository as repo
from zdb.ratings import tournament_loader

__all__ = ["StoredWalk"]

_LOOKAHEAD = 256  # stored steps read ahead of the replay
_BATCH = 48  # tournaments loaded at once


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
        self._ahead: deque[repo.DbStep] = deque()
        self._cache: dict[tuple[int, int], Tournament] = {}
        self._current: repo.DbStep | None = None
        self._dirty: AbstractSet[PlayerId] = frozenset()
        self.versions: dict[int, int] = {}
        self.reapplied: dict[OrderKey, repo.DbStep] = {}

    def watch(self, dirty: KeysView[PlayerId]) -> None:
        """Takes the replay's live view of the players whose state differs from the stored one
        (``replay_incremental``'s ``watch``)."""
        self._dirty = dirty

    def steps(self) -> Iterator[repo.DbStep]:
        source = repo.iter_stored_steps(self._session, self._start, self._load)
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
            step = self._current = self._ahead.popleft()
            if step.key[1] == 1 and step.tournament_version is not None:
                self.versions[step.key[3]] = step.tournament_version
                done += 1
                if done % 500 == 0:
                    self._progress(done, self._total)
            yield step
            # The replay has finished with this step before it asks for the next one.
            if step.loaded:
                self.reapplied[step.key] = step

    def _load(self, tid: int, version: int) -> Tournament:
        hit = self._cache.pop((tid, version), None)
        if hit is not None:
            return hit
        batch = [(tid, version)]
        dirty = self._dirty
        playing = self._current.rows.keys() if self._current is not None else frozenset()
        for step in self._ahead:
            if len(batch) >= _BATCH:
                break
            if (
                step.key[1] == 1
                and step.tournament_version is not None
                and not (playing.isdisjoint(step.rows) and dirty.isdisjoint(step.rows))
            ):
                batch.append((step.key[3], step.tournament_version))
        for tournament, loaded in tournament_loader.load_tournaments(self._session, batch).values():
            self._cache[(tournament.id, loaded)] = tournament
        return self._cache.pop((tid, version))
