"""The time line (spec §2, §8): ordering, corrections, withdrawals, start ratings, and the
incremental replay's edges."""

from __future__ import annotations

from datetime import date

import pytest

from zdb.rating import (
    CONVERSIONS,
    Game,
    InvalidInputError,
    LeftoverGame,
    Participant,
    PlayerState,
    ResultCode,
    StartRating,
    StoredTimeline,
    Tournament,
    Withdrawal,
    apply_incremental,
    build_timeline,
    event_name,
    order_key,
    replay,
    replay_incremental,
    timeline_changes,
)


def _game_between(tournament_id: int, acronym: str, end: date, white: str = "A", black: str = "B") -> Tournament:
    players = (Participant(white, 1980), Participant(black, 1980))
    return Tournament(tournament_id, acronym, end, players, (Game(white, black, ResultCode.WHITE_WINS),))


def test_order_key_puts_start_ratings_first_and_the_conversion_last_on_its_day() -> None:
    day = CONVERSIONS[0].date
    start = StartRating("A", day, 1500, 1)
    tournament = _game_between(7, "ZZZ", day)
    timeline = build_timeline([tournament, start])
    assert [event_name(e) for e in timeline] == ["start-rating:A", 7, CONVERSIONS[0].name]
    assert order_key(start) < order_key(tournament) < order_key(CONVERSIONS[0])


def test_ids_compare_as_integers() -> None:
    # spec §13.14
    day = date(2025, 1, 1)
    timeline = build_timeline([_game_between(10, "AAA", day), _game_between(9, "AAA", day)])
    assert [event_name(e) for e in timeline if isinstance(e, Tournament)] == [9, 10]


def test_correction_replaces_and_may_move_a_tournament() -> None:
    first = _game_between(1, "AAA", date(2025, 1, 1))
    moved = _game_between(1, "AAA", date(2025, 3, 1), white="B", black="A")
    other = _game_between(2, "AAA", date(2025, 2, 1))
    timeline = build_timeline([first, other, moved])
    assert [e for e in timeline if isinstance(e, Tournament)] == [other, moved]


@pytest.mark.parametrize(
    ("submissions", "place", "text"),
    [
        ([Withdrawal(3)], "events[0].withdraw", "does not exist"),
        ([_game_between(3, "AAA", date(2025, 1, 1)), Withdrawal(3), Withdrawal(3)], "events[2].withdraw", "already"),
        (
            [_game_between(3, "AAA", date(2025, 1, 1)), Withdrawal(3), _game_between(3, "AAA", date(2025, 1, 1))],
            "events[2].id",
            "never reused",
        ),
    ],
)
def test_withdrawal_errors(submissions: list[Tournament | Withdrawal], place: str, text: str) -> None:
    with pytest.raises(InvalidInputError, match=text) as caught:
        build_timeline(submissions)
    assert caught.value.place == place


def test_start_rating_gives_a_rating_and_drops_leftover_games() -> None:
    leftover = (LeftoverGame(1, date(2025, 1, 1), 1500, 1.0),)
    day = date(2025, 6, 1)
    submissions = [StartRating("A", day, 1400, 3), StartRating("A", day, 1450, 2)]  # the second replaces the first
    result = replay({"A": PlayerState(leftover=leftover)}, build_timeline(submissions))
    assert result.final_states["A"] == PlayerState(CONVERSIONS[0].convert(1450), 3)
    assert [entry.event for entry in result.history["A"]] == ["start-rating:A", CONVERSIONS[0].name]


def test_timeline_changes_name_moved_and_withdrawn_events() -> None:
    a = _game_between(1, "AAA", date(2025, 1, 1))
    b = _game_between(2, "AAA", date(2025, 2, 1))
    a_moved = _game_between(1, "AAA", date(2025, 4, 1))
    old, new = build_timeline([a, b]), build_timeline([a, b, a_moved, Withdrawal(2)])
    assert timeline_changes(old, new) == {order_key(a): None, order_key(b): None, order_key(a_moved): a_moved}
    assert timeline_changes(old, old) == {}


