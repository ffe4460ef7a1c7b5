"""Properties of the simulator whatever the player: the DWZ row of the actual score is the
engine's evaluation of the real tournament, and more points never make a rating worse."""

from __future__ import annotations

import os
from datetime import date
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zdb.rating import Game, Participant, PlayerState, ResultCode, Tournament, evaluate_tournament
from zdb.simulator import FIDE_RULE_SETS, SimulationRequest, System, simulate, simulate_fide

PROPERTY = settings(
    max_examples=int(os.environ.get("ZDB_PROPERTY_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

ratings = st.integers(min_value=600, max_value=2800)
end_dates = st.one_of(
    st.sampled_from([date(2024, 2, 29), date(2024, 3, 1), date(2025, 10, 1), date(2026, 6, 7), date(2026, 6, 8)]),
    st.dates(min_value=date(2015, 1, 1), max_value=date(2029, 12, 31)),
)


@st.composite
def requests(draw: st.DrawFn) -> SimulationRequest:
    end = draw(end_dates)
    return SimulationRequest(
        rating=draw(ratings),
        opponents=tuple(draw(st.lists(ratings, min_size=1, max_size=9))),
        end_date=end,
        index=draw(st.integers(min_value=0, max_value=60)),
        birth_year=draw(st.one_of(st.none(), st.integers(min_value=end.year - 80, max_value=end.year - 6))),
        games_played=draw(st.one_of(st.none(), st.integers(min_value=0, max_value=200))),
        reached_2400=draw(st.booleans()),
    )


@PROPERTY
@given(requests(), st.data())
def test_dwz_row_of_the_actual_score_is_the_engines_evaluation(request: SimulationRequest, data: st.DataObject) -> None:
    # the real tournament: the player meets his opponents with results in any order and colour
    results = data.draw(
        st.lists(
            st.sampled_from([ResultCode.WHITE_WINS, ResultCode.BLACK_WINS, ResultCode.DRAW]),
            min_size=request.games,
            max_size=request.games,
        )
    )
    whites = data.draw(st.lists(st.booleans(), min_size=request.games, max_size=request.games))
    games = []
    score = Fraction(0)
    for k, (result, player_is_white) in enumerate(zip(results, whites, strict=True)):
        opponent = f"X{k}"
        if player_is_white:
            games.append(Game("me", opponent, result))
            score += Fraction(result.white_points)
        else:
            games.append(Game(opponent, "me", result))
            score += Fraction(result.black_points)
    tournament = Tournament(
        7,
        "RLT",
        request.end_date,
        (Participant("me", request.birth_year), *(Participant(f"X{k}", 1970) for k in range(request.games))),
        tuple(games),
    )
    states = {"me": PlayerState(request.rating, request.index)}
    states |= {f"X{k}": PlayerState(rating, 15) for k, rating in enumerate(request.opponents)}
    row = next(row for row in evaluate_tournament(tournament, states).rows if row.pid == "me")
    (dwz,) = simulate(request, (System.DWZ,)).results
    outcome = dwz.at(score)
    assert outcome.rating == row.rn
    assert outcome.coefficient == (Fraction(row.e) if row.e is not None else Fraction(str(row.k)))
    assert dwz.expected == row.we


@PROPERTY
@given(requests())
def test_more_points_never_lower_a_rating(request: SimulationRequest) -> None:
    simulation = simulate(request, (System.DWZ, System.FIDE, System.FCR))
    for result in simulation.results:
        new = [outcome.rating for outcome in result.outcomes]
        assert new == sorted(new), f"{result.system.value}: {new}"


@PROPERTY
@given(requests())
def test_every_fide_rule_set_is_monotone(request: SimulationRequest) -> None:
    for rule_set in FIDE_RULE_SETS:
        new = [outcome.rating for outcome in simulate_fide(request, rule_set).outcomes]
        assert new == sorted(new), f"{rule_set.name}: {new}"


@PROPERTY
@given(
    st.integers(min_value=1, max_value=300),
    st.lists(st.integers(min_value=1, max_value=300), min_size=1, max_size=9),
)
def test_more_points_never_make_an_ingo_number_worse(rating: int, opponents: list[int]) -> None:
    request = SimulationRequest(rating, tuple(opponents), date(1985, 6, 1))
    (ingo,) = simulate(request, (System.INGO,)).results
    new = [outcome.rating for outcome in ingo.outcomes]
    assert new == sorted(new, reverse=True)  # lower is better (seed 002)
    assert all(1 <= value <= 300 for value in new)


@PROPERTY
@given(requests())
def test_changes_are_new_minus_old(request: SimulationRequest) -> None:
    for result in simulate(request, (System.DWZ, System.FIDE, System.FCR)).results:
        assert len(result.outcomes) == 2 * request.games + 1
        for outcome in result.outcomes:
            assert outcome.change == outcome.rating - request.rating
