"""The compiled pass gives the engine's figures to the last digit: every report row and every
final state of the engine's own replay (the reference), on every vector of the specification,
on random time lines (in any order of players and games), on synthetic federations, with the
loops interpreted and compiled, and when it hands tournaments to the engine."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import VECTORS
from tests.rating.strategies import time_lines
from zdb.compiled_replay import arrays as arrays_module
from zdb.compiled_replay import driver as driver_module
from zdb.compiled_replay import loop
from zdb.compiled_replay.driver import CompiledReplay, compiled_replay, compiled_steps, streamed_steps, warm_up
from zdb.compiled_replay.machine import INTERPRETED, Machine, compiled
from zdb.formats.rating_json import load_evaluation_request, load_replay_request
from zdb.rating import (
    PlayerState,
    Tournament,
    build_timeline,
    replay,
    replay_steps,
)
from zdb.rating.kernel import use_compiled
from zdb.synthetic import generate

EXAMPLES = settings(max_examples=60, derandomize=True, deadline=None)


def _compiled() -> Machine:
    machine = compiled()
    if machine is None:  # pragma: no cover - numba is a dependency
        pytest.skip("numba is not installed")
    return machine


@pytest.fixture(params=["interpreted", "compiled"])
def machine(request: pytest.FixtureRequest) -> Machine:
    return INTERPRETED if request.param == "interpreted" else _compiled()


def _assert_same(states: dict[Any, PlayerState], timeline: Sequence[Any], result: CompiledReplay) -> None:
    """Every report row and every final state of ``result`` equals the engine's replay."""
    reference = replay(states, timeline)
    assert len(result.tournaments) == len(reference.reports)
    for t, tournament in enumerate(result.tournaments):
        assert result.report(t) == reference.reports[tournament.id], tournament.id
        assert result.rule_set(t) == next(
            s.evaluation.rule_set for s in reference.steps if s.evaluation is not None and s.key[3] == tournament.id
        )
    assert result.final_states() == dict(reference.final_states)


def _vector_time_lines() -> list[tuple[str, dict[Any, PlayerState], tuple[Any, ...]]]:
    cases = []
    for case in [*VECTORS["single_player"], *VECTORS["tournaments"]]:
        tournament, states = load_evaluation_request({"tournament": case["tournament"], "states": case["states"]})
        cases.append((case["name"], dict(states), (tournament,)))
    for case in VECTORS["replays"]:
        states, events = load_replay_request({"initial_states": case["initial_states"], "events": case["events"]})
        cases.append((case["name"], dict(states), build_timeline(events)))
    return cases


def test_every_vector_gives_the_engines_figures(machine: Machine) -> None:
    cases = _vector_time_lines()
    assert len(cases) == len(VECTORS["single_player"]) + len(VECTORS["tournaments"]) + len(VECTORS["replays"])
    for name, states, timeline in cases:
        result = compiled_replay(states, timeline, machine)
        assert not result.by_engine, name  # no vector needs the engine's exact path
        _assert_same(states, timeline, result)


@pytest.mark.parametrize("case", [c for c in VECTORS["conversion"] if "old" in c], ids=lambda c: str(c["old"]))
def test_the_conversion_of_every_vector(case: dict[str, Any]) -> None:
    states = {"X": PlayerState(case["old"], 7)}
    (conversion,) = (e for e in build_timeline([]) if not isinstance(e, Tournament))
    for machine in (INTERPRETED, _compiled()):
        assert compiled_replay(states, [conversion], machine).final_states() == {"X": PlayerState(case["new"], 8)}


@EXAMPLES
@given(time_line=time_lines(max_tournaments=6), shuffle=st.randoms(use_true_random=False))
def test_random_time_lines_in_any_hidden_order(
    time_line: tuple[dict[str, PlayerState], list[Tournament]], shuffle: random.Random
) -> None:
    """Random time lines reach every rule (stages, leftover games, FIDE start values, guests,
    forfeits, both rule sets and the conversion); players and games are shuffled within each
    tournament, which changes nothing in the engine and must change nothing here."""
    states, events = time_line
    shuffled = []
    for event in events:
        players, games = list(event.players), list(event.games)
        shuffle.shuffle(players)
        shuffle.shuffle(games)
        shuffled.append(Tournament(event.id, event.acronym, event.end_date, tuple(players), tuple(games)))
    timeline = build_timeline(shuffled)
    for machine in (INTERPRETED, _compiled()):
        _assert_same(states, timeline, compiled_replay(states, timeline, machine))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_synthetic_federations(seed: int) -> None:
    """A few hundred tournaments over years of the synthetic federation, across the 2026 change."""
    federation = generate(seed, 0.004)
    timeline = build_timeline(federation.submissions)
    result = compiled_replay(federation.initial_states, timeline, _compiled())
    assert len(result.tournaments) > 50
    _assert_same(federation.initial_states, timeline, result)


