"""A long command's progress as it prints it on standard error: the recalculation's tournaments,
``zdb synth``'s load, a list import's phases. The services only report figures; this is the one
place that prints them.

On a terminal it is one line rewritten in place (``\\r``), ended when the work ends. Piped into
a file or a log, a rewritten line is garbage (every state glued together by carriage returns),
so there it prints whole lines, and few of them: one when a phase begins, one at each tenth of
the work, one at most every ``every`` seconds between them, and the last state at the end.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import click

__all__ = ["Progress", "ProgressLine", "progress", "progress_line"]

#: seconds between two lines of unchanged tenth and phase, when not on a terminal
EVERY = 30.0


class Progress:
    """A callback ``(done, total)`` (or ``(done, total, phase)``) that prints the progress of one
    piece of work labelled ``label``, counted in ``unit``."""

    def __init__(
        self,
        label: str,
        unit: str = "",
        *,
        terminal: bool | None = None,
        every: float = EVERY,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.label, self.unit = label, unit
        self.terminal = sys.stderr.isatty() if terminal is None else terminal
        self._every, self._clock = every, clock
        self._state: tuple[int, int, str | None] | None = None
        self._printed: tuple[int, int, str | None] | None = None
        self._printed_at = 0.0
        self._width = 0

    def __call__(self, done: int, total: int, phase: str | None = None) -> None:
        state = (done, total, phase)
        if state == self._state:
            return
        self._state = state
        if self.terminal:
            self._rewrite(self._text(state))
        elif self._worth_a_line(state):
            self._line(state)

    def _text(self, state: tuple[int, int, str | None]) -> str:
        done, total, phase = state
        count = f"{done:,}/{total:,}" if total else f"{done:,}"
        unit = f" {self.unit}" if self.unit else ""
        percent = f" ({100 * done // total} %)" if total else ""
        return f"{self.label}: {phase + ' ' if phase else ''}{count}{unit}{percent}"

    def _rewrite(self, text: str) -> None:
        click.echo("\r" + text.ljust(self._width), nl=False, err=True)
        self._width = max(self._width, len(text))

    def _worth_a_line(self, state: tuple[int, int, str | None]) -> bool:
        if self._printed is None:
            return True
        done, total, phase = state
        before_done, before_total, before_phase = self._printed
        if phase != before_phase or total != before_total:
            return True
        if total and 10 * done // total != 10 * before_done // total:
            return True
        return self._clock() - self._printed_at >= self._every

    def _line(self, state: tuple[int, int, str | None]) -> None:
        click.echo(self._text(state), err=True)
        self._printed, self._printed_at = state, self._clock()

    def end(self) -> None:
        """The last state stands: the terminal's line is ended; elsewhere it is printed unless it was."""
        if self._state is None:
            return
        if self.terminal:
            click.echo("", err=True)
        elif self._printed != self._state:
            self._line(self._state)


@contextmanager
def progress(label: str, unit: str = "", *, terminal: bool | None = None) -> Iterator[Progress]:
    """A ``Progress`` while the block runs, ended when it ends (also by an error)."""
    reporter = Progress(label, unit, terminal=terminal)
    try:
        yield reporter
    finally:
        reporter.end()


class ProgressLine(Progress):
    """A callback for ``run_recalculation(report=...)``: tournaments done of those to do."""

    def __init__(self, *, terminal: bool | None = None) -> None:
        super().__init__("recalculation", "tournaments", terminal=terminal)


@contextmanager
def progress_line(show: bool = True) -> Iterator[ProgressLine | None]:
    """The recalculation's progress while the block runs (None when not ``show``)."""
    if not show:
        yield None
        return
    line = ProgressLine()
    try:
        yield line
    finally:
        line.end()
