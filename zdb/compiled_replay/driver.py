"""The time line replayed in one compiled pass, with the engine where the pass must not decide.

``compiled_replay`` builds the arrays (``arrays``), runs the pass (``loop``) and steps in only
where it stops: a full leftover pool (grown), or a tournament the engine must
decide exactly (a value within reach of a tie, spec §5: evaluated by
``zdb.rating.evaluate_tournament`` from the states as the pass holds them, its states written
back, the pass resumed after it). The engine's own replay (``zdb.rating.replay``) is the
reference: the tests hold every figure of the pass to it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from types import MappingProxyType

import numpy as np
from numpy.typing import NDArray

from zdb.compiled_replay import loop
from zdb.compiled_replay.arrays import TimelineArrays, build_arrays, new_arrays
from zdb.compiled_replay.machine import INTERPRETED, Machine, compiled
from zdb.rating import (
    CONVERSIONS,
    Conversion,
    Game,
    OrderKey,
    Participant,
    PlayerId,
    PlayerState,
    ReportRow,
    ResultCode,
    StartRating,
    Step,
    Tournament,
    TournamentEvaluation,
    apply_event,
    evaluate_tournament,
    order_key,
    replay_steps,
)
from zdb.rating.columns import STAGE_CODES, ReportColumns
from zdb.rating.kernel import compiled as kernel_compiled

__all__ = [
    "CHUNK",
    "CompiledReplay",
    "ConvertedStates",
    "compiled_replay",
    "compiled_steps",
    "run_pass",
    "streamed_steps",
    "warm_up",
]


class CompiledReplay:
    """A replayed time line: every tournament's report and every player's final state."""

    def __init__(self, arrays: TimelineArrays, out_int: np.ndarray, out_float: np.ndarray) -> None:
        self.arrays = arrays
        self.out_int = out_int
        self.out_float = out_float
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
            c = self.out_int[q].tolist()
            w, we, k = self.out_float[q].tolist()

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
        machine.timeline_loop(position, arrays.events, arrays.rules, arrays.state(), out_int, out_float, signal)
        status, position = int(signal[0]), int(signal[1])
        if status == loop.GROW:
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


#: tournaments of one pass of the streamed replay: bounds the memory of its report columns
CHUNK = 1024
#: leftover slots beyond four times those in use that make the pool compacted
_COMPACT_ABOVE = 65536


def compiled_steps(
    initial_states: Mapping[PlayerId, PlayerState],
    timeline: Iterable[Tournament | Conversion | StartRating],
    machine: Machine | None = None,
    *,
    conversions_in_pass: bool = False,
    joins: Sequence[tuple[OrderKey, PlayerId, PlayerState]] = (),
) -> Iterator[Step]:
    """``zdb.rating.replay_steps`` with the tournaments evaluated in the compiled pass: the same
    steps, one at a time and in order, for callers that store steps as they come. Runs of up to
    ``CHUNK`` tournaments under one rule set go through the pass at once, their reports as one
    batch's columns; conversions and start ratings are applied by the engine (``apply_event``)
    to the states as the pass holds them, or, with ``conversions_in_pass``, a conversion by the
    pass (for a caller that reads a few of its players' states: they are made when read,
    ``ConvertedStates``). ``joins`` (in the order of their keys): players whose state is set
    just before the first event at or after a key (each without a rating in ``initial_states``
    and without an event before it). Without numba (``machine`` none and none compiled), the
    engine's own replay."""
    machine = machine or compiled()
    if machine is None:  # pragma: no cover - numba is a dependency; the engine's path is tested
        yield from replay_steps(initial_states, timeline)
        return
    arrays = new_arrays(initial_states)
    run: list[Tournament] = []
    run_rules = -1
    joined = 0
    for event in timeline:
        if joined < len(joins):
            key = order_key(event)
            while joined < len(joins) and joins[joined][0] <= key:
                _, pid, state = joins[joined]
                # No event of his came before: set now, his state is the same when his run is evaluated.
                arrays.set_state(arrays.number[pid], state)
                joined += 1
        if isinstance(event, Tournament):
            rules = arrays.rule_of(event.end_date)
            if run and (rules != run_rules or len(run) == CHUNK):
                yield from _run_steps(arrays, run, machine)
                run = []
            run.append(event)
            run_rules = rules
            continue
        yield from _run_steps(arrays, run, machine)
        run = []
        if isinstance(event, StartRating):
            p = arrays.player(event.pid)
            step = apply_event(event, {event.pid: arrays.state_of(p)})
        elif conversions_in_pass:
            yield _converted_in_pass(arrays, event, machine)
            continue
        else:
            rated = np.flatnonzero(arrays.has_rating).tolist()
            step = apply_event(event, {arrays.pids[p]: arrays.state_of(p) for p in rated})
        for pid, state in step.outputs.items():
            arrays.set_state(arrays.number[pid], state)
        yield step
    yield from _run_steps(arrays, run, machine)


