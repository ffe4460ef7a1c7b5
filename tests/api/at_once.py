"""Requests sent at once: each from a thread of its own, all released together by a barrier, so
that the races the server must decide (two equal submissions, two invoices, five files naming
one newcomer) are really run side by side."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

__all__ = ["at_once"]


def at_once(*sends: Callable[[], Any]) -> list[Any]:
    """What each of ``sends`` answered, in the order the answers came; every thread is waited
    for (two minutes at most: a hung request leaves its answer out, and the test's count fails)."""
    answers: list[Any] = []
    start = threading.Barrier(len(sends))

    def run(send: Callable[[], Any]) -> None:
        start.wait()
        answers.append(send())

    threads = [threading.Thread(target=run, args=(send,)) for send in sends]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return answers
