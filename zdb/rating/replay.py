"""Chronological replay of a time line (spec §2), full and incremental.

``replay`` evaluates every event in order from the initial states. ``replay_incremental``
starts from the stored results of an earlier replay and a set of changes (insertions,
corrections, withdrawals), re-evaluates only events whose participants' input states changed,
and stops as soon as no player's state differs from the stored one any more. Its result equals
the full replay of the changed time line; the property tests hold it to that.

Both apply events through ``apply_event``, the one place where an event meets states.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import deque
from collections.abc import Callable, Iterable, Iterator, KeysView, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from functools import cached_property
from itertools import repeat
from operator import attrgetter
from typing import Protocol

from zdb.rating.entries import participant_ids
from zdb.rating.kernel import compiled
from zdb.rating.model import PlayerId, PlayerState, ReportRow, Tournament, TournamentEvaluation, frozen_map
from zdb.rating.rulesets import Conversion, rule_set_for
from zdb.rating.timeline import Event, OrderKey, StartRating, event_date, event_name, order_key
from zdb.rating.tournament import evaluate_tournament, evaluate_tournaments

__all__ = [
    "INCREMENTAL_WINDOW",
    "HistoryEntry",
    "IncrementalResult",
    "ReplayResult",
    "Step",
    "StoredStep",
    "StoredTimeline",
    "apply_event",
    "apply_incremental",
    "replay",
    "replay_incremental",
    "replay_steps",
]

StateLookup = Callable[[PlayerId], PlayerState]
#: the order key's phase of a conversion (``timeline.order_key``)
_CONVERSION_PHASE = 2


@dataclass(frozen=True, slots=True)
class Step:
    """One event applied: its participants' states before and after, and the evaluation of a
    tournament. A conversion's participants are the players who had a DWZ at that moment.

    ``partial`` marks a conversion re-applied to some players only (incremental replay): it
    updates the stored step for exactly those players and leaves the others as they were.
    """

    key: OrderKey
    event: Event
    inputs: Mapping[PlayerId, PlayerState]
    outputs: Mapping[PlayerId, PlayerState]
    evaluation: TournamentEvaluation | None = None
    partial: frozenset[PlayerId] | None = None


class StoredStep(Protocol):
    """What the incremental replay reads of a stored step (a ``Step`` or a database row set).
    Its ``inputs`` and ``outputs`` hold every participant of its event (for a conversion:
    everyone it converted)."""

    @property
    def key(self) -> OrderKey: ...
    @property
    def event(self) -> Event: ...
    @property
    def inputs(self) -> Mapping[PlayerId, PlayerState]: ...
    @property
    def outputs(self) -> Mapping[PlayerId, PlayerState]: ...


def _converted(conversion: Conversion, states: Mapping[PlayerId, PlayerState]) -> dict[PlayerId, PlayerState]:
    """Every state converted (spec §8); each distinct rating is converted once (exactly, with
    fractions), however many players hold it."""
    ratings: dict[int, int] = {}
    converted = {}
    for pid, state in states.items():
        assert state.rating is not None
        rating = ratings.get(state.rating)
        if rating is None:
            rating = ratings[state.rating] = conversion.convert(state.rating)
        converted[pid] = PlayerState(rating, state.index + conversion.index_increment, state.leftover)
    return converted


def apply_event(event: Event, inputs: Mapping[PlayerId, PlayerState]) -> Step:
    """Apply one event to its participants' states. For a conversion, ``inputs`` may hold any
    players: those with a DWZ are converted (spec §8), the others are not participants."""
    if isinstance(event, Tournament):
        return _tournament_step(event, evaluate_tournament(event, inputs))
    key = order_key(event)
    if isinstance(event, StartRating):
        before = inputs.get(event.pid, _EMPTY)
        after = PlayerState(rating=event.rating, index=event.index)
        return Step(key, event, frozen_map({event.pid: before}), frozen_map({event.pid: after}))
    converted = {pid: state for pid, state in inputs.items() if state.rating is not None}
    return Step(key, event, frozen_map(converted), frozen_map(_converted(event, converted)))


_EMPTY = PlayerState()


def _tournament_step(tournament: Tournament, evaluation: TournamentEvaluation) -> Step:
    return Step(order_key(tournament), tournament, evaluation.inputs, evaluation.states, evaluation)


def _evaluated_together(tournaments: Sequence[Tournament], states: Mapping[PlayerId, PlayerState]) -> list[Step]:
    """The steps of tournaments that share no player, in their order, evaluated in batches per
    rule set from ``states`` (``evaluate_tournaments``: each exactly as alone), with the
    compiled kernel unless it is switched off or not installed (``kernel``)."""
    by_rules: dict[date, list[int]] = {}
    for position, tournament in enumerate(tournaments):
        by_rules.setdefault(rule_set_for(tournament.end_date).valid_from, []).append(position)
    steps: dict[int, Step] = {}
    for positions in by_rules.values():
        batch = [tournaments[position] for position in positions]
        evaluations = evaluate_tournaments(batch, states, rule_set_for(batch[0].end_date), compiled())
        for position, tournament, evaluation in zip(positions, batch, evaluations, strict=True):
            steps[position] = _tournament_step(tournament, evaluation)
    return [steps[position] for position in range(len(tournaments))]


def _participants(event: Tournament | StartRating) -> Iterator[PlayerId]:
    """A conversion has no fixed participants: it touches whoever has a DWZ at its moment."""
    if isinstance(event, Tournament):
        return iter(participant_ids(event))
    return iter((event.pid,))


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One line of a player's rating history (vectors' replay ``history``)."""

    event: int | str
    date: date
    acronym: str | None
    old: tuple[int | None, int]
    new: tuple[int | None, int]
    evaluated: bool | None  # tournaments only: whether his state was written


