"""Collects problems while a file is read: the reader never stops at the first one."""

from __future__ import annotations

from zdb.formats.trf.model import Severity, TrfProblem
from zdb.messages import Message

__all__ = ["Problems"]


class Problems:
    """A growing list of ``TrfProblem``; ``result()`` orders them by line (document-wide ones last)."""

    def __init__(self) -> None:
        self._items: list[TrfProblem] = []

    def error(
        self,
        line: int | None,
        message: Message,
        *,
        field: str | None = None,
        column: int | None = None,
        record: str | None = None,
    ) -> None:
        self._items.append(TrfProblem(line, Severity.ERROR, str(message), field, column, message, record))

    def warning(
        self,
        line: int | None,
        message: Message,
        *,
        field: str | None = None,
        column: int | None = None,
        record: str | None = None,
    ) -> None:
        self._items.append(TrfProblem(line, Severity.WARNING, str(message), field, column, message, record))

    def __len__(self) -> int:
        return len(self._items)

    def result(self) -> tuple[TrfProblem, ...]:
        order = sorted(
            range(len(self._items)), key=lambda k: (self._items[k].line is None, self._items[k].line or 0, k)
        )
        return tuple(self._items[k] for k in order)
