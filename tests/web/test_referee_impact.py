"""A referee sees what his own submission moved: the submission's answer names where its impact
is answered, and his follow page shows the run that evaluated it with its largest changes.

The known answers are the API's (``/tournaments/{id}/impact`` and the run's changes), which tests
of the impact itself check against the history; here the page must show the same.
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.api.test_submissions import _games, _post
from tests.api.world import World, build_world
from tests.db.scenario import recalc
from tests.web.html_text import rows_of, text_of
from tests.web.same_site import SAME_SITE


@pytest.fixture
def evaluated(database_url: str) -> World:
    made = build_world(database_url)
    recalc(database_url)
    return made


def test_the_referee_sees_the_impact_of_his_submission(evaluated: World) -> None:
    world = evaluated
    late = {
        "acronym": "LAT",
        "federation": "C03",
        "end_date": "2026-08-01",
        "time_control": "40/5400+30:1800+30",
        "games": _games(4),
        "players": [{"pkz": world.pkz[p]} for p in "ABCD"],
    }
    stored = _post(world, late)
    assert stored.status_code == 201, stored.text
    tid = stored.json()["id"]
    assert stored.json()["impact"] == f"/api/v1/tournaments/{tid}/impact"
    assert world.client.get(stored.json()["impact"]).status_code == 404  # not evaluated yet

    client = TestClient(world.client.app, follow_redirects=False, headers=SAME_SITE)
    signed_in = client.post("/referee/sign-in", data={"token": world.tokens["referee_c"], "next": "/referee"})
    assert signed_in.status_code == 303
    assert 'data-testid="impact"' not in client.get(f"/referee/tournaments/{tid}").text

    assert recalc(world.url).clean
    impact = world.client.get(stored.json()["impact"]).json()
    assert impact["moved"] >= 1
    changes = world.get(f"/recalculation/runs/{impact['id']}/changes", limit=10).json()["items"]
    page = client.get(f"/referee/tournaments/{tid}").text
    assert f"Sie hat die Wertungszahlen von {impact['moved']} Spielern verändert." in text_of(page)
    assert f'href="/api/v1/tournaments/{tid}/impact"' in page
    shown = rows_of(page, "impact")
    assert [row[0] for row in shown] == [c["name"] for c in changes]
    # a real minus sign, as every change on the pages
    assert [row[3] for row in shown] == [_signed(c["change"]) for c in changes]


def _signed(change: int | None) -> str:
    if change is None:
        return "–"
    return "±0" if change == 0 else f"+{change}" if change > 0 else f"\u2212{-change}"
