"""The embedded mode's recalculation: a background thread of the serving process instead of
a Celery worker. It wakes when the outbox's relay hands it a change's request (``wake``) and at least every
``sweep_seconds`` (the sweeper's job), and runs until the dirty position is clear."""

from __future__ import annotations

import logging
import threading

from sqlalchemy import Engine

from zdb.recalculation.run import run_recalculation
from zdb.timeline.state import is_dirty

__all__ = ["EmbeddedRecalculator"]

_log = logging.getLogger(__name__)


class EmbeddedRecalculator:
    def __init__(self, engine: Engine, sweep_seconds: float = 30.0) -> None:
        self._engine = engine
        self._sweep = sweep_seconds
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._idle = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="zdb-recalc", daemon=True)

    def start(self) -> None:
        self._thread.start()
        self.wake()

    def stop(self, timeout: float = 30.0) -> None:
        self._stop.set()
        self._wake.set()
        self._thread.join(timeout)

    def wake(self) -> None:
        self._idle.clear()
        self._wake.set()

    def wait_idle(self, timeout: float = 60.0) -> bool:
        """Block until the time line is clean (for tests and the import command)."""
        return self._idle.wait(timeout)

    def _dirty(self) -> bool:
        with self._engine.connect() as connection:
            return is_dirty(connection)

    def _loop(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(self._sweep)
            self._wake.clear()
            try:
                while not self._stop.is_set() and self._dirty():
                    run_recalculation(self._engine)
                self._idle.set()
            except Exception:  # a failed run leaves the position dirty: retried at the next wake
                _log.exception("recalculation failed; retrying at the next sweep")
