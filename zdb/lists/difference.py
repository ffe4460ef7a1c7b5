"""The answer of an import: what a list changes, per kind, with the first lines of each.

The same value answers a dry run (nothing stored) and an applied import, so that the staff
see before they apply exactly what will be written. It is stored as JSON on the import's row.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from zdb.messages import Message

__all__ = ["KINDS", "SAMPLES", "Difference"]

#: the kinds of difference, in the order they are shown
KINDS = (
    "federations_new",
    "federations_changed",
    "clubs_new",
    "clubs_changed",
    "people_new",
    "people_changed",
    "people_linked",
    "people_unchanged",
    "memberships_new",
    "memberships_changed",
    "memberships_ended",
    "transfers",
    "start_ratings",
    "ratings_differ",
)
#: lines shown per kind
SAMPLES = 10


@dataclass(slots=True)
class Difference:
    file: str
    list_date: date
    dry_run: bool
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    samples: dict[str, list[str]] = field(default_factory=lambda: {kind: [] for kind in KINDS})
    #: the same lines as the pages translate them (``Message`` JSON), in the order of ``samples``
    sample_texts: dict[str, list[dict[str, Any]]] = field(default_factory=lambda: {kind: [] for kind in KINDS})
    problems: list[str] = field(default_factory=list)
    #: lines of the three files read and left out (a problem on them; told to skip them)
    skipped: int = 0
    #: lines of ``spieler.csv`` whose membership the register holds afterwards (or would)
    stored_lines: int = 0
    #: what did not stop a line from being stored but the staff should know (file:line: column: text)
    warnings: list[str] = field(default_factory=list)
    #: the problems and warnings as the pages translate them (``zdb.lists.problem_texts``), in
    #: the order of ``problems`` and ``warnings``: file, line, column and the message's JSON
    problem_texts: list[dict[str, Any]] = field(default_factory=list)
    warning_texts: list[dict[str, Any]] = field(default_factory=list)
    applied: bool = False

    def add(self, kind: str, line: Message) -> None:
        self.counts[kind] += 1
        if len(self.samples[kind]) < SAMPLES:
            self.samples[kind].append(str(line))
            self.sample_texts[kind].append(line.as_json())

    @property
    def changes(self) -> int:
        """The rows written (or to be written) in the register; a transfer is counted as the
        membership it ends and the one it begins, unchanged people and differing ratings are
        only reported."""
        return sum(
            n for kind, n in self.counts.items() if kind not in ("people_unchanged", "ratings_differ", "transfers")
        )

    def as_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "list_date": self.list_date.isoformat(),
            "dry_run": self.dry_run,
            "applied": self.applied,
            "counts": dict(self.counts),
            "samples": {kind: lines for kind, lines in self.samples.items() if lines},
            "sample_texts": {kind: lines for kind, lines in self.sample_texts.items() if lines},
            "problems": list(self.problems),
            "skipped": self.skipped,
            "stored_lines": self.stored_lines,
            "warnings": list(self.warnings),
            "problem_texts": list(self.problem_texts),
            "warning_texts": list(self.warning_texts),
        }
