"""Tournaments evaluated together (``evaluate_tournaments``, the replay's batches) give exactly
what each gives alone, a replay longer than its look-ahead equals applying its events one
after the other (spec §2), and an incremental replay over many windows equals the full replay
of the changed time line."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import date, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.rating.strategies import player_states, tournaments
from tests.rating.test_properties import PROPERTY, reevaluated_by_definition
from zdb.rating import (
    Game,
    OrderKey,
    Participant,
    PlayerState,
    ResultCode,
    StartRating,
    Step,
    StoredTimeline,
    Tournament,
    Withdrawal,
    apply_event,
    apply_incremental,
    build_timeline,
    evaluate_tournament,
    evaluate_tournaments,
    replay,
    replay_incremental,
    rule_set_for,
    timeline_changes,
)
from zdb.rating.replay import _LOOKAHEAD, INCREMENTAL_WINDOW

POOLS = (("A0", "A1", "A2", "A3", "A4"), ("B0", "B1", "B2", "B3"), ("C0", "C1", "C2", "C3", "C4", "C5"))


@PROPERTY
@given(data=st.data())
def test_tournaments_evaluated_together_are_evaluated_as_alone(data: st.DataObject) -> None:
    end_date = data.draw(st.dates(min_value=date(2024, 1, 1), max_value=date(2028, 12, 31)))
    batch = [data.draw(tournaments(tournament_id=k + 1, pool=pool, end_date=end_date)) for k, pool in enumerate(POOLS)]
    states = data.draw(player_states(pids=tuple(pid for pool in POOLS for pid in pool)))
    together = evaluate_tournaments(batch, states, rule_set_for(end_date))
    assert together == [evaluate_tournament(tournament, states) for tournament in batch]


def test_tournaments_evaluated_together_may_not_share_a_player() -> None:
    games = (Game("A", "B", ResultCode.DRAW),)
    first = Tournament(1, "AAA", date(2025, 1, 5), (Participant("A", 1990), Participant("B", 1990)), games)
    second = Tournament(2, "BBB", date(2025, 1, 5), (Participant("A", 1990), Participant("B", 1990)), games)
    with pytest.raises(ValueError, match="share a player"):
        evaluate_tournaments([first, second], {}, rule_set_for(date(2025, 1, 5)))


def _random_tournaments(draw: random.Random, count: int) -> list[Tournament]:
    """``count`` small tournaments among 40 players, four a day from 2026-03-01, across the
    conversion of 2026 (spec §8) after the first 300."""
    pids = [f"P{k}" for k in range(40)]
    results = [ResultCode.WHITE_WINS, ResultCode.BLACK_WINS, ResultCode.DRAW, ResultCode.WHITE_WINS_FORFEIT]
    events = []
    for k in range(count):
        chosen = draw.sample(pids, draw.randint(2, 6))
        games = tuple(Game(white, black, draw.choice(results)) for white in chosen for black in chosen if white < black)
        players = tuple(Participant(pid, draw.choice([None, 1960, 2010]), draw.random() < 0.9) for pid in chosen)
        day = date(2026, 3, 1) + timedelta(days=k // 4) if k < 300 else date(2026, 7, 1) + timedelta(days=k // 4)
        events.append(Tournament(k + 1, "AAA", day, players, games))
    return events


@pytest.mark.parametrize("seed", [3, 11])
def test_an_incremental_replay_over_many_windows_equals_the_full_replay(seed: int) -> None:
    draw = random.Random(seed)
    initial = {f"P{k}": PlayerState(rating=draw.randint(900, 2300), index=draw.randint(1, 30)) for k in range(30)}
    events = _random_tournaments(draw, 300 + 3 * INCREMENTAL_WINDOW)
    old = build_timeline(events)
    late = _random_tournaments(random.Random(seed + 1), 1)[0]
    corrected = _random_tournaments(random.Random(seed + 2), 1)[0]
    changes = [
        Tournament(9001, "LAT", date(2026, 3, 20), late.players, late.games),  # late, before the conversion
        Tournament(events[350].id, "AAA", events[350].end_date, corrected.players, corrected.games),  # corrected
        Withdrawal(events[400].id),
        StartRating("P35", date(2026, 8, 1), 1450, 3),
    ]
    new = build_timeline([*events, *changes])
    stored, full = replay(initial, old), replay(initial, new)
    view = StoredTimeline(initial, stored.steps)
    changed = timeline_changes(old, new)
    result = replay_incremental(view.steps_from(min(changed)), changed, view.state_before)
    assert apply_incremental(initial, stored.steps, result) == full
    must = reevaluated_by_definition(stored, full, changed)
    assert len(must) > 2 * INCREMENTAL_WINDOW  # the changes reach over several windows
    assert {step.key for step in result.steps if isinstance(step.event, Tournament)} == must


def test_an_incremental_replay_reads_one_window_past_the_last_difference() -> None:
    # A correction that changes no result (its games in another order): the corrected
    # tournament is evaluated, nobody's state differs after it, and the walk stops at the end
    # of its first window instead of reading the rest of the time line.
    draw = random.Random(5)
    initial = {f"P{k}": PlayerState(rating=draw.randint(900, 2300), index=draw.randint(1, 30)) for k in range(30)}
    events = _random_tournaments(draw, 4 * INCREMENTAL_WINDOW)
    first = next(event for event in events if len(event.games) > 1)
    reordered = Tournament(first.id, first.acronym, first.end_date, first.players, first.games[::-1])
    old, new = build_timeline(events), build_timeline([*events, reordered])
    changes = timeline_changes(old, new)
    stored = replay(initial, old)
    view = StoredTimeline(initial, stored.steps)
    pulled: list[OrderKey] = []

    def counted() -> Iterator[Step]:
        for step in view.steps_from(min(changes)):
            pulled.append(step.key)
            yield step

    result = replay_incremental(counted(), changes, view.state_before)
    assert (result.evaluated, dict(result.final_states)) == (1, {})
    assert len(pulled) <= INCREMENTAL_WINDOW + 1 < len(stored.steps) - 2 * INCREMENTAL_WINDOW
    assert apply_incremental(initial, stored.steps, result) == replay(initial, new)


def test_a_replay_longer_than_its_look_ahead_equals_applying_each_event_in_turn() -> None:
    draw = random.Random(7)
    initial = {f"P{k}": PlayerState(rating=draw.randint(900, 2300), index=draw.randint(1, 30)) for k in range(30)}
    # a run, the conversion of 2026, a run beyond the look-ahead
    events = _random_tournaments(draw, 300 + _LOOKAHEAD + 150)
    timeline = build_timeline(events)
    states = dict(initial)
    one_by_one = []
    for event in timeline:
        step = apply_event(event, states if not isinstance(event, Tournament) else {**states})
        states.update(step.outputs)
        one_by_one.append(step)
    replayed = replay(initial, timeline)
    assert [step.evaluation for step in replayed.steps] == [step.evaluation for step in one_by_one]
    assert dict(replayed.final_states) == states