def _all_by_engine(*arguments: Any) -> None:
    """A pass that hands every tournament to the engine and applies every other event itself."""
    position, events, *rest = arguments
    signal = rest[-1]
    if events[0][position] == loop.TOURNAMENT:
        signal[0], signal[1], signal[2] = loop.FALLBACK, position, loop.JOINT
        return
    loop.timeline_loop(position, (events[0][: position + 1], *events[1:]), *rest)


def test_tournaments_handed_to_the_engine_continue_the_pass() -> None:
    """The engine's states (leftover games too) are written back and read by the pass after."""
    federation = generate(4, 0.003)
    timeline = build_timeline(federation.submissions)
    result = compiled_replay(federation.initial_states, timeline, Machine(_all_by_engine))
    assert len(result.by_engine) == len(result.tournaments)
    assert set(result.reasons.values()) == {loop.JOINT}
    _assert_same(federation.initial_states, timeline, result)


def test_a_full_leftover_pool_grows(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(arrays_module, "POOL_CAPACITY", 1)
    federation = generate(5, 0.003)
    timeline = build_timeline(federation.submissions)
    result = compiled_replay(federation.initial_states, timeline, _compiled())
    assert result.arrays.pool.tid.size > 1
    _assert_same(federation.initial_states, timeline, result)


def test_without_numba_the_interpreted_loops_run(monkeypatch: pytest.MonkeyPatch) -> None:
    from zdb.compiled_replay import driver

    monkeypatch.setattr(driver, "compiled", lambda: None)
    federation = generate(6, 0.002)
    timeline = build_timeline(federation.submissions)
    _assert_same(federation.initial_states, timeline, compiled_replay(federation.initial_states, timeline))


def _steps_alike(states: dict[Any, PlayerState], timeline: Sequence[Any], machine: Machine) -> None:
    """The streamed pass yields the engine's steps: keys, events, inputs, outputs, reports."""
    expected = list(replay_steps(states, timeline))
    got = list(compiled_steps(states, timeline, machine))
    assert [s.key for s in got] == [s.key for s in expected]
    for mine, theirs in zip(got, expected, strict=True):
        assert mine == theirs, mine.key


def test_streamed_steps_of_every_vector(machine: Machine) -> None:
    for _, states, timeline in _vector_time_lines():
        _steps_alike(states, timeline, machine)


@EXAMPLES
@given(time_line=time_lines(max_tournaments=6))
def test_streamed_steps_of_random_time_lines(time_line: tuple[dict[str, PlayerState], list[Tournament]]) -> None:
    states, events = time_line
    _steps_alike(states, build_timeline(events), _compiled())


def test_streamed_steps_of_a_synthetic_federation_in_small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunks of 7 tournaments, the pool compacted after each: states carry from chunk to chunk."""
    monkeypatch.setattr(driver_module, "CHUNK", 7)
    monkeypatch.setattr(arrays_module, "POOL_CAPACITY", 1)
    compactions = []
    compact = arrays_module.TimelineArrays.compact

    def counted(self: arrays_module.TimelineArrays) -> None:
        compactions.append(int(self.pool.used[0]))
        compact(self)

    monkeypatch.setattr(arrays_module.TimelineArrays, "compact", counted)
    monkeypatch.setattr(driver_module, "_COMPACT_ABOVE", 0)
    federation = generate(8, 0.003)
    _steps_alike(federation.initial_states, build_timeline(federation.submissions), _compiled())
    assert compactions


def test_streamed_steps_written_as_batches_are_the_engines_columns() -> None:
    """The writer reads a batch's columns: the pass's hold the rows of its reports."""
    federation = generate(9, 0.002)
    timeline = build_timeline(federation.submissions)
    for step in compiled_steps(federation.initial_states, timeline, _compiled()):
        if step.evaluation is not None and step.evaluation.columns is not None:
            columns = step.evaluation.columns
            a, b = step.evaluation.span
            assert columns.rows(a, b) == step.evaluation.rows
            assert columns.after[a:b] == [step.outputs[pid] for pid in columns.pids[a:b]]


def test_a_recalculation_streams_from_the_pass_unless_the_kernel_is_switched_off() -> None:
    federation = generate(10, 0.002)
    timeline = build_timeline(federation.submissions)
    streamed = streamed_steps(federation.initial_states, timeline)
    assert streamed.gi_code is compiled_steps.__code__  # type: ignore[attr-defined]
    compiled_run = list(streamed)
    use_compiled(False)
    try:
        engine_run = streamed_steps(federation.initial_states, timeline)
        assert engine_run.gi_code is replay_steps.__code__  # type: ignore[attr-defined]
        assert list(engine_run) == compiled_run
    finally:
        use_compiled(True)
    assert any(s.evaluation is not None and s.evaluation.columns is not None for s in compiled_run)


def test_warming_up_compiles_the_pass_a_recalculation_calls() -> None:
    """After warming up, a recalculation's pass compiles nothing more."""
    warm_up()
    machine = _compiled()
    timeline_loop: Any = machine.timeline_loop
    warmed = list(timeline_loop.signatures)
    assert warmed
    federation = generate(11, 0.002)
    list(compiled_steps(federation.initial_states, build_timeline(federation.submissions), machine))
    assert list(timeline_loop.signatures) == warmed
