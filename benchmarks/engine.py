"""Benchmark of the rating engine on the synthetic federation (issue 2, item 5).

One run reports: how long generating the time line takes; the full in-memory replay's
throughput in rated games per second with the compiled kernel (``zdb.rating.kernel``, the
default), how long loading (or compiling) the kernel took, the replay on the array path
(switched off) and the kernel's replay once more, warm like the array path's (rule tables
filled), with their ratio and a check that both give the same results; the replay once more
as a recalculation runs it (steps streamed, not kept), with the tournaments as tuples and as
columns (as the database's loader hands them over); the floor for that
figure, a bare loop that only sums expected scores over the same games, and the replay's ratio
to it; and the incremental replay of one late tournament (a weekend open a year before the
end) inserted into the stored results, with how many tournaments it re-evaluated and a check
against a full replay of the changed time line. Peak memory is reported after the kernel's
first replay (generation and one replay held) and at the end.

    python benchmarks/engine.py [--scale 0.1] [--seed 1] [--collector running] [--json] [--profile FILE]

Timed sections run with the cyclic garbage collector paused, as every recalculation runs the
engine (``zdb.recalculation.run``): a replay keeps millions of rows, and the collector's walks
over them would otherwise be measured, at moments that vary from run to run.
``--collector running`` measures with the collector on instead.

Progress goes to standard error, the report to standard output. Exit status 1 if the
incremental result differs from the full replay, or the kernel's replay from the array path's.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import resource
import sys
from collections.abc import Sequence
from time import perf_counter, process_time
from typing import Any

import numpy as np

from zdb.compiled_replay.arrays import TimelineArrays, build_arrays
from zdb.compiled_replay.driver import run_pass
from zdb.compiled_replay.machine import compiled as compiled_machine
from zdb.rating import (
    PlayerState,
    ReplayResult,
    StoredTimeline,
    Tournament,
    build_timeline,
    expected_score,
    replay,
    replay_incremental,
    replay_steps,
    timeline_changes,
)
from zdb.rating.entries import ColumnarTournament, EntryColumns
from zdb.rating.kernel import compiled, use_compiled
from zdb.synthetic import generate, late_open

#: targets of issue 23 (issue 2 asked for 500,000)
REPLAY_TARGET = 1_500_000  # rated games per second, full replay, one core
REPLAY_GOAL = 5_000_000
INCREMENTAL_TARGET = 1.0  # seconds for one late tournament
#: targets of issue 39 for the time line in one compiled pass (rated games per CPU second)
PASS_TARGET = 5_000_000
PASS_GOAL = 10_000_000
#: the rating a player without one counts with in the floor loop
FLOOR_DEFAULT = 1000


class _Clock:
    """Wall and CPU time of a block, announced on standard error (the machine may be shared:
    CPU time is what one core spent). The collector is paused within unless ``PAUSE`` is off."""

    PAUSE = True

    def __init__(self, label: str) -> None:
        self.label = label
        self.wall = self.cpu = 0.0  # elapsed, once the block has run
        self._wall = self._cpu = 0.0  # the clocks when it began

    def __enter__(self) -> _Clock:
        print(f"{self.label} ...", file=sys.stderr, flush=True)
        if self.PAUSE:
            gc.disable()
        self._wall, self._cpu = perf_counter(), process_time()
        return self

    def __exit__(self, *exc: object) -> None:
        self.wall, self.cpu = perf_counter() - self._wall, process_time() - self._cpu
        gc.enable()
        print(f"{self.label}: {self.wall:.2f} s (CPU {self.cpu:.2f} s)", file=sys.stderr, flush=True)


def _floor(tournaments: Sequence[Tournament], ratings: dict[str, int]) -> tuple[int, float]:
    """Touch every rated game once and compute one expected score: (games, sum)."""
    count = 0
    total = 0.0
    get = ratings.get
    for tournament in tournaments:
        for game in tournament.games:
            if game.result.rated:
                count += 1
                total += expected_score(get(game.white, FLOOR_DEFAULT) - get(game.black, FLOOR_DEFAULT))
    return count, total


def _compiled_floor(arrays: TimelineArrays) -> tuple[int, float, float]:
    """The compiled floor: one compiled loop over the pass's own game arrays that computes one
    expected score per rated game from the initial ratings (rated games, CPU s, the sum)."""
    import numba  # only when the pass is compiled

    @numba.njit(nogil=True)
    def floor_loop(players, starts, white, black, code, ratings, table, limit):  # type: ignore[no-untyped-def]  # noqa: PLR0917
        total = 0.0
        count = 0
        for t in range(starts.size - 1):
            for g in range(starts[t], starts[t + 1]):
                if code[g] < 3:
                    p, q = players[white[g]], players[black[g]]
                    slot = min(max(ratings[p] - ratings[q] + limit, 0), 2 * limit)
                    total += table[slot]
                    count += 1
        return count, total

    events, rules = arrays.events, arrays.rules
    # Each game's players as positions in the participant array.
    offsets = np.repeat(events[5][:-1], np.diff(events[6]))
    ratings = np.where(arrays.has_rating, arrays.rating, FLOOR_DEFAULT)
    call = (events[10], events[6], events[16] + offsets, events[17] + offsets, events[18], ratings, rules[2], rules[4])
    floor_loop(*call)  # compiled here, not timed
    with _Clock("compiled floor loop") as clock:
        count, total = floor_loop(*call)
    return count, clock.cpu, total


def _compiled_pass(initial: dict[str, PlayerState], timeline: Sequence[Any], full: ReplayResult) -> dict[str, Any]:
    """The time line in one compiled pass (``zdb.compiled_replay``): building its arrays and
    the pass timed apart, its figures checked against the engine's full replay, its floor."""
    machine = compiled_machine()
    if machine is None:
        return {"pass": "numba not installed: the engine's replay is the only path"}
    with _Clock("compiled pass: compile or load") as loading:
        run_pass(build_arrays(initial, timeline[:50]), machine)
    with _Clock("compiled pass: build the arrays") as building:
        arrays = build_arrays(initial, timeline)
    floor_games, floor_cpu, _ = _compiled_floor(arrays)
    with _Clock("compiled pass") as passing:
        result = run_pass(arrays, machine)
    with _Clock("compiled pass: check against the engine") as checking:
        differences = sum(
            1 for t, tournament in enumerate(result.tournaments) if result.report(t) != full.reports[tournament.id]
        )
        states_equal = result.final_states() == dict(full.final_states)
    return {
        "pass": "compiled",
        "load_s": round(loading.wall, 3),
        "build_cpu_s": round(building.cpu, 3),
        "pass_cpu_s": round(passing.cpu, 3),
        "pass_games_per_cpu_s": round(floor_games / passing.cpu),
        "with_build_games_per_cpu_s": round(floor_games / (passing.cpu + building.cpu)),
        "floor_cpu_s": round(floor_cpu, 4),
        "floor_games_per_cpu_s": round(floor_games / floor_cpu),
        "pass_to_floor_ratio": round(passing.cpu / floor_cpu, 1),
        "by_engine": len(result.by_engine),
        "report_differences": differences,
        "equal_to_engine": differences == 0 and states_equal,
        "check_s": round(checking.wall, 3),
    }


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kilobytes on Linux


