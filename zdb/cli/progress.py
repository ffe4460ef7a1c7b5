"""The recalculation's progress as a command prints it: one line on standard error, rewritten in
place (``12/345 tournaments``), ended when the run ends. The runner only reports figures; this
is the one place that prints them."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import click

__all__ = ["ProgressLine", "progress_line"]


class ProgressLine:
    """A callback for ``run_recalculation(report=...)``: prints when the count of done changes."""

    def __init__(self) -> None:
        self._last = -1

    def __call__(self, done: int, total: int) -> None:
        if done != self._last:
            click.echo(f"\r{done}/{total} tournaments", nl=False, err=True)
            self._last = done


@contextmanager
def progress_line(show: bool) -> Iterator[ProgressLine | None]:
    """A progress line while the block runs (None when not ``show``), ended by a line break."""
    if not show:
        yield None
        return
    line = ProgressLine()
    try:
        yield line
    finally:
        click.echo("", err=True)
