"""Asking for a recalculation once a change is committed.

A change to the time line registers ``request_recalculation`` with the unit of work's
``after_commit``, so that it runs only after the commit. Production registers a dispatcher
that sends the Celery task; the embedded mode one that wakes its background thread. A failed
dispatch (broker down) loses nothing: the dirty position stays set and the sweeper starts a run
later.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

__all__ = ["clear_dispatcher", "request_recalculation", "set_dispatcher"]

_log = logging.getLogger(__name__)
_dispatcher: Callable[[], None] | None = None


def set_dispatcher(dispatcher: Callable[[], None]) -> None:
    global _dispatcher  # noqa: PLW0603 - one dispatcher per process, set at start-up
    _dispatcher = dispatcher


def clear_dispatcher() -> None:
    global _dispatcher  # noqa: PLW0603
    _dispatcher = None


def request_recalculation() -> None:
    if _dispatcher is None:
        return
    try:
        _dispatcher()
    except Exception:  # the sweeper recovers: a lost request only delays
        _log.exception("could not dispatch a recalculation; the sweeper will start it")
