"""Provisional marks on the lists (issue 35, item 6): each row of the club list and of the top
lists whose rating rests on a provisional evaluation — its last evaluation in review, inside its
complaint period, or with an open complaint — carries the mark and its reasons, in the API (the
hot read and the pull ``at=`` a day) and on the pages (the framed ones too). On PostgreSQL and SQLite.

The known answers by construction: the world's tournaments all end by 2026-10-05 and the
edition of 2026-10-31 published them 40 days ago, so their 30 days are over and every rating
resting on them is definitive. Then A, B and C play ``_body``'s tournament (ending 2026-11-08,
after that edition: not yet published, so open to complaint); their ratings rest on it and are
provisional, everybody else's stay definitive. A complaint about it adds its reason.
"""

from __future__ import annotations

import re
from typing import Any

from tests.api.test_complaints import _player_complaint, _publish
from tests.api.test_submissions import _body, _post
from tests.api.world import World
from tests.db.scenario import recalc

#: the mark of an evaluation not yet published: open to complaint, no edition, no last day
UNPUBLISHED = {"reasons": ["complaint_period"], "edition": None, "until": None}
PLAYED = ("A", "B", "C")


def _played_after_the_edition(world: World) -> int:
    _publish(world, "2026-10-31", days_ago=40)
    answer = _post(world, _body(world))
    assert answer.status_code == 201, answer.text
    assert recalc(world.url).clean
    return int(answer.json()["id"])


def _marks(items: list[dict[str, Any]]) -> dict[int, Any]:
    return {item["pkz"]: item["provisional"] for item in items}


def _world_marks(world: World, items: list[dict[str, Any]]) -> dict[str, Any]:
    by_pkz = _marks(items)
    return {pid: by_pkz[pkz] for pid, pkz in world.pkz.items() if pkz in by_pkz}


def _expected(world: World, shown: dict[str, Any], mark: Any) -> dict[str, Any]:
    return {pid: mark if pid in PLAYED else None for pid in shown}


def test_the_club_list_marks_the_members_whose_rating_is_provisional(fresh: World) -> None:
    tid = _played_after_the_edition(fresh)
    listed = fresh.get("/clubs/C0327/ratings").json()["items"]
    shown = _world_marks(fresh, listed)
    assert set(shown) == {"A", "B", "E", "H"}
    assert shown == _expected(fresh, shown, UNPUBLISHED)
    # as of a day before the tournament: the ratings then rest on published, definitive ones
    before = fresh.get("/clubs/C0327/ratings", at="2026-10-31").json()["items"]
    assert set(_world_marks(fresh, before).values()) == {None}
    filed = _player_complaint(fresh, tid)
    assert filed.status_code == 201, filed.text
    complained = {"reasons": ["complaint_period", "open_complaint"], "edition": None, "until": None}
    again = _world_marks(fresh, fresh.get("/clubs/C0327/ratings").json()["items"])
    assert again == _expected(fresh, again, complained)
    # the club's own token reads the same list with its private fields: the same marks
    own = _world_marks(fresh, fresh.get("/clubs/C0327/ratings", "club_c0327").json()["items"])
    assert own == again


def test_the_top_lists_mark_the_players_whose_rating_is_provisional(fresh: World) -> None:
    _played_after_the_edition(fresh)
    top = _world_marks(fresh, fresh.get("/ratings/top", limit=100).json()["items"])
    assert {"A", "B", "C", "D"} <= set(top)
    assert top == _expected(fresh, top, UNPUBLISHED)
    standard = fresh.get("/ratings/top-lists/all", limit=100)
    assert standard.status_code == 200, standard.text
    listed = _world_marks(fresh, standard.json())
    assert {"A", "B", "C", "D"} <= set(listed)
    assert listed == _expected(fresh, listed, UNPUBLISHED)
    before = fresh.get("/ratings/top", limit=100, at="2026-10-31").json()["items"]
    assert set(_world_marks(fresh, before).values()) == {None}


def _rows_marked(html: str, world: World) -> dict[str, bool]:
    """Per world person linked on the page: whether his line carries the provisional badge."""
    marked = {}
    for line in re.split(r"<tr|<li", html):
        for pid, pkz in world.pkz.items():
            if f'href="/players/{pkz}"' in line:
                marked[pid] = 'data-testid="provisional"' in line
    return marked


def test_the_pages_show_the_mark(fresh: World) -> None:
    _played_after_the_edition(fresh)
    german = {"Accept-Language": "de"}
    club = fresh.client.get("/clubs/C0327", headers=german)
    assert club.status_code == 200, club.text
    assert _rows_marked(club.text, fresh) == {"A": True, "B": True, "E": False, "H": False}
    assert "vorläufig" in club.text
    framed = _rows_marked(fresh.client.get("/embed/clubs/C0327/latest", headers=german).text, fresh)
    assert framed == {"A": True, "B": True, "E": False, "H": False}
    start = _rows_marked(fresh.client.get("/", headers=german).text, fresh)
    federation = _rows_marked(fresh.client.get("/federations/C", headers=german).text, fresh)
    framed_top = _rows_marked(fresh.client.get("/embed/top-lists/all/all/latest", headers=german).text, fresh)
    for shown in (start, federation, framed_top):
        assert shown and shown == {pid: pid in PLAYED for pid in shown}, shown
