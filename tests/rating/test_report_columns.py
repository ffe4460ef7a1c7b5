"""A batch's report as columns (``zdb.rating.columns``): the rows made from it, the states'
ratings and indexes beside them, and the evaluation that carries them stays immutable."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from zdb.rating import Step, Tournament, TournamentEvaluation, build_timeline, replay_steps
from zdb.synthetic import generate


@pytest.fixture(scope="module")
def steps() -> list[Step]:
    federation = generate(5, 0.01)
    timeline = build_timeline(federation.submissions)
    return [step for step in replay_steps(federation.initial_states, timeline) if isinstance(step.event, Tournament)]


def _value(present: bool, value: int) -> int | None:
    return value if present else None


def test_the_state_columns_hold_the_states(steps: list[Step]) -> None:
    checked = 0
    for step in steps:
        evaluation = step.evaluation
        assert evaluation is not None and evaluation.columns is not None
        columns = evaluation.columns
        start, stop = evaluation.span
        assert columns.pids[start:stop] == [row.pid for row in evaluation.rows]
        for k in range(start, stop):
            pid = columns.pids[k]
            before, after = step.inputs[pid], step.outputs[pid]
            assert columns.before[k] is before and columns.after[k] is after
            assert _value(columns.has_before_rating[k], columns.before_rating[k]) == before.rating
            assert columns.before_index[k] == before.index
            assert _value(columns.has_after_rating[k], columns.after_rating[k]) == after.rating
            assert columns.after_index[k] == after.index
            checked += 1
    assert checked > 1000


def test_rows_made_from_columns_equal_rows_given(steps: list[Step]) -> None:
    evaluation = next(s.evaluation for s in steps if s.evaluation is not None and len(s.evaluation.rows) > 4)
    assert evaluation is not None
    assert evaluation.rows is evaluation.rows  # made once
    given = TournamentEvaluation(evaluation.rule_set, evaluation.rows, evaluation.states, evaluation.inputs)
    assert given == evaluation and given.columns is None
    assert given != TournamentEvaluation(evaluation.rule_set, evaluation.rows[1:], evaluation.states)
    assert evaluation != evaluation.rows
    assert repr(evaluation).startswith(f"TournamentEvaluation(rule_set={evaluation.rule_set!r}, rows=(ReportRow(")


def test_an_evaluation_and_its_columns_cannot_be_changed(steps: list[Step]) -> None:
    evaluation = steps[0].evaluation
    assert evaluation is not None and evaluation.columns is not None
    with pytest.raises(dataclasses.FrozenInstanceError):
        evaluation.rule_set = "other"
    with pytest.raises(dataclasses.FrozenInstanceError):
        del evaluation.states
    with pytest.raises(ValueError, match="read-only"):
        evaluation.columns.rn[0] = 0
    with pytest.raises(dataclasses.FrozenInstanceError):
        evaluation.columns.rule_set = "other"  # type: ignore[misc]
    assert isinstance(evaluation.columns.home, np.ndarray) and len(evaluation.columns) == len(evaluation.columns.pids)


def test_an_evaluation_has_rows_or_columns() -> None:
    with pytest.raises(TypeError, match="either rows or columns"):
        TournamentEvaluation("classic")
