"""The progress of a recalculation running in this process, where it cannot be written aside.

On PostgreSQL a run writes its progress through a connection of its own, readable by everyone
at once. SQLite has one writer at a time, and during a run that is the run: its progress would
appear only when it commits. In the embedded mode the run is a thread of the serving process,
so the progress is kept here, in memory, for the status to read (a run in another process, a
``zdb recalc`` beside the server, shows when it commits).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import datetime

__all__ = ["LiveRun", "advanced", "current", "finished", "started"]


@dataclass(frozen=True, slots=True)
class LiveRun:
    since: datetime
    done: int = 0
    total: int = 0


_runs: dict[str, LiveRun] = {}
_guard = threading.Lock()


def started(database: str, since: datetime) -> None:
    with _guard:
        _runs[database] = LiveRun(since)


def advanced(database: str, done: int, total: int) -> None:
    with _guard:
        run = _runs.get(database)
        if run is not None:
            _runs[database] = LiveRun(run.since, done, total)


def finished(database: str) -> None:
    with _guard:
        _runs.pop(database, None)


def current(database: str) -> LiveRun | None:
    """The run on ``database`` (its URL) in this process, if one is running."""
    with _guard:
        return _runs.get(database)
