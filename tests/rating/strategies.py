"""Hypothesis strategies: small tournaments and time lines that reach every rule of the spec.

Sizes are small on purpose (a handful of players) so that stages, leftover games, FIDE start
values, guests, forfeits and the 2026 boundary all occur often within a few hundred examples.
"""

from __future__ import annotations

from datetime import date, timedelta

from hypothesis import strategies as st

from zdb.rating import (
    Game,
    LeftoverGame,
    Participant,
    PlayerState,
    ResultCode,
    Tournament,
)

PIDS = tuple(f"P{k}" for k in range(9))
ACRONYMS = ("AAA", "BMA", "ZZZ")
BOUNDARY = date(2026, 6, 7)  # the conversion date: tournaments on both sides, and on it

results = st.sampled_from(
    [ResultCode.WHITE_WINS] * 4
    + [ResultCode.BLACK_WINS] * 4
    + [ResultCode.DRAW] * 3
    + [ResultCode.WHITE_WINS_FORFEIT, ResultCode.BLACK_WINS_FORFEIT, ResultCode.DOUBLE_FORFEIT, ResultCode.BOTH_LOSE]
)

end_dates = st.one_of(
    st.sampled_from([BOUNDARY, BOUNDARY + timedelta(days=1), date(2024, 2, 29), date(2028, 2, 28)]),
    st.dates(min_value=date(2023, 1, 1), max_value=date(2029, 12, 31)),
)


@st.composite
def leftover_games(draw: st.DrawFn) -> tuple[LeftoverGame, ...]:
    count = draw(st.integers(0, 4))
    return tuple(
        LeftoverGame(
            tournament=draw(st.integers(900, 910)),
            end_date=draw(st.dates(min_value=date(2022, 1, 1), max_value=date(2026, 12, 31))),
            opp_rating=draw(st.integers(700, 2500)),
            points=draw(st.sampled_from([0.0, 0.5, 1.0])),
            opp_fide=draw(st.booleans()),
        )
        for _ in range(count)
    )


@st.composite
def player_states(draw: st.DrawFn, pids: tuple[str, ...] = PIDS) -> dict[str, PlayerState]:
    states = {}
    for pid in pids:
        kind = draw(st.sampled_from(["rated", "rated", "rated", "none", "leftover"]))
        if kind == "rated":
            states[pid] = PlayerState(rating=draw(st.integers(600, 2700)), index=draw(st.integers(0, 40)))
        elif kind == "leftover":
            states[pid] = PlayerState(leftover=draw(leftover_games()))
    return states


@st.composite
def participants(draw: st.DrawFn, pids: tuple[str, ...]) -> tuple[Participant, ...]:
    return tuple(
        Participant(
            pid=pid,
            birth_year=draw(st.one_of(st.none(), st.integers(1940, 2018))),
            member=draw(st.sampled_from([True, True, True, True, False])),
            fide_rating=draw(st.one_of(st.none(), st.none(), st.none(), st.integers(1400, 2700))),
        )
        for pid in pids
    )


@st.composite
def tournaments(
    draw: st.DrawFn,
    tournament_id: int = 1,
    pool: tuple[str, ...] = PIDS,
    end_date: date | None = None,
) -> Tournament:
    chosen = draw(st.lists(st.sampled_from(pool), min_size=2, max_size=len(pool), unique=True))
    games = []
    for a in range(len(chosen)):
        for b in range(a + 1, len(chosen)):
            for _ in range(draw(st.sampled_from([0, 1, 1, 1, 2]))):
                white, black = (chosen[a], chosen[b]) if draw(st.booleans()) else (chosen[b], chosen[a])
                games.append(Game(white, black, draw(results)))
    return Tournament(
        id=tournament_id,
        acronym=draw(st.sampled_from(ACRONYMS)),
        end_date=end_date if end_date is not None else draw(end_dates),
        players=draw(participants(tuple(chosen))),
        games=tuple(games),
    )


@st.composite
def time_lines(draw: st.DrawFn, max_tournaments: int = 5) -> tuple[dict[str, PlayerState], list[Tournament]]:
    """Initial states and tournaments with distinct ids, in submission order."""
    states = draw(player_states())
    count = draw(st.integers(1, max_tournaments))
    events = [draw(tournaments(tournament_id=k + 1)) for k in range(count)]
    return states, events