def test_incremental_replay_without_changes_does_nothing() -> None:
    states = {"A": PlayerState(1500, 5), "B": PlayerState(1500, 5)}
    timeline = build_timeline([_game_between(1, "AAA", date(2025, 1, 1))])
    stored = replay(states, timeline)
    view = StoredTimeline(states, stored.steps)
    result = replay_incremental(view.steps_from(order_key(timeline[0])), {}, view.state_before)
    assert (result.steps, result.removed, dict(result.final_states), result.evaluated) == ((), (), {}, 0)


def test_incremental_replay_stops_where_nothing_changes_any_more() -> None:
    # A late game between C and D touches nobody of the later tournaments between A and B.
    states = {pid: PlayerState(1500, 5) for pid in "ABCD"}
    events = [_game_between(k, "AAA", date(2025, k, 1)) for k in range(1, 6)]
    stored = replay(states, build_timeline(events))
    late = _game_between(9, "AAA", date(2025, 2, 15), white="C", black="D")
    new_timeline = build_timeline([*events, late])
    changes = timeline_changes(build_timeline(events), new_timeline)
    view = StoredTimeline(states, stored.steps)
    result = replay_incremental(view.steps_from(min(changes)), changes, view.state_before)
    assert result.evaluated == 1
    # The conversion (2026) still sees C and D with their new ratings.
    assert set(result.final_states) == {"C", "D"}
    full = replay(states, new_timeline)
    assert apply_incremental(states, stored.steps, result).final_states == full.final_states


def test_a_change_may_not_add_or_remove_the_conversion() -> None:
    states = {"A": PlayerState(1500, 5)}
    stored = replay(states, build_timeline([]))
    view = StoredTimeline(states, stored.steps)
    key = order_key(CONVERSIONS[0])
    with pytest.raises(ValueError, match="conversion"):
        replay_incremental(view.steps_from(key), {key: None}, view.state_before)


def test_incremental_conversion_of_a_player_who_newly_has_a_rating() -> None:
    # X has no DWZ in the stored time line; a start rating before the conversion gives him
    # one, so the conversion must now convert him too (spec §8), with nothing stored to undo.
    states = {"A": PlayerState(1500, 5), "B": PlayerState(1400, 5)}
    events = [_game_between(1, "AAA", date(2026, 1, 10))]
    stored = replay(states, build_timeline(events))
    new_timeline = build_timeline([*events, StartRating("X", date(2026, 1, 1), 1200, 1)])
    changes = timeline_changes(build_timeline(events), new_timeline)
    view = StoredTimeline(states, stored.steps)
    result = replay_incremental(view.steps_from(min(changes)), changes, view.state_before)
    assert result.final_states == {"X": PlayerState(CONVERSIONS[0].convert(1200), 2)}
    assert apply_incremental(states, stored.steps, result) == replay(states, new_timeline)


def test_incremental_replay_forgets_a_difference_the_conversion_erases() -> None:
    # Below 700 every rating converts to the floor 1100 (spec §8): after a correction, A's
    # rating before the conversion differs but his converted state does not, so from there on
    # only B differs from the stored time line.
    states = {"A": PlayerState(600, 5), "B": PlayerState(1500, 5)}
    players = (Participant("A", 1980), Participant("B", 1980))
    lost = Tournament(1, "AAA", date(2026, 1, 10), players, (Game("A", "B", ResultCode.BLACK_WINS),))
    drawn = Tournament(1, "AAA", date(2026, 1, 10), players, (Game("A", "B", ResultCode.DRAW),))
    stored = replay(states, build_timeline([lost]))
    new_timeline = build_timeline([lost, drawn])
    full = replay(states, new_timeline)
    assert stored.history["A"][0].new != full.history["A"][0].new
    changes = timeline_changes(build_timeline([lost]), new_timeline)
    view = StoredTimeline(states, stored.steps)
    result = replay_incremental(view.steps_from(min(changes)), changes, view.state_before)
    assert set(result.final_states) == {"B"}
    assert apply_incremental(states, stored.steps, result) == full


