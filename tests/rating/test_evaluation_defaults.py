"""What a ``TournamentEvaluation`` holds when a caller leaves its states out, and what it says
when it is given neither rows nor columns, or both.

Why a file of its own: every evaluation the engine makes passes its states and inputs, so no
other test built one without them; a change that left them ``None`` (or failed to make the
empty mapping) and one that garbled the refusal's text passed every test (docs/mutation.md).
"""

from __future__ import annotations

from datetime import date
from types import MappingProxyType

import pytest

from zdb.rating import (
    RULE_SETS,
    Game,
    Participant,
    PlayerState,
    ResultCode,
    Tournament,
    TournamentEvaluation,
    evaluate_tournaments,
)

REFUSAL = r"^a tournament evaluation has either rows or columns$"


def test_an_evaluation_without_states_or_inputs_holds_empty_read_only_mappings() -> None:
    evaluation = TournamentEvaluation("classic", ())
    for mapping in (evaluation.states, evaluation.inputs):
        assert isinstance(mapping, MappingProxyType) and dict(mapping) == {}
        with pytest.raises(TypeError):
            mapping["A"] = PlayerState(1500, 1)  # type: ignore[index]
    assert evaluation.rows == () and evaluation.columns is None
    # given only one of the two, the other is still the empty mapping
    states = {"A": PlayerState(1500, 1)}
    only_states = TournamentEvaluation("classic", (), states)
    assert dict(only_states.states) == states and dict(only_states.inputs) == {}
    only_inputs = TournamentEvaluation("classic", (), inputs=states)
    assert dict(only_inputs.states) == {} and dict(only_inputs.inputs) == states


def test_an_evaluation_given_neither_or_both_is_refused_in_so_many_words() -> None:
    with pytest.raises(TypeError, match=REFUSAL):
        TournamentEvaluation("classic")
    players = (Participant("A", 1980), Participant("B", 1980))
    tournament = Tournament(1, "TST", date(2025, 3, 2), players, (Game("A", "B", ResultCode.DRAW),))
    (evaluation,) = evaluate_tournaments([tournament], {"A": PlayerState(1500, 3)}, RULE_SETS[0])
    assert evaluation.columns is not None
    with pytest.raises(TypeError, match=REFUSAL):
        TournamentEvaluation("classic", evaluation.rows, columns=evaluation.columns, span=evaluation.span)