class ConvertedStates(Mapping[PlayerId, PlayerState]):
    """The states of a conversion's players (those with a rating before it) as the pass held
    them before or after it, each made when read: a conversion has every rated player (85,000
    at scale 1), and an incremental run reads a few of them."""

    __slots__ = ("_index", "_leftover", "_number", "_pids", "_rated", "_rating")

    def __init__(
        self, arrays: TimelineArrays, rated: NDArray[np.bool_], rating: NDArray[np.int64], index: NDArray[np.int64]
    ) -> None:
        self._pids, self._number = arrays.pids, arrays.number
        self._rated, self._rating, self._index = rated, rating, index
        # A conversion leaves the leftover games as they are; the pool's slots may be compacted
        # later, so the few players' games are read now.
        carrying = np.flatnonzero(rated & (arrays.lo_len > 0)).tolist()
        self._leftover = {p: arrays.leftover(int(arrays.lo_start[p]), int(arrays.lo_len[p])) for p in carrying}

    def _at(self, pid: object) -> int | None:
        p = self._number.get(pid)  # type: ignore[call-overload]
        return p if p is not None and p < self._rated.size and self._rated[p] else None

    def __getitem__(self, pid: PlayerId) -> PlayerState:
        p = self._at(pid)
        if p is None:
            raise KeyError(pid)
        return PlayerState(int(self._rating[p]), int(self._index[p]), self._leftover.get(p, ()))

    def __contains__(self, pid: object) -> bool:
        return self._at(pid) is not None

    def __iter__(self) -> Iterator[PlayerId]:
        pids = self._pids
        return (pids[p] for p in np.flatnonzero(self._rated).tolist())

    def __len__(self) -> int:
        return int(self._rated.sum())


def _converted_in_pass(arrays: TimelineArrays, conversion: Conversion, machine: Machine) -> Step:
    """A conversion applied by the pass to the states it holds, as a step."""
    rated = arrays.has_rating.copy()
    before = ConvertedStates(arrays, rated, arrays.rating.copy(), arrays.index.copy())
    arrays.load([conversion])
    run_pass(arrays, machine)
    after = ConvertedStates(arrays, rated, arrays.rating.copy(), arrays.index.copy())
    return Step(order_key(conversion), conversion, before, after)


def _run_steps(arrays: TimelineArrays, run: list[Tournament], machine: Machine) -> list[Step]:
    """The steps of consecutive tournaments under one rule set, evaluated in one pass."""
    if not run:
        return []
    arrays.load(run)
    result = run_pass(arrays, machine)
    columns = _report_columns(arrays, result)
    steps = []
    for t, tournament in enumerate(run):
        evaluation = result.by_engine.get(t)
        if evaluation is None:
            a, b = columns.starts[t], columns.starts[t + 1]
            evaluation = TournamentEvaluation(
                columns.rule_set,
                states=MappingProxyType(dict(zip(columns.pids[a:b], columns.after[a:b], strict=True))),
                inputs=MappingProxyType(dict(zip(columns.pids[a:b], columns.before[a:b], strict=True))),
                columns=columns,
                span=(a, b),
            )
        steps.append(Step(order_key(tournament), tournament, evaluation.inputs, evaluation.states, evaluation))
    if arrays.pool.used[0] > 4 * int(arrays.lo_len.sum()) + _COMPACT_ABOVE:
        arrays.compact()  # the steps hold their states: old slots are not read again
    return steps


#: the columns of a state before and after a tournament: rating, has one, index, leftover slots
_BEFORE_STATE = (loop.O_BEFORE, loop.O_HAS_BEFORE, loop.O_BEFORE_INDEX, loop.O_BEFORE_LO_START, loop.O_BEFORE_LO_LEN)
_AFTER_STATE = (loop.O_AFTER, loop.O_HAS_AFTER, loop.O_AFTER_INDEX, loop.O_AFTER_LO_START, loop.O_AFTER_LO_LEN)


