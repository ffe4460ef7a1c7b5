"""A batch's report as columns (``zdb.rating.columns``): the rows made from it, the states'
ratings and indexes beside them, and the evaluation that carries them stays immutable."""

from __future__ import annotations

import dataclasses
from datetime import date

import numpy as np
import pytest

from zdb.rating import (
    RULE_SETS,
    Game,
    Participant,
    PlayerState,
    ResultCode,
    Step,
    Tournament,
    TournamentEvaluation,
    build_timeline,
    evaluate_tournaments,
    replay_steps,
)
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


def test_a_batchs_columns_name_its_tournaments_and_their_rows() -> None:
    # What a caller that stores a whole batch reads besides the figures: the rule set, each
    # tournament's id, end date and acronym, and which rows are whose.
    def tournament(tid: int, acronym: str, day: date, pids: tuple[str, ...]) -> Tournament:
        players = tuple(Participant(p, 1980) for p in pids)
        return Tournament(tid, acronym, day, players, (Game(pids[0], pids[1], ResultCode.DRAW),))

    batch = [
        tournament(4, "AAA", date(2025, 3, 2), ("A", "B")),
        tournament(9, "BBB", date(2025, 3, 9), ("C", "D", "E")),
    ]
    states = {p: PlayerState(1600, 5) for p in "ABCDE"}
    evaluations = evaluate_tournaments(batch, states, RULE_SETS[0])
    columns = evaluations[0].columns
    assert columns is not None and evaluations[1].columns is columns
    assert (columns.rule_set, columns.ids, columns.acronyms) == ("classic", (4, 9), ("AAA", "BBB"))
    assert columns.end_dates == (date(2025, 3, 2), date(2025, 3, 9))
    assert columns.starts == (0, 2, 5) and columns.home.tolist() == [0, 0, 1, 1, 1]
    # ratings are integers (the spec's notation), in the columns as in the rows
    for column in (columns.before_rating, columns.after_rating, columns.before_index, columns.after_index):
        assert {type(value) for value in column.tolist()} == {int}
