"""The club pull and the club's CSV as of a day (``at=``) and as published (``edition=``).

Known answers from the replay vector: every tournament of it ends by 2026-09-20, so the lists as
of 2026-09-30 hold its expected final states. Club C0327's members on that day are A, B, E and H;
H left D0001 at the end of 2020, so D0001's members in mid-2020 are D, F and H (tests/api/world.py).
"""

from __future__ import annotations

from typing import Any

from tests.api.test_editions import FINAL, _publish
from tests.api.world import World

EXPECTED = {pid: (s["rating"], s["index"]) for pid, s in FINAL.items()}


def _pull(world: World, code: str, **params: Any) -> dict[str, tuple[int | None, int | None]]:
    answer = world.get(f"/clubs/{code}/ratings", **params)
    assert answer.status_code == 200, answer.text
    return {world.pid[m["pkz"]]: (m["rating"], m["rating_index"]) for m in answer.json()["items"]}


def _csv(world: World, code: str, **params: Any) -> dict[str, tuple[int | None, int | None]]:
    answer = world.client.get(f"/api/v1/clubs/{code}/members.csv", params=params)
    assert answer.status_code == 200, answer.text
    fields = [line.split("|") for line in answer.content.decode().split("\r\n")[1:-1]]
    return {world.pid[int(f[0])]: (int(f[7]) if f[7] else None, int(f[8]) if f[8] else None) for f in fields}


def test_the_club_pull_as_of_a_day_and_as_published(fresh: World) -> None:
    c0327 = {pid: EXPECTED[pid] for pid in "ABEH"}
    assert _pull(fresh, "C0327", at="2026-09-30") == c0327
    assert _csv(fresh, "C0327", at="2026-09-30") == c0327
    assert _publish(fresh, {"date": "2026-09-30"}).status_code == 201
    assert _pull(fresh, "C0327", edition="2026-Q4") == c0327
    assert _csv(fresh, "C0327", edition="2026-Q4") == c0327
    # the members of the list's day, not today's
    assert set(_pull(fresh, "D0001")) == set(_csv(fresh, "D0001")) == {"D", "F"}
    assert set(_pull(fresh, "D0001", at="2020-06-01")) == set(_csv(fresh, "D0001", at="2020-06-01")) == {"D", "F", "H"}
    paged = fresh.get("/clubs/C0327/ratings", at="2026-09-30", limit=2, offset=3).json()
    assert [fresh.pid[m["pkz"]] for m in paged["items"]] == ["H"] and paged["total"] == 4


def test_the_club_pull_refuses_what_it_cannot_answer(fresh: World) -> None:
    both = fresh.get("/clubs/C0327/ratings", at="2026-09-30", edition="2026-Q4")
    assert both.status_code == 422
    polled = fresh.get("/clubs/C0327/ratings", at="2026-09-30", changed_since="2026-01-01T00:00:00Z")
    assert polled.status_code == 422 and "changed_since" in polled.text
    assert fresh.get("/clubs/C0327/ratings", edition="2026-Q1").status_code == 404
    assert fresh.client.get("/api/v1/clubs/C0327/members.csv", params={"edition": "2026-Q1"}).status_code == 404
    assert fresh.get("/clubs/Z9999/ratings", at="2026-09-30").status_code == 404
