"""The history and evaluation rows of tournament steps, straight from their batches' columns.

The engine evaluates tournaments in batches and hands each batch's report on as columns
(``zdb.rating.columns``). A run that stores whole steps (every step of a from-scratch run, the
new and changed steps of an incremental one) collects them here and encodes their rows as
binary COPY data (``zdb.binary_copy``) from those arrays: no line of text and no row object per
participant. Steps of which only some players' rows are stored (``mending``), and conversions
and start ratings, keep the text lines of ``copy_lines``; both forms write the same values
(``tests/recalculation/test_batch_rows.py`` compares them through the server).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Sequence
from itertools import compress
from operator import attrgetter
from typing import Final

import numpy as np
from numpy.typing import NDArray

from zdb.binary_copy import Column, encode_rows
from zdb.rating import PlayerState, Step
from zdb.rating.columns import STAGE_CODES, ReportColumns
from zdb.recalculation.copy_lines import leftover_json

__all__ = ["BatchRows"]

Ints = NDArray[np.int64]

_LEFTOVER: Final[Callable[[PlayerState], tuple[object, ...]]] = attrgetter("leftover")
_STAGE_TEXT: Final = np.array([stage.value.encode() for stage in STAGE_CODES], dtype=np.bytes_)
#: the order key's phase of a tournament (``zdb.rating.order_key``)
_TOURNAMENT_PHASE: Final = 1


class BatchRows:
    """Tournament steps waiting to be written, by batch: which of its tournaments, with
    which versions. ``rows`` counts the participants collected."""

    def __init__(self) -> None:
        self._batches: dict[int, tuple[ReportColumns, list[int], list[int]]] = {}
        self.rows = 0

    def add(self, step: Step, version: int | None) -> bool:
        """Collect a tournament step whose report is a batch's columns; ``False`` for any
        other step (written as text lines)."""
        evaluation = step.evaluation
        if evaluation is None or evaluation.columns is None:
            return False
        assert version is not None, "a tournament's rows name its version"
        columns = evaluation.columns
        start, stop = evaluation.span
        entry = self._batches.setdefault(id(columns), (columns, [], []))
        # Its index in the batch: the first whose rows are these (an empty tournament's
        # start is the next one's too).
        t = bisect_left(columns.starts, start)
        while columns.starts[t + 1] != stop:
            t += 1
        entry[1].append(t)
        entry[2].append(version)
        self.rows += stop - start
        return True

    def encode(self) -> tuple[bytes, bytes]:
        """The collected rows as binary COPY rows: (history, evaluations), in the columns of
        ``copy_lines.HISTORY_COLUMNS`` and ``EVALUATION_COLUMNS``."""
        parts = [_Part.of(columns, tournaments, versions) for columns, tournaments, versions in self._batches.values()]
        if not parts:
            return b"", b""
        pkz = _pkz(parts)
        return encode_rows(_history_columns(parts, pkz)), encode_rows(_evaluation_columns(parts, pkz))


class _Part:
    """Some tournaments of one batch: their rows (positions in the batch) and, per row, its
    tournament's index in the batch and version."""

    def __init__(self, columns: ReportColumns, rows: Ints, home: Ints, versions: Ints, *, whole: bool) -> None:
        self.columns, self.rows, self.home, self.versions = columns, rows, home, versions
        self.whole = whole  # every row of the batch, in its order

    @classmethod
    def of(cls, columns: ReportColumns, tournaments: list[int], versions: list[int]) -> _Part:
        starts = columns.starts
        sizes = np.array([starts[t + 1] - starts[t] for t in tournaments], dtype=np.int64)
        # A full run writes each batch whole and in its order; an incremental run's steps come
        # in time-line order, which need not be the batch's, and some of a batch only.
        whole = tournaments == list(range(len(columns.ids)))
        if whole:
            rows = np.arange(len(columns), dtype=np.int64)
        else:
            rows = np.concatenate([np.arange(starts[t], starts[t + 1], dtype=np.int64) for t in tournaments])
        home = np.repeat(np.array(tournaments, dtype=np.int64), sizes)
        return cls(columns, rows, home, np.repeat(np.array(versions, dtype=np.int64), sizes), whole=whole)

    def take(self, name: str) -> NDArray[np.generic]:
        values: NDArray[np.generic] = getattr(self.columns, name)[self.rows]
        return values

    def states(self, which: str) -> list[PlayerState]:
        states: list[PlayerState] = getattr(self.columns, which)
        if self.whole:
            return states
        return list(map(states.__getitem__, self.rows.tolist()))

    def per_tournament(self, values: Sequence[object], dtype: type | str) -> NDArray[np.generic]:
        column: NDArray[np.generic] = np.array(values, dtype=dtype)[self.home]
        return column