@dataclass(frozen=True)
class ReplayResult:
    """A replayed time line: evaluation order, final states, histories, reports, steps.

    ``history`` is derived from the steps when first asked for: a database that stores the
    steps never needs it.
    """

    order: tuple[int | str, ...]
    final_states: Mapping[PlayerId, PlayerState]
    reports: Mapping[int, tuple[ReportRow, ...]]
    steps: tuple[Step, ...]

    @classmethod
    def from_steps(cls, initial_states: Mapping[PlayerId, PlayerState], steps: Sequence[Step]) -> ReplayResult:
        final = dict(initial_states)
        reports: dict[int, tuple[ReportRow, ...]] = {}
        for step in steps:
            final.update(step.outputs)
            if step.evaluation is not None:
                assert isinstance(step.event, Tournament)
                reports[step.event.id] = step.evaluation.rows
        return cls(
            order=tuple(event_name(step.event) for step in steps),
            final_states=frozen_map(final),
            reports=reports,
            steps=tuple(steps),
        )

    @cached_property
    def history(self) -> Mapping[PlayerId, tuple[HistoryEntry, ...]]:
        """Every player's history lines, in time-line order."""
        history: dict[PlayerId, list[HistoryEntry]] = {}
        for step in self.steps:
            name, when = event_name(step.event), event_date(step.event)
            if step.evaluation is not None:
                assert isinstance(step.event, Tournament)
                for row in step.evaluation.rows:
                    old, new = step.inputs[row.pid], step.outputs[row.pid]
                    history.setdefault(row.pid, []).append(
                        HistoryEntry(
                            name, when, step.event.acronym, (old.rating, old.index), (new.rating, new.index), row.stored
                        )
                    )
            else:
                for pid, old in step.inputs.items():
                    new = step.outputs[pid]
                    history.setdefault(pid, []).append(
                        HistoryEntry(name, when, None, (old.rating, old.index), (new.rating, new.index), None)
                    )
        return {pid: tuple(entries) for pid, entries in history.items()}


def replay_steps(initial_states: Mapping[PlayerId, PlayerState], timeline: Iterable[Event]) -> Iterator[Step]:
    """Evaluate a time line (already in order, see ``build_timeline``) from scratch, one step
    at a time and in order, for callers that store steps as they come.

    Runs of up to ``_LOOKAHEAD`` consecutive tournaments are evaluated in batches of
    tournaments whose inputs are all known (``_replay_run``); every other event is applied
    where it stands.
    """
    states = dict(initial_states)
    run: list[Tournament] = []
    for event in timeline:
        if isinstance(event, Tournament):
            run.append(event)
            if len(run) == _LOOKAHEAD:
                yield from _replay_run(run, states)
                run = []
            continue
        yield from _replay_run(run, states)
        run = []
        inputs: Mapping[PlayerId, PlayerState] = (
            states if isinstance(event, Conversion) else {event.pid: states.get(event.pid, _EMPTY)}
        )
        step = apply_event(event, inputs)
        states.update(step.outputs)
        yield step
    yield from _replay_run(run, states)


#: tournaments of a run looked at together; bounds the memory of a replay that streams
_LOOKAHEAD = 1024


