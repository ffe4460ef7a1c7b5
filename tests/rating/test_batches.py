"""Tournaments evaluated together (``evaluate_tournaments``, the replay's batches) give exactly
what each gives alone, and a replay longer than its look-ahead equals applying its events one
after the other (spec §2)."""

from __future__ import annotations

import random
from datetime import date, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.rating.strategies import player_states, tournaments
from tests.rating.test_properties import PROPERTY
from zdb.rating import (
    Game,
    Participant,
    PlayerState,
    ResultCode,
    Tournament,
    apply_event,
    build_timeline,
    evaluate_tournament,
    evaluate_tournaments,
    replay,
    rule_set_for,
)
from zdb.rating.replay import _LOOKAHEAD

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


def test_a_replay_longer_than_its_look_ahead_equals_applying_each_event_in_turn() -> None:
    draw = random.Random(7)
    pids = [f"P{k}" for k in range(40)]
    initial = {pid: PlayerState(rating=draw.randint(900, 2300), index=draw.randint(1, 30)) for pid in pids[:30]}
    results = [ResultCode.WHITE_WINS, ResultCode.BLACK_WINS, ResultCode.DRAW, ResultCode.WHITE_WINS_FORFEIT]
    events = []
    for k in range(300 + _LOOKAHEAD + 150):  # a run, the conversion of 2026, a run beyond the look-ahead
        chosen = draw.sample(pids, draw.randint(2, 6))
        games = tuple(Game(white, black, draw.choice(results)) for white in chosen for black in chosen if white < black)
        players = tuple(Participant(pid, draw.choice([None, 1960, 2010]), draw.random() < 0.9) for pid in chosen)
        day = date(2026, 3, 1) + timedelta(days=k // 4) if k < 300 else date(2026, 7, 1) + timedelta(days=k // 4)
        events.append(Tournament(k + 1, "AAA", day, players, games))
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