def run(seed: int, scale: float, profile: str | None) -> dict[str, Any]:
    with _Clock("generate") as generation:
        federation = generate(seed, scale)
    submissions = federation.submissions
    with _Clock("build time line") as building:
        timeline = build_timeline(submissions)
    tournaments = [event for event in timeline if isinstance(event, Tournament)]
    games = sum(len(t.games) for t in tournaments)
    late = sum(1 for t in federation.tournaments if (t.submitted - t.event.end_date).days > 14)
    # the generated data lives to the end: keep the collector from walking it again and again
    gc.collect()
    gc.freeze()

    ratings = {pid: s.rating for pid, s in federation.initial_states.items() if s.rating is not None}
    with _Clock("floor loop") as floor:
        rated, _ = _floor(tournaments, ratings)

    with _Clock("load the compiled kernel") as loading:
        kernel = compiled()
        if kernel is not None:
            kernel.warm_up()
    profiler = cProfile.Profile() if profile else None
    with _Clock("full replay") as full_clock:
        if profiler is not None:
            profiler.enable()
        full = replay(federation.initial_states, timeline)
        if profiler is not None:
            profiler.disable()
    if profiler is not None and profile:
        profiler.dump_stats(profile)
    peak_after_replay = _peak_mb()
    use_compiled(False)
    with _Clock("full replay on the array path") as array_clock:
        array_path = replay(federation.initial_states, timeline)
    use_compiled(True)
    kernel_equal = array_path.final_states == full.final_states and array_path.reports == full.reports
    del array_path
    gc.collect()
    # The first replay fills the rule tables (``tabulated``) that every later one reads: the
    # kernel is timed again, warm like the array path, for their ratio.
    with _Clock("full replay with the kernel, again") as warm_clock:
        replay(federation.initial_states, timeline)
    gc.collect()
    # As a recalculation replays: steps streamed, not kept, the tournaments read as columns
    # (``ColumnarTournament``, as the database's loader hands them over) or as tuples.
    columnar = [
        ColumnarTournament(e.id, e.acronym, e.end_date, EntryColumns.of(e)) if isinstance(e, Tournament) else e
        for e in timeline
    ]
    with _Clock("streamed replay, tournaments as tuples") as streamed_clock:
        for _ in replay_steps(federation.initial_states, timeline):
            pass
    with _Clock("streamed replay, tournaments as columns") as columns_clock:
        for _ in replay_steps(federation.initial_states, columnar):
            pass
    compiled_pass = _compiled_pass(federation.initial_states, columnar, full)
    del columnar
    gc.collect()
    with _Clock("store results") as storing:
        stored = StoredTimeline(federation.initial_states, full.steps)

    late_event = late_open(federation)
    changed_timeline = build_timeline([*submissions, late_event.event])
    with _Clock("time line changes") as diffing:
        changes = timeline_changes(timeline, changed_timeline)
    with _Clock("incremental replay") as incremental_clock:
        incremental = replay_incremental(stored.steps_from(min(changes)), changes, stored.state_before)

    # the check: the stored results with the incremental result applied equal a full replay
    re_evaluated = {
        step.event.id: step.evaluation.rows
        for step in incremental.steps
        if step.evaluation is not None and isinstance(step.event, Tournament)
    }
    expected_states: dict[str, PlayerState] = {**full.final_states, **incremental.final_states}
    old_reports = full.reports
    del full, stored
    gc.collect()
    with _Clock("full replay of the changed time line") as check_clock:
        check = replay(federation.initial_states, changed_timeline)
    state_differences = sum(
        1
        for pid in expected_states.keys() | check.final_states.keys()
        if expected_states.get(pid) != check.final_states.get(pid)
    )
    report_differences = sum(
        1 for tid, rows in check.reports.items() if rows != re_evaluated.get(tid, old_reports.get(tid))
    )
    end_date = late_event.event.end_date
    return {
        "seed": seed,
        "scale": scale,
        "collector": "paused" if _Clock.PAUSE else "running",
        "players": len(federation.players),
        "clubs": len(federation.clubs),
        "tournaments": len(tournaments),
        "late_submissions": late,
        "games": games,
        "rated_games": rated,
        "generation_s": round(generation.wall, 3),
        "build_timeline_s": round(building.wall, 3),
        "full_replay_s": round(full_clock.wall, 3),
        "full_replay_cpu_s": round(full_clock.cpu, 3),
        "full_replay_games_per_s": round(rated / full_clock.wall),
        "full_replay_games_per_cpu_s": round(rated / full_clock.cpu),
        "kernel": "compiled" if kernel is not None else "not installed: array path",
        "kernel_load_s": round(loading.wall, 3),
        "array_path_replay_s": round(array_clock.wall, 3),
        "array_path_replay_cpu_s": round(array_clock.cpu, 3),
        "array_path_games_per_cpu_s": round(rated / array_clock.cpu),
        "warm_replay_cpu_s": round(warm_clock.cpu, 3),
        "warm_replay_games_per_cpu_s": round(rated / warm_clock.cpu),
        "kernel_to_array_path_ratio": round(array_clock.cpu / warm_clock.cpu, 2),
        "kernel_equals_array_path": kernel_equal,
        "streamed_replay_cpu_s": round(streamed_clock.cpu, 3),
        "streamed_replay_games_per_cpu_s": round(rated / streamed_clock.cpu),
        "columns_replay_cpu_s": round(columns_clock.cpu, 3),
        "columns_replay_games_per_cpu_s": round(rated / columns_clock.cpu),
        "compiled_pass": compiled_pass,
        "floor_s": round(floor.wall, 3),
        "floor_cpu_s": round(floor.cpu, 3),
        "floor_games_per_s": round(rated / floor.wall),
        "replay_to_floor_ratio": round(full_clock.cpu / floor.cpu, 1),
        "store_results_s": round(storing.wall, 3),
        "incremental": {
            "tournament": late_event.event.id,
            "end_date": end_date.isoformat(),
            "players": len(late_event.event.players),
            "games": len(late_event.event.games),
            "timeline_changes_s": round(diffing.wall, 3),
            "replay_s": round(incremental_clock.wall, 3),
            "replay_cpu_s": round(incremental_clock.cpu, 3),
            "re_evaluated": incremental.evaluated,
            "tournaments_from_its_date": sum(1 for t in tournaments if t.end_date >= end_date) + 1,
            "players_changed": len(incremental.final_states),
            "check_replay_s": round(check_clock.wall, 3),
            "equal_to_full_replay": state_differences == 0 and report_differences == 0,
            "state_differences": state_differences,
            "report_differences": report_differences,
        },
        "targets": {
            "full_replay_games_per_s": REPLAY_TARGET,
            # judged by CPU time: what one core spent, whatever else the machine runs
            "full_replay_met": rated / full_clock.cpu >= REPLAY_TARGET,
            "full_replay_goal": REPLAY_GOAL,
            "full_replay_goal_met": rated / full_clock.cpu >= REPLAY_GOAL,
            "incremental_s": INCREMENTAL_TARGET,
            "incremental_met": incremental_clock.cpu <= INCREMENTAL_TARGET,
            "pass_games_per_s": PASS_TARGET,
            "pass_met": compiled_pass.get("pass_games_per_cpu_s", 0) >= PASS_TARGET,
            "pass_goal": PASS_GOAL,
            "pass_goal_met": compiled_pass.get("pass_games_per_cpu_s", 0) >= PASS_GOAL,
        },
        "peak_memory_after_replay_mb": round(peak_after_replay),
        "peak_memory_mb": round(_peak_mb()),
        "python": sys.version.split()[0],
    }


