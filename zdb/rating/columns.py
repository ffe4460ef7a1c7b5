"""The report of a batch of tournaments as columns: one array element per participant.

``evaluate_tournaments`` computes every figure of a batch as arrays; handing them on as arrays
lets a caller that stores whole batches (the recalculation's writer) encode them without one
Python object per participant. The report rows of one tournament (``ReportRow``, what the
vectors, the explanations and the API read) are made from the columns only when asked for
(``TournamentEvaluation.rows``), and hold the same values.

A column with gaps has a ``has_…`` flag array beside it: where the flag is off, the row holds
``None`` and the value array holds 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from itertools import repeat
from typing import Final

import numpy as np
from numpy.typing import NDArray

from zdb.rating.model import PlayerId, PlayerState, ReportRow, Stage

__all__ = ["STAGE_CODES", "ReportColumns", "read_only", "with_gaps"]

Ints = NDArray[np.int64]
Floats = NDArray[np.float64]
Flags = NDArray[np.bool_]

#: the stages in the order of their codes in ``ReportColumns.stage``
STAGE_CODES: Final = (Stage.ESTABLISHED, Stage.STAGE1, Stage.STAGE2, Stage.UNRATED)


@dataclass(frozen=True, slots=True, eq=False)
class ReportColumns:
    """Every participant of a batch: tournament ``t`` of ``ids`` holds the rows ``starts[t]``
    to ``starts[t + 1]``, in the order of its players. The arrays are read-only."""

    rule_set: str
    ids: tuple[int, ...]  # the tournaments' ids
    end_dates: tuple[date, ...]
    acronyms: tuple[str, ...]
    starts: tuple[int, ...]
    home: Ints  # each row's tournament (an index into ``ids``)
    pids: list[PlayerId]
    before: list[PlayerState]
    after: list[PlayerState]
    #: the states' ratings and indexes as columns (the leftover games are in the states)
    before_rating: Ints
    has_before_rating: Flags
    before_index: Ints
    after_rating: Ints
    has_after_rating: Flags
    after_index: Ints
    member: Flags
    stage: Ints  # codes of ``STAGE_CODES``
    fide_start: Flags
    r0: Ints
    has_r0: Flags
    i0: Ints
    has_i0: Flags
    w: Floats
    n: Ints
    unrated_games: Ints
    we: Floats
    has_we: Flags
    e: Ints
    has_e: Flags
    k: Floats
    has_k: Flags
    rh: Ints
    has_rh: Flags
    sonder: Flags
    rn: Ints
    has_rn: Flags  # also whether ``i_new`` is there
    i_new: Ints
    stored: Flags
    leftover_used: Ints
    leftover_stored: Ints
    #: the batch's rows, made once when the first tournament's are asked for
    _made: list[tuple[ReportRow, ...]] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        read_only(self)

    def __len__(self) -> int:
        return len(self.pids)

    def rows(self, start: int, stop: int) -> tuple[ReportRow, ...]:
        """The report rows ``start`` to ``stop`` (one tournament's, ``starts``). The rows of
        the whole batch are made at the first call: one pass over each column, not one per
        tournament."""
        if not self._made:
            self._made.append(self._all_rows())
        return self._made[0][start:stop]

    def _all_rows(self) -> tuple[ReportRow, ...]:
        columns = zip(
            self.pids,
            self.member.tolist(),
            list(map(STAGE_CODES.__getitem__, self.stage.tolist())),
            self.fide_start.tolist(),
            with_gaps(self.r0, self.has_r0),
            with_gaps(self.i0, self.has_i0),
            self.w.tolist(),
            self.n.tolist(),
            self.unrated_games.tolist(),
            with_gaps(self.we, self.has_we),
            with_gaps(self.e, self.has_e),
            with_gaps(self.k, self.has_k),
            with_gaps(self.rh, self.has_rh),
            self.sonder.tolist(),
            with_gaps(self.rn, self.has_rn),
            with_gaps(self.i_new, self.has_rn),
            self.stored.tolist(),
            self.leftover_used.tolist(),
            self.leftover_stored.tolist(),
            strict=True,
        )
        return tuple(map(tuple.__new__, repeat(ReportRow), columns))


def read_only(columns: object) -> None:
    """Make every array among a frozen dataclass's fields read-only."""
    for name in columns.__slots__:  # type: ignore[attr-defined]
        value = getattr(columns, name)
        if isinstance(value, np.ndarray):
            value.flags.writeable = False


def with_gaps(values: Ints | Floats, present: Flags) -> list[int | float | None]:
    """The values as Python numbers, ``None`` where not ``present``."""
    if present.all():
        column: list[int | float | None] = values.tolist()
        return column
    objects = values.astype(object)  # Python ints and floats, as ``tolist`` makes them
    objects[~present] = None
    column = objects.tolist()
    return column
