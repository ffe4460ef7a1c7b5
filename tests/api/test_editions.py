"""Published editions of the rating list: frozen when published, whatever arrives later.

Known answers from the replay vector: every tournament of it ends by 2026-09-20, so an edition
as of 2026-09-30 holds its expected final states (the world's pending tournament ends in
October). Club C0327's members on that day are A, B, E and H (tests/api/world.py).
"""

from __future__ import annotations

import csv
import io
import zipfile
from datetime import date
from typing import Any

from tests.api.test_submissions import _games, _post
from tests.api.world import REPLAY, World
from tests.db.scenario import recalc
from workers.celery_app import app
from zdb.db import engine_for, unit_of_work
from zdb.editions.service import publish_scheduled_edition

FINAL = REPLAY["expected"]["final_states"]


def _publish(world: World, body: dict[str, Any], token: str = "admin") -> Any:
    return world.client.post("/api/v1/editions", json=body, headers={"Authorization": f"Bearer {world.tokens[token]}"})


def _rows(world: World, name: str, **params: Any) -> dict[str, tuple[int, int]]:
    answer = world.get(f"/editions/{name}/ratings", **params)
    assert answer.status_code == 200, answer.text
    return {world.pid[r["pkz"]]: (r["rating"], r["rating_index"]) for r in answer.json()["items"]}


def test_a_published_edition_stays_as_it_was_while_the_live_list_moves(fresh: World) -> None:
    assert _publish(fresh, {"date": "2026-09-30"}, token="referee_c").status_code == 403
    published = _publish(fresh, {"date": "2026-09-30"})
    assert published.status_code == 201, published.text
    assert published.json()["name"] == "2026-Q4" and published.json()["published_by"] == "admin"
    assert published.headers["location"] == "/api/v1/editions/2026-Q4"
    expected = {pid: (s["rating"], s["index"]) for pid, s in FINAL.items()}
    assert _rows(fresh, "2026-Q4") == expected
    assert set(_rows(fresh, "2026-Q4", club="C0327")) == {"A", "B", "E", "H"}
    again = _publish(fresh, {"date": "2026-09-30"})
    assert again.status_code == 409 and "never change" in again.json()["detail"]

    late = {
        "acronym": "LAT",
        "federation": "C03",
        "end_date": "2026-08-01",
        "time_control": "40/5400+30:1800+30",
        "games": _games(4),
        "players": [{"pkz": fresh.pkz[p]} for p in "ABCD"],
    }
    assert _post(fresh, late).status_code == 201
    pending = _publish(fresh, {"date": "2026-09-30", "name": "2026-Q4-r"})
    assert pending.status_code == 409 and "pending" in pending.json()["detail"]
    recalc(fresh.url)
    live = fresh.get(f"/players/{fresh.pkz['A']}", at="2026-09-30").json()
    assert (live["rating_at"]["rating"], live["rating_at"]["rating_index"]) != expected["A"]
    assert _rows(fresh, "2026-Q4") == expected
    # The card shows the live rating beside the published one.
    card = fresh.get(f"/players/{fresh.pkz['A']}").json()
    assert card["published"] == {
        "edition": "2026-Q4",
        "as_of": "2026-09-30",
        "rating": expected["A"][0],
        "rating_index": expected["A"][1],
    }

    revised = _publish(fresh, {"date": "2026-09-30", "name": "2026-Q4-r"})
    assert revised.status_code == 201, revised.text
    changes = fresh.get("/editions/2026-Q4-r/changes").json()
    moved = {fresh.pid[c["pkz"]]: c for c in changes["items"]}
    # The late tournament moved A to D, and through tournament 4 whoever met them there.
    assert "A" in moved and changes["total"] == len(moved)
    for pid, change in moved.items():
        assert (change["old_rating"], change["old_index"]) == expected[pid]
        assert (change["new_rating"], change["new_index"]) != expected[pid]
    assert (moved["A"]["new_rating"], moved["A"]["new_index"]) == (
        live["rating_at"]["rating"],
        live["rating_at"]["rating_index"],
    )


def test_unknown_query_parameters_are_refused(fresh: World) -> None:
    assert _publish(fresh, {"date": "2026-09-30"}).status_code == 201
    refused = fresh.get("/editions/2026-Q4/ratings", edtion="2026-Q4")
    assert refused.status_code == 400 and "edtion" in refused.json()["detail"]
    assert fresh.get("/editions/2026-Q4/ratings", club="C0327", limit=2).status_code == 200
    assert fresh.get("/editions/2026-Q9").status_code == 404


def test_the_schedule_publishes_each_quarter_once(fresh: World) -> None:
    entry = app.conf.beat_schedule["zdb-quarterly-edition"]
    assert entry["task"] == "zdb.publish_edition"
    assert entry["schedule"].day_of_month == {1} and entry["schedule"].month_of_year == {1, 4, 7, 10}
    with unit_of_work(engine_for(fresh.url)) as session:
        made = publish_scheduled_edition(session, date(2026, 10, 1))
        assert made is not None and (made.name, made.as_of) == ("2026-Q4", date(2026, 9, 30))
    with unit_of_work(engine_for(fresh.url)) as session:
        assert publish_scheduled_edition(session, date(2026, 10, 1)) is None
    assert fresh.get("/editions/2026-Q4").json()["published_by"] == "schedule"


def test_live_lists_answer_as_of_a_date_and_as_published(fresh: World) -> None:
    expected = {pid: (s["rating"], s["index"]) for pid, s in FINAL.items()}

    def top(**params: Any) -> dict[str, tuple[int, int]]:
        answer = fresh.get("/ratings/top", limit=100, **params)
        assert answer.status_code == 200, answer.text
        return {fresh.pid[e["pkz"]]: (e["rating"], e["rating_index"]) for e in answer.json()["items"]}

    # The live list holds the world's October tournament; the list as of September does not.
    assert top() != expected
    assert top(at="2026-09-30") == expected
    assert _publish(fresh, {"date": "2026-09-30"}).status_code == 201
    assert top(edition="2026-Q4") == expected
    assert fresh.get("/ratings/top", at="2026-09-30", edition="2026-Q4").status_code == 422
    assert fresh.get("/ratings/top", edition="2026-Q1").status_code == 404
    assert fresh.get("/ratings/top", year=2026, sort="rating").status_code == 400
    zipped = fresh.client.get("/api/v1/files/rating-list.zip", params={"edition": "2026-Q4"})
    assert zipped.status_code == 200 and zipped.headers["content-type"] == "application/zip"
    # the portal's layout as published too; its ID is the person's external id, the replay's
    portal = fresh.client.get("/api/v1/files/rating-list.zip", params={"edition": "2026-Q4", "layout": "portal"})
    assert portal.status_code == 200
    with zipfile.ZipFile(io.BytesIO(portal.content)) as archive:
        lines = list(csv.DictReader(io.StringIO(archive.read("spieler.csv").decode("cp1252"), newline="")))
    listed = {row["ID"]: (int(row["DWZ"]), int(row["Index"])) for row in lines if row["DWZ"]}
    assert listed and listed == {pid: expected[pid] for pid in listed}