def _text(r: dict[str, Any]) -> str:
    inc, targets = r["incremental"], r["targets"]

    def met(flag: bool) -> str:
        return "met" if flag else "NOT met"

    return "\n".join(
        [
            f"synthetic federation  seed {r['seed']}, scale {r['scale']}: "
            f"{r['players']:,} players, {r['clubs']:,} clubs (collector {r['collector']} while timed)",
            f"  {r['tournaments']:,} tournaments ({r['late_submissions']:,} submitted late), "
            f"{r['games']:,} games, {r['rated_games']:,} rated",
            f"generation            {r['generation_s']:.2f} s (time line built in {r['build_timeline_s']:.2f} s)",
            f"full replay           {r['full_replay_s']:.2f} s = {r['full_replay_games_per_s']:,} rated games/s; "
            f"CPU {r['full_replay_cpu_s']:.2f} s = {r['full_replay_games_per_cpu_s']:,}/s "
            f"(target {targets['full_replay_games_per_s']:,}: {met(targets['full_replay_met'])}; "
            f"goal {targets['full_replay_goal']:,}: {met(targets['full_replay_goal_met'])}) with the kernel "
            f"({r['kernel']}, loaded in {r['kernel_load_s']:.2f} s)",
            f"array path            {r['array_path_replay_s']:.2f} s; CPU {r['array_path_replay_cpu_s']:.2f} s = "
            f"{r['array_path_games_per_cpu_s']:,}/s; same results: {'yes' if r['kernel_equals_array_path'] else 'NO'}",
            f"kernel again (warm)   CPU {r['warm_replay_cpu_s']:.2f} s = {r['warm_replay_games_per_cpu_s']:,}/s; "
            f"kernel / array path {r['kernel_to_array_path_ratio']}x (CPU time, both with the rule tables filled)",
            f"streamed (as a run)   tuples: CPU {r['streamed_replay_cpu_s']:.2f} s = "
            f"{r['streamed_replay_games_per_cpu_s']:,}/s; columns: CPU {r['columns_replay_cpu_s']:.2f} s = "
            f"{r['columns_replay_games_per_cpu_s']:,}/s (steps not kept; columns as the loader reads them)",
            *_pass_lines(r["compiled_pass"], targets, r["streamed_replay_cpu_s"]),
            f"floor loop            {r['floor_s']:.2f} s = {r['floor_games_per_s']:,} rated games/s; "
            f"CPU {r['floor_cpu_s']:.2f} s (one expected score per game)",
            f"replay / floor        {r['replay_to_floor_ratio']}x (CPU time)",
            f"store results         {r['store_results_s']:.2f} s",
            f"late tournament       id {inc['tournament']}, ends {inc['end_date']}, {inc['players']} players, "
            f"{inc['games']} games",
            f"  incremental replay  {inc['replay_s']:.3f} s (CPU {inc['replay_cpu_s']:.3f} s; "
            f"target {targets['incremental_s']} s: "
            f"{met(targets['incremental_met'])}), time line diff {inc['timeline_changes_s']:.3f} s",
            f"  re-evaluated        {inc['re_evaluated']:,} of {inc['tournaments_from_its_date']:,} tournaments "
            f"from its date on; {inc['players_changed']:,} final states changed",
            f"  equals full replay  {'yes' if inc['equal_to_full_replay'] else 'NO'} "
            f"({inc['state_differences']} state and {inc['report_differences']} report differences; "
            f"check replay {inc['check_replay_s']:.2f} s)",
            f"peak memory           {r['peak_memory_after_replay_mb']:,} MB after the replay, "
            f"{r['peak_memory_mb']:,} MB in all (Python {r['python']})",
        ]
    )


