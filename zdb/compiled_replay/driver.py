"""The time line replayed in one compiled pass, with the engine where the pass must not decide.

``compiled_replay`` builds the arrays (``arrays``), runs the pass (``loop``) and steps in only
where it stops: a rule-table row not computed yet (filled from the exact rule, then the pass
resumes at the same tournament), a full leftover pool (grown), or a tournament the engine must
decide exactly (a value within reach of a tie, spec §5: evaluated by
``zdb.rating.evaluate_tournament`` from the states as the pass holds them, its states written
back, the pass resumed after it). The engine's own replay (``zdb.rating.replay``) is the
reference: the tests hold every figure of the pass to it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np

from zdb.compiled_replay import loop
from zdb.compiled_replay.arrays import TimelineArrays, build_arrays
from zdb.compiled_replay.machine import INTERPRETED, Machine, compiled
from zdb.rating import (
    Conversion,
    PlayerId,
    PlayerState,
    ReportRow,
    StartRating,
    Tournament,
    TournamentEvaluation,
    evaluate_tournament,
)
from zdb.rating.columns import STAGE_CODES

__all__ = ["CompiledReplay", "compiled_replay", "run_pass"]


class CompiledReplay:
    """A replayed time line: every tournament's report and every player's final state."""

    def __init__(self, arrays: TimelineArrays, out_int: np.ndarray, out_float: np.ndarray) -> None:
        self.arrays = arrays
        self._int = out_int
        self._float = out_float
        #: tournaments the engine evaluated (by position in the time line's tournaments)
        self.by_engine: dict[int, TournamentEvaluation] = {}
        #: why each of them went to the engine (``loop.JOINT`` …)
        self.reasons: dict[int, int] = {}

    @property
    def tournaments(self) -> list[Tournament]:
        return self.arrays.tournaments

    def rule_set(self, t: int) -> str:
        return self.arrays.rule_sets[int(self.arrays.events[2][self._event_of(t)])].name

    def _event_of(self, t: int) -> int:
        kinds, refs = self.arrays.events[0], self.arrays.events[1]
        return int(np.flatnonzero((kinds == loop.TOURNAMENT) & (refs == t))[0])

    def report(self, t: int) -> tuple[ReportRow, ...]:
        """The report rows of the time line's ``t``-th tournament, as the engine makes them."""
        evaluation = self.by_engine.get(t)
        if evaluation is not None:
            return evaluation.rows
        starts = self.arrays.events[5]
        a, b = int(starts[t]), int(starts[t + 1])
        pids = self.arrays.pids
        numbers = self.arrays.events[10][a:b].tolist()
        rows = []
        for q, p in zip(range(a, b), numbers, strict=True):
            c = self._int[q].tolist()
            w, we, k = self._float[q].tolist()

            def maybe(value: int | float, present: int) -> int | float | None:
                return value if present else None

            rows.append(
                ReportRow(
                    pids[p],
                    bool(c[loop.O_MEMBER]),
                    STAGE_CODES[c[loop.O_STAGE]],
                    bool(c[loop.O_FIDE_START]),
                    maybe(c[loop.O_R0], c[loop.O_HAS_R0]),  # type: ignore[arg-type]
                    maybe(c[loop.O_I0], c[loop.O_HAS_I0]),  # type: ignore[arg-type]
                    w,
                    c[loop.O_N],
                    c[loop.O_UNRATED],
                    maybe(we, c[loop.O_HAS_WE]),
                    maybe(c[loop.O_E], c[loop.O_HAS_E]),  # type: ignore[arg-type]
                    maybe(k, c[loop.O_HAS_K]),
                    maybe(c[loop.O_RH], c[loop.O_HAS_RH]),  # type: ignore[arg-type]
                    bool(c[loop.O_SONDER]),
                    maybe(c[loop.O_RN], c[loop.O_HAS_RN]),  # type: ignore[arg-type]
                    maybe(c[loop.O_I_NEW], c[loop.O_HAS_RN]),  # type: ignore[arg-type]
                    bool(c[loop.O_STORED]),
                    c[loop.O_LO_USED],
                    c[loop.O_LO_STORED],
                )
            )
        return tuple(rows)

    def final_states(self) -> dict[PlayerId, PlayerState]:
        """Every player's state after the time line (as ``ReplayResult.final_states``)."""
        return {pid: self.arrays.state_of(p) for p, pid in enumerate(self.arrays.pids)}


def compiled_replay(
    initial_states: Mapping[PlayerId, PlayerState],
    timeline: Iterable[Tournament | Conversion | StartRating],
    machine: Machine | None = None,
) -> CompiledReplay:
    """Replay ``timeline`` (in order) from ``initial_states`` in the pass; ``machine`` is the
    compiled one unless given (the interpreted loops when numba is not installed)."""
    return run_pass(build_arrays(initial_states, timeline), machine)


def run_pass(arrays: TimelineArrays, machine: Machine | None = None) -> CompiledReplay:
    """The pass over arrays built by ``build_arrays`` (which it changes: they hold the states)."""
    machine = machine or compiled() or INTERPRETED
    participants = int(arrays.events[5][-1])
    out_int = np.zeros((participants, loop.INT_COLUMNS), dtype=np.int64)
    out_float = np.zeros((participants, loop.FLOAT_COLUMNS))
    result = CompiledReplay(arrays, out_int, out_float)
    signal = np.zeros(5, dtype=np.int64)
    position = 0
    kinds = arrays.events[0]
    while position < kinds.size:
        machine.timeline_loop(
            position, arrays.events, arrays.rules, arrays.tables, arrays.state(), out_int, out_float, signal
        )
        status, position = int(signal[0]), int(signal[1])
        if status == loop.NEEDS_TABLE:
            rule_set = arrays.rule_sets[int(signal[2])]
            rule_set.coefficient.table(signal[3:4].copy(), signal[4:5].copy())
        elif status == loop.GROW:
            arrays.pool.grow(int(signal[2]))
        elif status == loop.FALLBACK:
            t = int(arrays.events[1][position])
            result.reasons[t] = int(signal[2])
            _by_engine(arrays, result, t, int(arrays.events[2][position]))
            position += 1
    return result


def _by_engine(arrays: TimelineArrays, result: CompiledReplay, t: int, r: int) -> None:
    """Tournament ``t`` evaluated by the engine from the pass's states, its states written back."""
    tournament = arrays.tournaments[t]
    starts = arrays.events[5]
    numbers = arrays.events[10][int(starts[t]) : int(starts[t + 1])].tolist()
    inputs = {arrays.pids[p]: arrays.state_of(p) for p in numbers}
    evaluation = evaluate_tournament(tournament, inputs, arrays.rule_sets[r])
    result.by_engine[t] = evaluation
    for pid, state in evaluation.states.items():
        arrays.set_state(arrays.number[pid], state)
