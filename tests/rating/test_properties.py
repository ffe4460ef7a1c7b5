"""Properties the engine must have whatever the input (issue: order invariance, no mutation,
monotonicity, replay order independence, withdrawal, incremental = full)."""

from __future__ import annotations

import copy
import os
from collections.abc import KeysView
from dataclasses import replace
from datetime import date
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.rating.strategies import player_states, time_lines, tournaments
from tests.vector_compare import canonical_states
from zdb.formats.rating_json import dump_evaluation, dump_replay
from zdb.rating import (
    EMPTY_STATE,
    Event,
    Game,
    OrderKey,
    Participant,
    PlayerState,
    ReplayResult,
    ResultCode,
    Step,
    StoredTimeline,
    Tournament,
    Withdrawal,
    apply_incremental,
    build_timeline,
    evaluate_tournament,
    replay,
    replay_incremental,
    timeline_changes,
)

# CI draws the same examples every run (coverage must not depend on luck); set
# ZDB_PROPERTY_EXAMPLES to explore new random examples, as many as given.
_EXPLORE = os.environ.get("ZDB_PROPERTY_EXAMPLES")
PROPERTY = settings(
    max_examples=int(_EXPLORE or "150"),
    derandomize=_EXPLORE is None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def _by_pid(document: dict[str, Any]) -> dict[str, Any]:
    return {
        "rule_set": document["rule_set"],
        "rows": {row["pid"]: row for row in document["rows"]},
        "states": canonical_states(document["states"]),
    }


def _comparable(document: dict[str, Any]) -> dict[str, Any]:
    return {**document, "final_states": canonical_states(document["final_states"])}


@PROPERTY
@given(data=st.data())
def test_order_of_players_and_games_changes_nothing(data: st.DataObject) -> None:
    states = data.draw(player_states())
    tournament = data.draw(tournaments())
    shuffled = replace(
        tournament,
        players=tuple(data.draw(st.permutations(tournament.players))),
        games=tuple(data.draw(st.permutations(tournament.games))),
    )
    original = _by_pid(dump_evaluation(evaluate_tournament(tournament, states)))
    permuted = _by_pid(dump_evaluation(evaluate_tournament(shuffled, states)))
    assert permuted == original


@PROPERTY
@given(data=st.data())
def test_inputs_are_never_mutated(data: st.DataObject) -> None:
    states = data.draw(player_states())
    tournament = data.draw(tournaments())
    states_before, tournament_before = copy.deepcopy(states), copy.deepcopy(tournament)
    evaluate_tournament(tournament, states)
    assert states == states_before
    assert tournament == tournament_before


_BETTER = {ResultCode.BLACK_WINS: ResultCode.DRAW, ResultCode.DRAW: ResultCode.WHITE_WINS}


@PROPERTY
@given(
    rating=st.integers(700, 2600),
    index=st.integers(0, 30),
    fide_start=st.booleans(),
    birth_year=st.one_of(st.none(), st.integers(1950, 2016)),
    end_date=st.sampled_from([date(2025, 5, 4), date(2026, 9, 27)]),
    opponents=st.lists(st.integers(700, 2600), min_size=1, max_size=9),
    data=st.data(),
)
def test_more_points_never_give_a_lower_rating(  # noqa: PLR0917 - one argument per drawn input
    rating: int,
    index: int,
    fide_start: bool,
    birth_year: int | None,
    end_date: date,
    opponents: list[int],
    data: st.DataObject,
) -> None:
    results = data.draw(
        st.lists(st.sampled_from([*_BETTER, ResultCode.WHITE_WINS]), min_size=len(opponents), max_size=len(opponents))
    )
    better_at = data.draw(st.sampled_from([k for k, r in enumerate(results) if r in _BETTER] or [None]))
    players = [Participant("P", birth_year, True, rating if fide_start else None)]
    players += [Participant(f"O{k}", 1980) for k in range(len(opponents))]
    states = {f"O{k}": PlayerState(r, 20) for k, r in enumerate(opponents)}
    if not fide_start:
        states["P"] = PlayerState(rating, index)

    def new_rating(outcomes: list[ResultCode]) -> int | None:
        games = tuple(Game("P", f"O{k}", result) for k, result in enumerate(outcomes))
        tournament = Tournament(1, "SPV", end_date, tuple(players), games)
        (row,) = (row for row in evaluate_tournament(tournament, states).rows if row.pid == "P")
        return row.rn

    before = new_rating(results)
    if better_at is None:
        return
    improved = list(results)
    improved[better_at] = _BETTER[results[better_at]]
    after = new_rating(improved)
    assert before is not None and after is not None
    assert after >= before


@PROPERTY
@given(time_line=time_lines(), data=st.data())
def test_replay_is_the_same_under_any_submission_order(
    time_line: tuple[dict[str, PlayerState], list[Tournament]], data: st.DataObject
) -> None:
    states, events = time_line
    shuffled = data.draw(st.permutations(events))
    expected = _comparable(dump_replay(replay(states, build_timeline(events))))
    assert _comparable(dump_replay(replay(states, build_timeline(shuffled)))) == expected


@PROPERTY
@given(time_line=time_lines(), data=st.data())
def test_withdrawing_equals_never_submitting(
    time_line: tuple[dict[str, PlayerState], list[Tournament]], data: st.DataObject
) -> None:
    states, events = time_line
    gone = data.draw(st.sampled_from(events))
    later = data.draw(st.integers(events.index(gone) + 1, len(events)))
    submissions = [*events[:later], Withdrawal(gone.id), *events[later:]]
    without = [event for event in events if event is not gone]
    expected = _comparable(dump_replay(replay(states, build_timeline(without))))
    assert _comparable(dump_replay(replay(states, build_timeline(submissions)))) == expected


@st.composite
def _changes(draw: st.DrawFn, events: list[Tournament]) -> list[Tournament | Withdrawal]:
    """One to three insertions, corrections (same id, anything may change) or withdrawals."""
    submitted = list(events)
    live = {event.id: event for event in events}
    next_id = max(live) + 1
    changes: list[Tournament | Withdrawal] = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["insert", "correct", "withdraw"] if live else ["insert"]))
        if kind == "insert":
            event = draw(tournaments(tournament_id=next_id))
            next_id += 1
            live[event.id] = event
            changes.append(event)
        elif kind == "correct":
            target = draw(st.sampled_from(sorted(live)))
            keep_date = draw(st.booleans())
            event = draw(tournaments(tournament_id=target, end_date=live[target].end_date if keep_date else None))
            live[target] = event
            changes.append(event)
        else:
            target = draw(st.sampled_from(sorted(live)))
            del live[target]
            changes.append(Withdrawal(target))
    del submitted
    return changes