def _replay_run(run: Sequence[Tournament], states: dict[PlayerId, PlayerState]) -> list[Step]:
    """Evaluate consecutive tournaments and update ``states``; the steps in the run's order.

    A tournament reads only its participants' states, so it can be evaluated as soon as each of
    them has played every earlier tournament: its *level* is one above the highest level of
    their earlier tournaments in the run. Tournaments of one level share no player and are
    evaluated together, each exactly as alone.
    """
    last: dict[PlayerId, int] = {}
    levels: dict[int, list[int]] = {}
    for position, tournament in enumerate(run):
        pids = participant_ids(tournament)
        level = 1 + max(map(last.get, pids, repeat(-1)), default=-1)
        last.update(zip(pids, repeat(level)))
        levels.setdefault(level, []).append(position)
    steps: dict[int, Step] = {}
    for level in sorted(levels):
        positions = levels[level]
        # The level shares no player: all of it reads ``states`` before any of it writes.
        for position, step in zip(positions, _evaluated_together([run[p] for p in positions], states), strict=True):
            steps[position] = step
            states.update(step.outputs)
    return [steps[position] for position in range(len(run))]


def replay(initial_states: Mapping[PlayerId, PlayerState], timeline: Iterable[Event]) -> ReplayResult:
    """Evaluate a time line (already in order, see ``build_timeline``) from scratch."""
    return ReplayResult.from_steps(initial_states, list(replay_steps(initial_states, timeline)))


class StoredTimeline:
    """The stored results of a replay, as the incremental replay reads them: the steps from a
    position on, and any player's stored state just before a position."""

    def __init__(self, initial_states: Mapping[PlayerId, PlayerState], steps: Sequence[Step]) -> None:
        self._initial = initial_states
        self._steps = steps
        self._keys = [step.key for step in steps]
        self._by_player: dict[PlayerId, tuple[list[OrderKey], list[PlayerState]]] = {}
        for step in steps:
            for pid, state in step.outputs.items():
                keys, states = self._by_player.setdefault(pid, ([], []))
                keys.append(step.key)
                states.append(state)

    def steps_from(self, key: OrderKey) -> Iterator[Step]:
        return iter(self._steps[bisect_left(self._keys, key) :])

    def state_before(self, pid: PlayerId, key: OrderKey) -> PlayerState:
        entry = self._by_player.get(pid)
        if entry is not None:
            position = bisect_left(entry[0], key)
            if position:
                return entry[1][position - 1]
        return self._initial.get(pid, _EMPTY)


@dataclass(frozen=True, slots=True)
class IncrementalResult:
    """What changes in the stored results: new or re-evaluated steps (in order), keys of stored
    steps that left the time line, players whose final state changed, and how many
    tournaments were evaluated."""

    steps: tuple[Step, ...]
    removed: tuple[OrderKey, ...]
    final_states: Mapping[PlayerId, PlayerState]
    evaluated: int


_STORED = object()  # "the stored step's own event": read only if the step is re-evaluated


def _merged(
    stored: Iterable[StoredStep], changes: Mapping[OrderKey, Event | None]
) -> Iterator[tuple[OrderKey, StoredStep | None, Event | object | None, bool]]:
    """Walk stored steps and changes together in key order: (key, the stored step there or
    None, the event now there: a changed one, None where one left, or ``_STORED`` for the
    stored step's own; whether it changed). A stored step's event is not touched here: a
    database loads it only when it must be evaluated again."""
    pending = sorted(changes)
    at = 0
    for step in stored:
        while at < len(pending) and pending[at] < step.key:
            yield pending[at], None, changes[pending[at]], True
            at += 1
        if at < len(pending) and pending[at] == step.key:
            yield step.key, step, changes[step.key], True
            at += 1
        else:
            yield step.key, step, _STORED, False
    for key in pending[at:]:
        yield key, None, changes[key], True


