"""Provisional and definitive (issue 35, item 6): an evaluation is provisional while its
tournament is in review, while the complaint period of the edition that published it runs (or
before any edition published it), and while a complaint about it is open; definitive afterwards.
In the API's evaluation report and on the player card; on PostgreSQL and SQLite."""

from __future__ import annotations

from typing import Any

from tests.api.test_complaints import _decide, _file, _player_complaint, _publish
from tests.api.test_submissions import _body, _post
from tests.api.world import World
from tests.db.scenario import recalc
from zdb.db import engine_for, unit_of_work
from zdb.tournaments.states import record_state


def _mark(world: World, tid: int) -> Any:
    answer = world.client.get(f"/api/v1/tournaments/{tid}/evaluation")
    assert answer.status_code == 200, answer.text
    return answer.json()["provisional"]


def _card_mark(world: World, pid: str, tid: int) -> Any:
    card = world.client.get(f"/api/v1/players/{world.pkz[pid]}").json()
    [entry] = [e for e in card["history"] if e["tournament_id"] == tid]
    return entry["provisional"]


def test_provisional_before_publication_and_inside_the_period(fresh: World) -> None:
    assert _mark(fresh, 1) == {"reasons": ["complaint_period"], "edition": None, "until": None}
    assert _card_mark(fresh, "A", 1) == _mark(fresh, 1)
    _publish(fresh, "2026-10-31", days_ago=10)
    mark = _mark(fresh, 1)
    assert mark["reasons"] == ["complaint_period"] and mark["edition"] == "2026-Q4" and mark["until"] is not None
    assert _card_mark(fresh, "H", 1) == mark


def test_definitive_after_the_period_until_a_complaint_is_open(fresh: World) -> None:
    _publish(fresh, "2026-10-31", days_ago=40)
    assert _mark(fresh, 1) is None
    assert _card_mark(fresh, "A", 1) is None
    late = _file(fresh, "admin", subject="evaluation", tournament=1, text="vom Amt angenommen").json()
    mark = _mark(fresh, 1)
    assert mark["reasons"] == ["open_complaint"] and mark["edition"] == "2026-Q4"
    assert _card_mark(fresh, "B", 1) == mark
    assert _mark(fresh, 2) is None  # another tournament of the edition stays definitive
    assert (
        _decide(fresh, "admin", late["id"], revision=0, state="dismissed", note="richtig gewertet").status_code == 200
    )
    assert _mark(fresh, 1) is None


def test_in_review_and_a_tournament_after_the_edition(fresh: World) -> None:
    _publish(fresh, "2026-10-31", days_ago=40)
    tid = _post(fresh, _body(fresh)).json()["id"]  # ends 2026-11-08: after the edition
    assert recalc(fresh.url).clean
    assert _mark(fresh, tid) == {"reasons": ["complaint_period"], "edition": None, "until": None}
    # a tournament waiting in review (its state as the review records it)
    with unit_of_work(engine_for(fresh.url)) as session:
        record_state(session, 2, "in_review", by="referee C (token 2)")
    assert _mark(fresh, 2)["reasons"] == ["in_review"]
    filed = _player_complaint(fresh, tid)
    assert filed.status_code == 201, filed.text
    assert _mark(fresh, tid)["reasons"] == ["complaint_period", "open_complaint"]
