"""README's generated performance table: ``benchmarks/performance_table.replace_block`` replaces
exactly the text between the two marker comments, keeps everything around them, and refuses a
README without both markers (or with one twice, or in the wrong order), so that a benchmark run
never writes its table into the wrong place. No benchmark runs here: the figures are made up."""

from __future__ import annotations

import pytest

from benchmarks.performance_table import BEGIN, END, render, replace_block

README = f"# ZDB\n\n## Benchmarks\n\n{BEGIN}\n| old | table |\n{END}\n\n### Next\n\ntext after\n"


def test_only_the_block_between_the_markers_is_replaced() -> None:
    assert replace_block(README, "| new |\n\n") == (
        f"# ZDB\n\n## Benchmarks\n\n{BEGIN}\n| new |\n{END}\n\n### Next\n\ntext after\n"
    )


def test_replacing_twice_gives_the_same_readme() -> None:
    once = replace_block(README, "new")
    assert replace_block(once, "new") == once


@pytest.mark.parametrize(
    "readme",
    [
        "# ZDB\n\nno table here\n",
        f"# ZDB\n{BEGIN}\nonly the start\n",
        f"# ZDB\nonly the end\n{END}\n",
        f"# ZDB\n{END}\nreversed\n{BEGIN}\n",
        f"# ZDB\n{BEGIN}\n{END}\n{BEGIN}\n{END}\n",
    ],
)
def test_a_readme_without_one_pair_of_markers_is_refused(readme: str) -> None:
    with pytest.raises(ValueError, match="performance"):
        replace_block(readme, "new")


_RECALC = {
    "players": 100,
    "tournaments": 10,
    "games": 1_000_000,
    "database_size_mb": 50,
    "load_s": 40.0,
    "full_recalculation_s": 30.0,
    "full_recalculation_client_cpu_s": 10.0,
    "raw_floor_s": 10.0,
    "full_over_floor": 3.0,
    "full_recalculation_peak_memory_mb": 400,
    "late_open_to_consistent_s": 0.4,
    "late_open_reevaluated": 7,
}


def _run(**recalc: float) -> dict[str, object]:
    """A made-up scale-1 run of ``summary.py``: ``_RECALC`` with ``recalc``'s figures."""
    return {
        "scale": 1.0,
        "date": "2026-12-06 00:00 UTC",
        "cores": 2,
        "load_average": {"before": [2.0, 2.5, 3.0], "after": [3.0, 3.0, 3.0]},
        "commands": ["python benchmarks/summary.py --scale 1"],
        "engine": None,
        "recalc": {**_RECALC, **recalc},
    }


def test_a_missed_target_is_marked_and_the_run_named() -> None:
    lines = render([_run()]).splitlines()
    full = next(line for line in lines if "full from-scratch recalculation, wall time" in line)
    # 30 s against a floor of 10 s: 3 ×, above the target of 2 ×
    assert full.split(" | ")[4:] == ["3.00 ×", "≤ 2 × (goal 1.5 ×)", "**no** |"]
    late = next(line for line in lines if "late weekend open" in line)
    assert late.endswith("| ≤ 0.5 s (goal 0.3 s) | yes |")  # 0.4 s: within 0.5 s
    load = next(line for line in lines if "bulk load" in line)
    assert "(25,000 games/s)" in load  # a million games in 40 s
    assert "`python benchmarks/summary.py --scale 1`, 2026-12-06 00:00 UTC" in lines[-1]
    assert "2.0, 2.5, 3.0 before" in lines[-1]


def test_the_late_open_from_states_is_told_by_its_own_phases() -> None:
    run = _run(
        late_open_to_consistent_s=2.0,
        late_open_phase_walk_s=0.0,
        late_open_phase_tail_s=1.9,
        late_open_phase_tail_read_stored_rows_s=0.5,
        late_open_phase_tail_pass_s=0.3,
        late_open_phase_write_s=0.25,
    )
    note = render([run]).splitlines()[-1]
    assert "the run from states 1.90 s (the stored rows of the tail 0.50 s" in note
    assert "the pass 0.30 s" in note and "writing 0.25 s)" in note
    assert "the walk" not in note  # the walk's phases (all zero) are not told for a run that did not walk