def replay_incremental(
    stored: Iterable[StoredStep],
    changes: Mapping[OrderKey, Event | None],
    state_before: Callable[[PlayerId, OrderKey], PlayerState],
    watch: Callable[[KeysView[PlayerId]], None] | None = None,
) -> IncrementalResult:
    """Re-evaluate a stored time line after ``changes`` (order key -> new event, or ``None``
    where an event left the time line: withdrawn, or moved by a correction).

    ``stored`` yields the stored steps in order from the first changed key on; it is read
    lazily, no further than ``INCREMENTAL_WINDOW`` steps beyond what is needed.
    ``state_before(pid, key)`` answers a player's stored state just before ``key``. An event is
    re-evaluated only if it changed or a participant's input state differs from the stored
    one; the walk stops after the last change as soon as no player's state differs from the
    stored one. Conversions are part of every stored time line; a change may not add or remove
    one.

    Positions are taken a window at a time (``_Walk``): tournaments of a window that must be
    evaluated and whose inputs are known are evaluated together, each exactly as alone.

    ``watch``, if given, is called once, before the walk, with a live read-only view of the
    players whose state differs from the stored one after the last position of theirs the
    walk has taken: a caller that reads stored events ahead of the walk can read just those it
    is likely to re-evaluate. Every stored event the walk applies again has a participant in
    the view when it is asked for.
    """
    if not changes:
        return IncrementalResult((), (), frozen_map({}), 0)
    last_change = max(changes)
    walk = _Walk(state_before)
    if watch is not None:
        watch(walk.dirty.keys())
    window: list[_Position] = []
    for key, old, new, changed in _merged(stored, changes):
        if key[1] == _CONVERSION_PHASE:
            if changed:
                raise ValueError(f"a change may not add or remove the conversion at {key}")
            # A conversion touches everyone who has a DWZ: every earlier position first.
            walk.take(window)
            window = []
            # A change never sits on a conversion's key (raised above).
            if key > last_change and not walk.dirty:
                break
            if walk.dirty:
                assert old is not None and isinstance(old.event, Conversion)
                walk.steps.append(_reconvert(old.event, old, walk.dirty, state_before))
            continue
        window.append(_Position(key, old, new, changed))
        if len(window) == INCREMENTAL_WINDOW:
            walk.take(window)
            window = []
            if key >= last_change and not walk.dirty:
                break  # the stored results from here on stand
    walk.take(window)  # the rest (empty after a break)
    return IncrementalResult(
        tuple(sorted(walk.steps, key=_KEY)), tuple(sorted(walk.removed)), frozen_map(walk.dirty), walk.evaluated
    )


#: positions of the incremental walk taken together (``_Walk.take``); the walk holds at most
#: this many stored steps, and reads one more before it takes them
INCREMENTAL_WINDOW = 128
_KEY = attrgetter("key")


@dataclass  # no slots: the players are cached on the instance
class _Position:
    """A position of the incremental walk (``_merged``): the stored step there, the event now
    there (``_STORED``: the stored step's own), and whether it changed."""

    key: OrderKey
    old: StoredStep | None
    new: Event | object | None
    changed: bool
    waiting: int = 0  # earlier positions of the window sharing a player, not yet taken (per player)

    @cached_property
    def stored_players(self) -> frozenset[PlayerId]:
        return frozenset(self.old.inputs) if self.old is not None else frozenset()

    @cached_property
    def players(self) -> frozenset[PlayerId]:
        """Everyone whose state this position may change: the stored step's participants
        (they are the stored event's own) and the new event's."""
        if self.new is _STORED or self.new is None:
            return self.stored_players
        assert isinstance(self.new, (Tournament, StartRating))
        return self.stored_players | frozenset(_participants(self.new))