def _pass_lines(p: dict[str, Any], targets: dict[str, Any], streamed_cpu: float) -> list[str]:
    if p["pass"] != "compiled":
        return [f"compiled pass         {p['pass']}"]

    def met(flag: bool) -> str:
        return "met" if flag else "NOT met"

    return [
        f"compiled pass         CPU {p['pass_cpu_s']:.3f} s = {p['pass_games_per_cpu_s']:,} rated games/s "
        f"(target {targets['pass_games_per_s']:,}: {met(targets['pass_met'])}; goal {targets['pass_goal']:,}: "
        f"{met(targets['pass_goal_met'])}); arrays built in CPU {p['build_cpu_s']:.3f} s, with them "
        f"{p['with_build_games_per_cpu_s']:,}/s; compiled or loaded in {p['load_s']:.2f} s",
        f"  beside its floor    compiled floor loop CPU {p['floor_cpu_s']:.4f} s = {p['floor_games_per_cpu_s']:,}/s; "
        f"pass / floor {p['pass_to_floor_ratio']}x; streamed replay (columns) / pass "
        f"{streamed_cpu / p['pass_cpu_s']:.1f}x (the engine alone, without numba)",
        f"  equals the engine   {'yes' if p['equal_to_engine'] else 'NO'} ({p['report_differences']} tournaments "
        f"differ; {p['by_engine']} handed to the engine; checked in {p['check_s']:.2f} s)",
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--scale", type=float, default=1.0, help="size of the federation (1.0: ~5 M games)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--collector", choices=["paused", "running"], default="paused", help="the garbage collector while timed"
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--profile", metavar="FILE", help="write cProfile statistics of the full replay to FILE")
    args = parser.parse_args(argv)
    _Clock.PAUSE = args.collector == "paused"
    result = run(args.seed, args.scale, args.profile)
    print(json.dumps(result, indent=2) if args.json else _text(result))
    passed = result["compiled_pass"].get("equal_to_engine", True)
    return 0 if result["incremental"]["equal_to_full_replay"] and result["kernel_equals_array_path"] and passed else 1


if __name__ == "__main__":
    sys.exit(main())