def test_incremental_replay_passes_the_conversion_when_an_earlier_change_left_no_difference() -> None:
    # A correction before the conversion adds only a forfeit, which changes no state (spec §3):
    # nobody differs when the walk reaches the conversion, yet a later change is still ahead.
    states = {"A": PlayerState(1500, 5), "B": PlayerState(1400, 5)}
    players = (Participant("A", 1980), Participant("B", 1980))
    won = (Game("A", "B", ResultCode.WHITE_WINS),)
    before = Tournament(1, "AAA", date(2026, 1, 10), players, won)
    corrected = Tournament(1, "AAA", date(2026, 1, 10), players, (*won, Game("B", "A", ResultCode.WHITE_WINS_FORFEIT)))
    after = Tournament(2, "BBB", date(2026, 7, 10), players, won)
    drawn = Tournament(2, "BBB", date(2026, 7, 10), players, (Game("A", "B", ResultCode.DRAW),))
    assert before.end_date < CONVERSIONS[0].date < after.end_date
    old_timeline = build_timeline([before, after])
    new_timeline = build_timeline([before, after, corrected, drawn])
    changes = timeline_changes(old_timeline, new_timeline)
    assert set(changes) == {order_key(before), order_key(after)}
    stored = replay(states, old_timeline)
    view = StoredTimeline(states, stored.steps)
    result = replay_incremental(view.steps_from(min(changes)), changes, view.state_before)
    assert result.evaluated == 2
    assert apply_incremental(states, stored.steps, result) == replay(states, new_timeline)


def test_a_tournament_checked_before_equals_one_checked_now() -> None:
    players = (Participant("A", 1990), Participant("B", None, False, 2100))
    games = (Game("A", "B", ResultCode.DRAW), Game("B", "A", ResultCode.WHITE_WINS_FORFEIT))
    checked = Tournament(7, "OPN", date(2025, 5, 4), players, games)
    assert Tournament.checked_before(7, "OPN", date(2025, 5, 4), players, games) == checked


def test_an_event_removed_before_it_was_ever_stored_changes_nothing() -> None:
    # A tournament submitted and withdrawn between two runs: its key leaves a time line that
    # never held it. The stored results stand, as the full replay shows.
    states = {"A": PlayerState(1500, 5), "B": PlayerState(1500, 5)}
    timeline = build_timeline([_game_between(1, "AAA", date(2025, 1, 1))])
    stored = replay(states, timeline)
    never = order_key(_game_between(2, "AAA", date(2025, 2, 1)))
    view = StoredTimeline(states, stored.steps)
    result = replay_incremental(view.steps_from(never), {never: None}, view.state_before)
    assert result.evaluated == 0 and dict(result.final_states) == {}
    assert apply_incremental(states, stored.steps, result).final_states == stored.final_states


def test_a_start_rating_over_a_rating_records_the_rating_it_replaces() -> None:
    # spec §2: federation staff set a rating and index at a date; the player's history shows
    # the rating-index he had before it, as for an evaluation.
    day = date(2025, 6, 1)
    result = replay({"A": PlayerState(1500, 5)}, build_timeline([StartRating("A", day, 1400, 3)]))
    (entry, _conversion) = result.history["A"]
    assert (entry.event, entry.date, entry.old, entry.new) == ("start-rating:A", day, (1500, 5), (1400, 3))


def test_a_late_tournament_that_changes_no_state_leaves_nothing_dirty() -> None:
    # A late game against a guest without a rating is not rated (spec §9.1, §10): nobody's
    # state changes, so the incremental replay names nobody whose state differs, and the
    # stored conversion after it stands (it is not applied again).
    states = {"A": PlayerState(1500, 5), "B": PlayerState(1500, 5)}
    events = [_game_between(1, "AAA", date(2025, 1, 1))]
    stored = replay(states, build_timeline(events))
    guest = Tournament(
        2,
        "GST",
        date(2025, 2, 15),
        (Participant("A", 1980), Participant("G", 1990, member=False)),
        (Game("A", "G", ResultCode.WHITE_WINS),),
    )
    new_timeline = build_timeline([*events, guest])
    changes = timeline_changes(build_timeline(events), new_timeline)
    view = StoredTimeline(states, stored.steps)
    result = replay_incremental(view.steps_from(min(changes)), changes, view.state_before)
    assert result.evaluated == 1 and dict(result.final_states) == {}
    assert [event_name(step.event) for step in result.steps] == [2]
    assert apply_incremental(states, stored.steps, result).final_states == replay(states, new_timeline).final_states
