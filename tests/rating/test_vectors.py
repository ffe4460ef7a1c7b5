"""Every case of vectors.json through the library (the commands have their own test)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import VECTORS
from tests.vector_compare import assert_row, assert_rows, canonical_states, case_id
from zdb.formats.rating_json import (
    dump_evaluation,
    dump_replay,
    dump_row,
    load_evaluation_request,
    load_replay_request,
)
from zdb.rating import CONVERSIONS, build_timeline, evaluate_tournament, replay


def _ids(cases: list[dict[str, Any]]) -> list[str]:
    return [case_id(case["name"]) for case in cases]


@pytest.mark.parametrize("case", VECTORS["single_player"], ids=_ids(VECTORS["single_player"]))
def test_single_player(case: dict[str, Any]) -> None:
    tournament, states = load_evaluation_request({"tournament": case["tournament"], "states": case["states"]})
    evaluation = evaluate_tournament(tournament, states)
    assert evaluation.rule_set == case["rule_set"]
    (row,) = (dump_row(row) for row in evaluation.rows if row.pid == case["expected"]["pid"])
    assert_row(case["expected"], row, case["name"])


@pytest.mark.parametrize("case", [c for c in VECTORS["conversion"] if "old" in c], ids=lambda c: str(c["old"]))
def test_conversion(case: dict[str, Any]) -> None:
    (conversion,) = CONVERSIONS
    assert conversion.convert(case["old"]) == case["new"]


def test_conversion_raises_the_index_by_one() -> None:
    (observed,) = (c for c in VECTORS["conversion"] if "old_rating_index" in c)
    old_rating, old_index = map(int, observed["old_rating_index"].split("-"))
    new_rating, new_index = map(int, observed["new_rating_index"].split("-"))
    (conversion,) = CONVERSIONS
    assert conversion.convert(old_rating) == new_rating
    assert old_index + conversion.index_increment == new_index


@pytest.mark.parametrize("case", VECTORS["tournaments"], ids=_ids(VECTORS["tournaments"]))
def test_tournament(case: dict[str, Any]) -> None:
    tournament, states = load_evaluation_request({"tournament": case["tournament"], "states": case["states"]})
    result = dump_evaluation(evaluate_tournament(tournament, states))
    assert result["rule_set"] == case["expected"]["rule_set"]
    assert_rows(case["expected"]["rows"], result["rows"], case["name"])
    assert canonical_states(result["states"]) == canonical_states(case["expected"]["states"])


@pytest.mark.parametrize("case", VECTORS["replays"], ids=_ids(VECTORS["replays"]))
def test_replay(case: dict[str, Any]) -> None:
    states, events = load_replay_request({"initial_states": case["initial_states"], "events": case["events"]})
    result = dump_replay(replay(states, build_timeline(events)))
    expected = case["expected"]
    assert result["order"] == expected["order"]
    assert canonical_states(result["final_states"]) == canonical_states(expected["final_states"])
    assert result["history"] == expected["history"]
    assert list(result["reports"]) == list(expected["reports"])
    for tournament_id, rows in expected["reports"].items():
        assert_rows(rows, result["reports"][tournament_id], f"{case['name']} tournament {tournament_id}")
