"""A tournament's states with who, when and why: submitted, evaluated (by the recalculation),
corrected, withdrawn with its reason; in the API and on the tournament's and the referee's pages."""

from __future__ import annotations

from tests.api.test_submissions import _body, _headers, _post
from tests.api.world import World
from tests.db.scenario import recalc


def _states(world: World, tid: int) -> dict[str, object]:
    answer = world.client.get(f"/api/v1/tournaments/{tid}/states")
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def _steps(states: dict[str, object]) -> list[tuple[object, ...]]:
    history = states["history"]
    assert isinstance(history, list)
    return [(c["state"], c["version"], c["by"], c["why"]) for c in history]


def test_each_change_is_in_the_history_with_who_when_and_why(fresh: World) -> None:
    tid = _post(fresh, _body(fresh)).json()["id"]
    referee = "referee C (token 2)"
    first = _states(fresh, tid)
    assert first["state"] == "submitted" and _steps(first) == [("submitted", 1, referee, None)]
    assert recalc(fresh.url).clean
    evaluated = _states(fresh, tid)
    assert evaluated["state"] == "evaluated"
    assert _steps(evaluated) == [("submitted", 1, referee, None), ("evaluated", None, "recalculation", None)]
    headers = _headers(fresh, "referee_c")
    assert fresh.client.put(f"/api/v1/tournaments/{tid}", json=_body(fresh, name="B"), headers=headers).is_success
    assert _states(fresh, tid)["state"] == "corrected"
    reason = "played under another tournament name"
    gone = fresh.client.delete(f"/api/v1/tournaments/{tid}", params={"reason": reason}, headers=headers)
    assert gone.status_code == 204, gone.text
    last = _states(fresh, tid)
    assert last["state"] == "withdrawn"
    assert _steps(last)[-1] == ("withdrawn", None, referee, reason)
    order = [s[0] for s in _steps(last)]
    assert [s for s in order if s != "evaluated"] == ["submitted", "corrected", "withdrawn"]
    # after the submission (a recalculation requested by the correction may run before or after it)
    assert order.index("evaluated") > 0
    page = fresh.client.get(f"/tournaments/{tid}", headers={"Accept-Language": "de"})
    assert page.status_code == 200
    assert "Historie" in page.text and "eingereicht" in page.text and "korrigiert" in page.text
    assert reason in page.text


def test_a_tournament_stored_before_the_states_were_kept(fresh: World) -> None:
    # The world's tournament 1 was stored by the service directly and evaluated.
    states = _states(fresh, 1)
    assert states["state"] == "evaluated"
    assert [s[0] for s in _steps(states)] == ["evaluated"]
    assert fresh.client.get("/api/v1/tournaments/999999/states").status_code == 404
