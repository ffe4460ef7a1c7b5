"""The embedded mode's relay: a thread of the serving process that runs one pass of the relay
whenever a commit wakes it (``zdb.outbox.seam.set_waker``) and at least every ``poll_seconds``."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from sqlalchemy import Engine

from zdb.outbox.seam import clear_waker, set_waker

__all__ = ["RelayThread"]

_log = logging.getLogger(__name__)


class RelayThread:
    """Runs ``one_pass`` (which says whether work is left) on wake-ups and polls."""

    def __init__(self, engine: Engine, one_pass: Callable[[], bool], poll_seconds: float = 5.0) -> None:
        self._engine = engine
        self._pass = one_pass
        self._poll = poll_seconds
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="zdb-outbox-relay", daemon=True)

    def start(self) -> None:
        set_waker(self._engine, self.wake)
        self._thread.start()
        self.wake()  # what an earlier process left in the outbox

    def stop(self, timeout: float = 30.0) -> None:
        clear_waker(self._engine)
        self._stop.set()
        self._wake.set()
        self._thread.join(timeout)

    def wake(self) -> None:
        self._wake.set()

    def _loop(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(self._poll)
            self._wake.clear()
            try:
                while not self._stop.is_set() and self._pass():
                    pass
            except Exception:  # the messages stay in the outbox: the next pass takes them
                _log.exception("the outbox relay's pass failed; retrying at the next poll")
