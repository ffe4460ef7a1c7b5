"""The compiled kernel gives the figures of the array path: the same doubles for the
expected-score sums, the same rounded performances, the same evaluations and replays, on every
vector of the specification and on random tournaments and time lines. Its loops run both
interpreted (``INTERPRETED``) and compiled, so each line is checked in both forms."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from datetime import date
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import VECTORS
from tests.rating.strategies import player_states, time_lines, tournaments
from tests.rating.test_lattice import EDGE_CASES
from zdb.formats.rating_json import load_evaluation_request, load_replay_request
from zdb.rating import (
    PlayerState,
    Tournament,
    build_timeline,
    evaluate_tournament,
    evaluate_tournaments,
    replay,
    rule_set_for,
)
from zdb.rating.expectation import expected_score, solve_rating
from zdb.rating.joint import JointEquation, solve_jointly
from zdb.rating.kernel import INTERPRETED, Kernel, compiled, load, use_compiled
from zdb.rating.lattice import TABLE_LIMIT, expected_sums, rounded_performances
from zdb.rating.loops import performance_search_loop
from zdb.rating.rounding import round_float

# Random cases of a few players each; the property tests of the array path draw thousands more.
EXAMPLES = settings(max_examples=100, derandomize=True, deadline=None)


def _compiled() -> Kernel:
    kernel = compiled()
    if kernel is None:  # pragma: no cover - numba is a dependency; the pure path is tested below
        pytest.skip("numba is not installed")
    return kernel


@pytest.fixture(params=["interpreted", "compiled"])
def kernel(request: pytest.FixtureRequest) -> Kernel:
    return INTERPRETED if request.param == "interpreted" else _compiled()


@pytest.fixture
def switched_off() -> Iterator[None]:
    use_compiled(False)
    try:
        yield
    finally:
        use_compiled(True)


def test_warming_up_compiles_what_a_batch_calls() -> None:
    """Compiled only: warming up is about compiling (the interpreted loops have nothing to warm).
    After it, every loop has its machine code, and evaluating batches compiles nothing more:
    the first batch of a run pays no compilation."""
    kernel = _compiled()
    loops = (kernel.sums_loop, kernel.search_loop, kernel.joint_loop)
    kernel.warm_up()
    warmed = [list(loop.signatures) for loop in loops]  # type: ignore[attr-defined]
    assert all(warmed)
    for _, tournament, states in _vector_tournaments():
        evaluate_tournaments([tournament], states, rule_set_for(tournament.end_date), kernel)
    assert [list(loop.signatures) for loop in loops] == warmed  # type: ignore[attr-defined]


def test_expected_sums_are_the_same_doubles(kernel: Kernel) -> None:
    rng = np.random.default_rng(7)
    size, entries = 50, 800
    own = rng.integers(0, 3000, size)
    opponents = rng.integers(0, 3000, entries)
    opponents[:5] = [-TABLE_LIMIT - 500, 2 * TABLE_LIMIT + 300, 0, 9000, -9000]  # beyond the table
    owner = rng.integers(0, size - 1, entries)  # the last player has no entry: 0.0
    sums = kernel.expected_sums(own, opponents, owner, size)
    assert sums.tolist() == expected_sums(own, opponents, owner, size).tolist()
    # known answers, game after game from 0.0 (spec §4)
    for p in (0, size - 1):
        by_hand = 0.0
        for e in np.flatnonzero(owner == p).tolist():
            by_hand += expected_score(float(own[p] - opponents[e]))
        assert sums[p] == by_hand


def _bulk(kernel: Kernel, cases: list[tuple[list[int], float]]) -> list[int]:
    owner = np.array([k for k, (opponents, _) in enumerate(cases) for _ in opponents], dtype=np.int64)
    ratings = np.array([r for opponents, _ in cases for r in opponents], dtype=np.int64)
    points = np.array([p for _, p in cases])
    counts = np.array([len(opponents) for opponents, _ in cases], dtype=np.int64)
    players = np.arange(len(cases), dtype=np.int64)[::-1].copy()  # any order of the players asked for
    found: list[int] = kernel.rounded_performances(owner, ratings, points, counts, players).tolist()
    assert found == rounded_performances(owner, ratings, points, counts, players).tolist()
    return found[::-1]


def test_performances_at_the_edges_equal_solving_and_rounding(kernel: Kernel) -> None:
    many = [1400 + 7 * k for k in range(70)]  # more games than the start's table holds
    cases = [*EDGE_CASES, (many, 41.5), ([1500, 1600, 1700, 1800, 1900], 2.5)]
    assert _bulk(kernel, cases) == [round_float(solve_rating([float(r) for r in o], p)) for o, p in cases]


@EXAMPLES
@given(
    st.lists(
        st.tuples(
            st.lists(st.integers(0, 3200), min_size=1, max_size=12), st.integers(1, 23).map(lambda h: h / 2)
        ).filter(lambda case: case[1] < len(case[0])),
        min_size=1,
        max_size=5,
    )
)
def test_performances_in_bulk_equal_solving_and_rounding(cases: list[tuple[list[int], float]]) -> None:
    for kernel in (INTERPRETED, _compiled()):
        assert _bulk(kernel, cases) == [round_float(solve_rating([float(r) for r in o], p)) for o, p in cases]


def test_a_player_without_rated_games_is_left_to_the_exact_path() -> None:
    owner = np.array([0, 0], dtype=np.int64)
    _, found = performance_search_loop(
        owner,
        np.array([1500, 1600]),
        np.array([1.0, 0.5]),
        np.array([2, 1]),
        np.array([1, 0]),
        np.zeros(2),
        np.zeros(2 * TABLE_LIMIT + 1),
        TABLE_LIMIT,
        80000.0,
        1e-7,
        8,
    )
    assert found.tolist() == [False, False]  # player 1 has no entry; the empty table finds no root


def _vector_tournaments() -> list[tuple[str, Tournament, dict[Any, PlayerState]]]:
    cases = []
    for case in [*VECTORS["single_player"], *VECTORS["tournaments"]]:
        tournament, states = load_evaluation_request({"tournament": case["tournament"], "states": case["states"]})
        cases.append((case["name"], tournament, dict(states)))
    return cases


def test_every_vector_tournament_is_evaluated_alike(kernel: Kernel) -> None:
    for name, tournament, states in _vector_tournaments():
        rules = rule_set_for(tournament.end_date)
        assert evaluate_tournaments([tournament], states, rules, kernel) == [evaluate_tournament(tournament, states)], (
            name
        )


@EXAMPLES
@given(data=st.data())
def test_random_batches_are_evaluated_alike(data: st.DataObject) -> None:
    pools = (("A0", "A1", "A2", "A3", "A4", "A5"), ("B0", "B1", "B2", "B3", "B4"))
    end_date = data.draw(st.dates(min_value=date(2024, 1, 1), max_value=date(2028, 12, 31)))  # both rule sets
    batch = [data.draw(tournaments(tournament_id=k + 1, pool=pool, end_date=end_date)) for k, pool in enumerate(pools)]
    states = data.draw(player_states(pids=tuple(pid for pool in pools for pid in pool)))
    rules = rule_set_for(end_date)
    array_path = evaluate_tournaments(batch, states, rules)
    assert evaluate_tournaments(batch, states, rules, INTERPRETED) == array_path
    assert evaluate_tournaments(batch, states, rules, _compiled()) == array_path


def _replayed(states: dict[Any, PlayerState], events: list[Any]) -> tuple[Any, ...]:
    result = replay(states, build_timeline(events))
    return result.order, dict(result.final_states), dict(result.reports), result.history


@pytest.mark.usefixtures("switched_off")
def test_the_switch_turns_the_kernel_off() -> None:
    assert compiled() is None


def test_every_vector_replay_is_the_same_with_the_kernel_on_and_off() -> None:
    for case in VECTORS["replays"]:
        states, events = load_replay_request({"initial_states": case["initial_states"], "events": case["events"]})
        with_kernel = _replayed(dict(states), events)
        use_compiled(False)
        try:
            assert _replayed(dict(states), events) == with_kernel, case["name"]
        finally:
            use_compiled(True)


@settings(max_examples=40, derandomize=True, deadline=None)  # each example replays twice
@given(time_line=time_lines(max_tournaments=6))
def test_random_time_lines_are_replayed_alike(time_line: tuple[dict[str, PlayerState], list[Tournament]]) -> None:
    states, events = time_line
    with_kernel = _replayed(states, events)
    use_compiled(False)
    try:
        assert _replayed(states, events) == with_kernel
    finally:
        use_compiled(True)


def test_without_numba_there_is_no_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "numba", None)  # import numba raises ImportError
    assert load() is None


JOINT_SYSTEMS = [
    # far-apart fixed opponents: the first Newton step overshoots and is shortened
    [JointEquation((300.0, 300.0, 2700.0), (1,) * 6, 3.0), JointEquation((2900.0,), (0,) * 6, 4.0)],
    [JointEquation((1500, 1500), (), 1.0)],  # the start is the root: no step at all
    [JointEquation((0, 0, 0, 6000), (), 3.5)],  # saturated: Newton leaves the bracket
    [JointEquation((0, 0, 0, 60000), (), 3.5)],  # no slope at all: 400 points a step
    [JointEquation((300.0, 2700.0), (1,), 1.0), JointEquation((1500.0,), (0,) * 6, 3.0)],  # rows swapped
    [
        JointEquation((1000, 1200, 1500.5), (1, 2), 2.5),
        JointEquation((1400,), (0,), 1.0),
        JointEquation((1800, 1300), (0,), 1.5),
    ],
]


def test_joint_systems_are_solved_to_the_same_doubles(kernel: Kernel) -> None:
    with np.errstate(over="ignore"):  # interpreted, W / a vanishing slope is numpy's inf, as Python's
        assert kernel.solve_jointly(JOINT_SYSTEMS) == [solve_jointly(system) for system in JOINT_SYSTEMS]


class _NumbaWithoutCache:
    """numba where the cache has no place to go: ``njit(cache=True)`` raises as numba does."""

    @staticmethod
    def njit(cache: bool = False, nogil: bool = False) -> Callable[[Any], Any]:
        def decorate(function: Any) -> Any:
            if cache:
                raise RuntimeError(f"cannot cache function {function.__name__!r}: no locator available")
            return function

        return decorate


def test_without_a_place_for_the_cache_the_kernel_is_compiled_anyway(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "numba", _NumbaWithoutCache())
    kernel = load()
    assert kernel is not None and kernel.sums_loop is INTERPRETED.sums_loop