def _report_columns(arrays: TimelineArrays, result: CompiledReplay) -> ReportColumns:
    """The pass's report rows as one batch's columns (``zdb.rating.columns``); rows of the
    tournaments the engine evaluated are there too but belong to no step."""
    c, f = result.out_int, result.out_float
    events = arrays.events
    starts = events[5]
    tournaments = arrays.tournaments
    pids = list(map(arrays.pids.__getitem__, events[10].tolist()))

    def states(rating: int, has: int, index: int, start: int, length: int) -> list[PlayerState]:
        leftover = arrays.leftover
        return [
            PlayerState(r if h else None, i, leftover(s, n) if n else ())
            for r, h, i, s, n in zip(
                c[:, rating].tolist(),
                c[:, has].tolist(),
                c[:, index].tolist(),
                c[:, start].tolist(),
                c[:, length].tolist(),
                strict=True,
            )
        ]

    def flag(column: int) -> NDArray[np.bool_]:
        return c[:, column].astype(bool)

    rule_set = arrays.rule_sets[int(events[2][0])] if events[2].size else arrays.rule_sets[0]
    return ReportColumns(
        rule_set=rule_set.name,
        ids=tuple(t.id for t in tournaments),
        end_dates=tuple(t.end_date for t in tournaments),
        acronyms=tuple(t.acronym for t in tournaments),
        starts=tuple(starts.tolist()),
        home=np.repeat(np.arange(len(tournaments)), np.diff(starts)),
        pids=pids,
        before=states(
            loop.O_BEFORE, loop.O_HAS_BEFORE, loop.O_BEFORE_INDEX, loop.O_BEFORE_LO_START, loop.O_BEFORE_LO_LEN
        ),
        after=states(*_AFTER_STATE),
        before_rating=c[:, loop.O_BEFORE],
        has_before_rating=flag(loop.O_HAS_BEFORE),
        before_index=c[:, loop.O_BEFORE_INDEX],
        after_rating=c[:, loop.O_AFTER],
        has_after_rating=flag(loop.O_HAS_AFTER),
        after_index=c[:, loop.O_AFTER_INDEX],
        member=flag(loop.O_MEMBER),
        stage=c[:, loop.O_STAGE],
        fide_start=flag(loop.O_FIDE_START),
        r0=c[:, loop.O_R0],
        has_r0=flag(loop.O_HAS_R0),
        i0=c[:, loop.O_I0],
        has_i0=flag(loop.O_HAS_I0),
        w=f[:, loop.F_W],
        n=c[:, loop.O_N],
        unrated_games=c[:, loop.O_UNRATED],
        we=f[:, loop.F_WE],
        has_we=flag(loop.O_HAS_WE),
        e=c[:, loop.O_E],
        has_e=flag(loop.O_HAS_E),
        k=f[:, loop.F_K],
        has_k=flag(loop.O_HAS_K),
        rh=c[:, loop.O_RH],
        has_rh=flag(loop.O_HAS_RH),
        sonder=flag(loop.O_SONDER),
        rn=c[:, loop.O_RN],
        has_rn=flag(loop.O_HAS_RN),
        i_new=c[:, loop.O_I_NEW],
        stored=flag(loop.O_STORED),
        leftover_used=c[:, loop.O_LO_USED],
        leftover_stored=c[:, loop.O_LO_STORED],
    )


def streamed_steps(
    initial_states: Mapping[PlayerId, PlayerState], timeline: Iterable[Tournament | Conversion | StartRating]
) -> Iterator[Step]:
    """The steps of a from-scratch replay as a recalculation stores them: from the compiled
    pass when the engine's compiled kernel is in use (numba installed and not switched off,
    ``zdb.rating.kernel.use_compiled``), else from the engine's replay. Both give the same steps."""
    if kernel_compiled() is None:
        return replay_steps(initial_states, timeline)
    return compiled_steps(initial_states, timeline)


def warm_up() -> None:
    """Compile the pass now (or load it from the cache), not in the first recalculation: a
    tournament of two players and a conversion go through it."""
    players = (Participant("warm-1", 1990), Participant("warm-2", None, fide_rating=2450))
    games = (Game("warm-1", "warm-2", ResultCode.DRAW),)
    tournament = Tournament(1, "WARM", CONVERSIONS[0].date, players, games)
    list(compiled_steps({"warm-1": PlayerState(1500, 3)}, [tournament, *CONVERSIONS]))