def _joined(parts: list[_Part], pick: Callable[[_Part], NDArray[np.generic]]) -> NDArray[np.generic]:
    return np.concatenate([pick(part) for part in parts])


def _pkz(parts: list[_Part]) -> Ints:
    pids = [pid for part in parts for pid in map(part.columns.pids.__getitem__, part.rows.tolist())]
    return np.fromiter(map(int, pids), dtype=np.int64, count=len(pids))


def _history_columns(parts: list[_Part], pkz: Ints) -> list[Column]:
    def take(name: str) -> NDArray[np.generic]:
        return _joined(parts, lambda p: p.take(name))

    ids = _joined(parts, lambda p: p.per_tournament(p.columns.ids, np.int64))
    days = _joined(parts, lambda p: p.per_tournament([d.toordinal() for d in p.columns.end_dates], np.int64))
    acronyms = _joined(parts, lambda p: p.per_tournament([a.encode() for a in p.columns.acronyms], np.bytes_))
    return [
        Column("date", days),
        Column("int2", np.full(len(pkz), _TOURNAMENT_PHASE, dtype=np.int64)),
        Column("text", acronyms),
        Column("int4", ids),
        Column("int4", ids),
        Column("int4", _joined(parts, lambda p: p.versions)),
        Column("int8", pkz),
        Column("int4", take("before_rating"), take("has_before_rating").astype(bool)),
        Column("int2", take("before_index")),
        _leftover_column(parts, "before"),
        Column("int4", take("after_rating"), take("has_after_rating").astype(bool)),
        Column("int2", take("after_index")),
        _leftover_column(parts, "after"),
        Column("bool", take("stored")),
    ]


def _leftover_column(parts: list[_Part], which: str) -> Column:
    """The states' leftover games as JSON, where they have any."""
    states = [state for part in parts for state in part.states(which)]
    texts = np.full(len(states), b"", dtype=object)
    present = np.zeros(len(states), dtype=bool)
    holding = list(compress(range(len(states)), map(_LEFTOVER, states)))
    if holding:
        texts[holding] = [(leftover_json(states[k]) or "").encode() for k in holding]
        present[holding] = True
    return Column("text", texts, present)


def _evaluation_columns(parts: list[_Part], pkz: Ints) -> list[Column]:
    def take(name: str) -> NDArray[np.generic]:
        return _joined(parts, lambda p: p.take(name))

    w = take("w").astype(np.float64)
    w_tenths = np.rint(w * 10).astype(np.int64)
    if not np.array_equal(w_tenths, w * 10):  # spec §3: points come in halves
        raise ValueError("points in rated games come in halves")
    ids = _joined(parts, lambda p: p.per_tournament(p.columns.ids, np.int64))
    positions = _joined(parts, lambda p: p.rows - np.array(p.columns.starts, dtype=np.int64)[p.home])
    rule_sets = _joined(parts, lambda p: np.array([p.columns.rule_set.encode()]).repeat(len(p.rows)))
    k = take("k").astype(np.float64)
    return [
        Column("int4", ids),
        Column("int4", _joined(parts, lambda p: p.versions)),
        Column("int8", pkz),
        Column("int4", positions),
        Column("text", rule_sets),
        Column("bool", take("member")),
        Column("text", _STAGE_TEXT[take("stage").astype(np.int64)]),
        Column("bool", take("fide_start")),
        Column("int4", take("r0"), take("has_r0").astype(bool)),
        Column("int4", take("i0"), take("has_i0").astype(bool)),
        Column("numeric1", w_tenths),
        Column("int4", take("n")),
        Column("int4", take("unrated_games")),
        Column("float8", take("we"), take("has_we").astype(bool)),
        Column("int4", take("e"), take("has_e").astype(bool)),
        Column("numeric1", np.rint(k * 10).astype(np.int64), take("has_k").astype(bool)),
        Column("int4", take("rh"), take("has_rh").astype(bool)),
        Column("bool", take("sonder")),
        Column("int4", take("rn"), take("has_rn").astype(bool)),
        Column("int4", take("i_new"), take("has_rn").astype(bool)),
        Column("bool", take("stored")),
        Column("int4", take("leftover_used")),
        Column("int4", take("leftover_stored")),
    ]