class _Walk:
    """The incremental replay's state: the steps evaluated, the keys removed, and ``dirty``.

    Invariant: ``dirty`` holds exactly the players whose state after the last position of
    theirs taken so far differs from the stored state there, with the new state. Within a
    window, a position is taken only after every earlier position that shares a player with
    it: its participants' input states are then known.
    """

    def __init__(self, state_before: Callable[[PlayerId, OrderKey], PlayerState]) -> None:
        self.state_before = state_before
        self.dirty: dict[PlayerId, PlayerState] = {}
        self.steps: list[Step] = []
        self.removed: list[OrderKey] = []
        self.evaluated = 0

    def take(self, window: Sequence[_Position]) -> None:
        """Take every position of the window, in rounds. A position is decided once every
        earlier position of the window that shares a player with it has been taken (its inputs
        are then known): the stored result stands (nobody's state changes; the positions
        after it may be decided at once), or it must be applied again. Each round applies
        together every position decided so (they share no player)."""
        # Each player's positions in order; a position waits for the ones before it in each.
        queues: dict[PlayerId, deque[_Position]] = {}
        for position in window:
            for pid in position.players:
                queue = queues.get(pid)
                if queue is None:
                    queues[pid] = deque((position,))
                else:
                    queue.append(position)
                    position.waiting += 1
        decidable = [position for position in window if not position.waiting]
        dirty = self.dirty
        while decidable:
            applied: list[_Position] = []
            while decidable:
                position = decidable.pop()
                if position.changed or not dirty.keys().isdisjoint(position.stored_players):
                    applied.append(position)
                else:  # same event, same inputs: the stored result stands
                    _taken(position, queues, decidable)
            self._apply(applied)
            for position in applied:
                _taken(position, queues, decidable)

    def _apply(self, ready: Sequence[_Position]) -> None:
        """Apply positions that share no player and whose inputs are known."""
        dirty = self.dirty
        inputs: dict[PlayerId, PlayerState] = {}  # every ready position's, for the tournaments
        stored_inputs: dict[PlayerId, PlayerState] = {}
        tournaments: list[tuple[_Position, Tournament]] = []
        outcomes: list[tuple[_Position, Mapping[PlayerId, PlayerState]]] = []
        for position in ready:
            old_inputs = position.old.inputs if position.old is not None else {}
            if position.new is _STORED:
                assert position.old is not None
                event: Event | None = position.old.event
                # A stored step's participants are its event's: its players are its inputs.
                assert isinstance(event, (Tournament, StartRating))
                assert position.players.issuperset(_participants(event))
            else:
                assert position.new is None or isinstance(position.new, (Tournament, StartRating))
                event = position.new
            for pid in position.players:
                stored_inputs[pid] = old_inputs[pid] if pid in old_inputs else self.state_before(pid, position.key)
                inputs[pid] = dirty.get(pid, stored_inputs[pid])
            if event is None:
                self.removed.append(position.key)
                outcomes.append((position, {}))
            elif isinstance(event, Tournament):
                tournaments.append((position, event))
            else:
                step = apply_event(event, inputs)
                self.steps.append(step)
                outcomes.append((position, step.outputs))
        evaluated = _evaluated_together([tournament for _, tournament in tournaments], inputs)
        for (position, _), step in zip(tournaments, evaluated, strict=True):
            self.steps.append(step)
            self.evaluated += 1
            outcomes.append((position, step.outputs))
        for position, outputs in outcomes:
            old_outputs = position.old.outputs if position.old is not None else {}
            for pid in position.players:
                now = outputs.get(pid, inputs[pid])
                if now == old_outputs.get(pid, stored_inputs[pid]):
                    dirty.pop(pid, None)
                else:
                    dirty[pid] = now


def _taken(position: _Position, queues: dict[PlayerId, deque[_Position]], decidable: list[_Position]) -> None:
    """``position`` is taken: the next position of each of its players waits for one fewer."""
    for pid in position.players:
        queue = queues[pid]
        queue.popleft()
        if queue:
            following = queue[0]
            following.waiting -= 1
            if not following.waiting:
                decidable.append(following)


def _reconvert(
    event: Conversion,
    old: StoredStep | None,
    dirty: dict[PlayerId, PlayerState],
    state_before: Callable[[PlayerId, OrderKey], PlayerState],
) -> Step:
    """A conversion on the walk: its stored result stands for every player whose state is
    unchanged; the players in ``dirty`` are converted anew (a partial step)."""
    touched = frozenset(dirty)
    step = apply_event(event, {pid: dirty[pid] for pid in touched})
    old_outputs = old.outputs if old is not None else {}
    for pid in touched:
        now = step.outputs.get(pid, dirty[pid])
        stored_now = old_outputs[pid] if pid in old_outputs else state_before(pid, step.key)
        if now == stored_now:
            del dirty[pid]
        else:
            dirty[pid] = now
    return Step(step.key, step.event, step.inputs, step.outputs, None, touched)


def apply_incremental(
    initial_states: Mapping[PlayerId, PlayerState], stored: Sequence[Step], result: IncrementalResult
) -> ReplayResult:
    """The stored steps with an incremental result applied: what a database holds after
    writing it. Used to prove that the incremental replay equals the full one."""
    by_key = {step.key: step for step in stored}
    for key in result.removed:
        by_key.pop(key, None)
    for step in result.steps:
        old = by_key.get(step.key)
        if step.partial is not None and old is not None:
            inputs = {pid: s for pid, s in old.inputs.items() if pid not in step.partial}
            outputs = {pid: s for pid, s in old.outputs.items() if pid not in step.partial}
            inputs.update(step.inputs)
            outputs.update(step.outputs)
            by_key[step.key] = Step(step.key, step.event, frozen_map(inputs), frozen_map(outputs))
        else:
            by_key[step.key] = step
    return ReplayResult.from_steps(initial_states, [by_key[key] for key in sorted(by_key)])