def _replayed_with_changes(
    time_line: tuple[dict[str, PlayerState], list[Tournament]], data: st.DataObject
) -> tuple[dict[str, PlayerState], ReplayResult, ReplayResult, dict[OrderKey, Event | None]]:
    """Initial states, the full replays of a time line and of it with drawn changes, and the
    changes between them."""
    states, events = time_line
    old_timeline = build_timeline(events)
    new_timeline = build_timeline([*events, *data.draw(_changes(events))])
    changes = timeline_changes(old_timeline, new_timeline)
    return states, replay(states, old_timeline), replay(states, new_timeline), changes


@PROPERTY
@given(time_line=time_lines(), data=st.data())
def test_incremental_replay_equals_full_replay(
    time_line: tuple[dict[str, PlayerState], list[Tournament]], data: st.DataObject
) -> None:
    states, stored, full, changes = _replayed_with_changes(time_line, data)
    view = StoredTimeline(states, stored.steps)
    result = replay_incremental(view.steps_from(min(changes)) if changes else iter(()), changes, view.state_before)
    patched = apply_incremental(states, stored.steps, result)
    assert _comparable(dump_replay(patched)) == _comparable(dump_replay(full))
    players = set(full.final_states) | set(stored.final_states)
    final = {pid: full.final_states.get(pid, EMPTY_STATE) for pid in players}
    changed = {pid for pid in players if stored.final_states.get(pid, EMPTY_STATE) != final[pid]}
    assert dict(result.final_states) == {pid: final[pid] for pid in changed}
    must = reevaluated_by_definition(stored, full, changes)
    assert {step.key for step in result.steps if isinstance(step.event, Tournament)} == must
    assert result.evaluated == len(must)


def reevaluated_by_definition(
    stored: ReplayResult, full: ReplayResult, changes: dict[OrderKey, Event | None]
) -> set[OrderKey]:
    """The tournaments an incremental replay evaluates: each that changed, and each whose
    participants' states before it differ between the stored and the full replay (none other:
    a stored result whose inputs stand is kept)."""
    old = {step.key: step for step in stored.steps}
    return {
        step.key
        for step in full.steps
        if isinstance(step.event, Tournament)
        and (step.key in changes or dict(step.inputs) != dict(old[step.key].inputs))
    }


class _Asked:
    """A stored step that records, when its event is asked for, whether one of its
    participants was in the replay's view of differing players at that moment."""

    def __init__(self, step: Step, view: list[KeysView[str]], asked: list[tuple[OrderKey, bool]]) -> None:
        self._step, self._view, self._asked = step, view, asked
        self.key, self.inputs, self.outputs = step.key, step.inputs, step.outputs

    @property
    def event(self) -> Event:
        self._asked.append((self.key, not self._view[0].isdisjoint(self.inputs)))
        return self._step.event


@PROPERTY
@given(time_line=time_lines(), data=st.data())
def test_incremental_replay_shows_whose_state_differs_as_it_walks(
    time_line: tuple[dict[str, PlayerState], list[Tournament]], data: st.DataObject
) -> None:
    # A caller reading stored events ahead guesses from this view which ones will be asked for.
    states, stored, _, changes = _replayed_with_changes(time_line, data)
    assume(changes)
    view = StoredTimeline(states, stored.steps)
    watched: list[KeysView[str]] = []
    asked: list[tuple[OrderKey, bool]] = []
    steps = (_Asked(step, watched, asked) for step in view.steps_from(min(changes)))
    result = replay_incremental(steps, changes, view.state_before, watched.append)
    assert len(watched) == 1
    # Every stored event applied again is asked for, and only those; a tournament or a start
    # rating is asked for while one of its players differs (a conversion: while anyone does).
    assert {key for key, _ in asked} == {step.key for step in result.steps if step.key not in changes}
    assert all(in_view for key, in_view in asked if key[1] != 2)
    assert set(watched[0]) == set(result.final_states)
