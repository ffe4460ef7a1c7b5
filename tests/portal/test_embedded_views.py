"""The views club websites frame and the standard top lists, on both backends: a club's member
list, a player's card and the top lists as small pages that the configured sites may frame
(every other page stays unframeable), and the same lists in the API — equal ratings sharing a
rank (1, 2, 2, 4), ties ordered by DWZ, index and name, age by birth year, guests, unrated and
withheld people left out.

Known answers: the world's constants and the replay vector's final states, ranked by hand."""

from __future__ import annotations

from datetime import UTC, datetime

from fastapi.testclient import TestClient
from sqlalchemy import update

from tests.api.world import MEMBERSHIPS, NAMES, REPLAY, World
from tests.web.html_text import text_of
from zdb.app import create_app
from zdb.config import Settings
from zdb.db import engine_for, unit_of_work
from zdb.players.models import Player
from zdb.timeline.models import PlayerRating

FINAL = REPLAY["expected"]["final_states"]
BIRTH_YEARS = {p["pid"]: p["birth_year"] for e in REPLAY["events"] for p in e.get("players", [])}


def _in(prefix: str) -> list[str]:
    return sorted(
        {pid for pid, held in MEMBERSHIPS.items() for code, *_, until in held if code.startswith(prefix) and not until}
    )


def _top(world: World, kind: str, **params: str) -> list[dict[str, object]]:
    answer = world.get(f"/ratings/top-lists/{kind}", **params)
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_the_top_lists_of_a_federation(world: World) -> None:
    members = _in("C")
    by_rating = sorted(members, key=lambda pid: (-FINAL[pid]["rating"], -FINAL[pid]["index"]))
    rows = _top(world, "all", federation="C")
    assert [world.pid[r["pkz"]] for r in rows] == by_rating
    assert [r["rank"] for r in rows] == list(range(1, len(by_rating) + 1))  # no equal ratings in the vector
    women = [pid for pid in by_rating if NAMES[pid][2] == "F"]
    assert [world.pid[r["pkz"]] for r in _top(world, "women", federation="C")] == women
    year = datetime.now(UTC).year
    old = [pid for pid in by_rating if year - BIRTH_YEARS[pid] >= 50]
    young = [pid for pid in by_rating if year - BIRTH_YEARS[pid] <= 19]
    assert [world.pid[r["pkz"]] for r in _top(world, "50plus", federation="C")] == old
    assert [world.pid[r["pkz"]] for r in _top(world, "u20", federation="C")] == young
    assert world.get("/ratings/top-lists/u18").status_code in (400, 422)
    assert world.get("/ratings/top-lists/all", federation="Z").status_code == 404


def test_equal_ratings_share_a_rank_and_withheld_people_are_left_out(fresh: World) -> None:
    # C0327: A, B, E, H. B is given E's rating with a lower index, H objects to publication.
    with unit_of_work(engine_for(fresh.url)) as session:
        session.execute(
            update(PlayerRating).where(PlayerRating.player_pkz == fresh.pkz["E"]).values(rating=1700, rating_index=20)
        )
        session.execute(
            update(PlayerRating).where(PlayerRating.player_pkz == fresh.pkz["B"]).values(rating=1700, rating_index=5)
        )
        session.execute(update(PlayerRating).where(PlayerRating.player_pkz == fresh.pkz["A"]).values(rating=1800))
        session.execute(update(Player).where(Player.pkz == fresh.pkz["H"]).values(objects_to_publication=True))
    rows = _top(fresh, "all", federation="C03")
    assert [(fresh.pid[r["pkz"]], r["rank"]) for r in rows] == [("A", 1), ("E", 2), ("B", 2)]
    page = fresh.client.get("/embed/top-lists/C03/all/latest")
    assert page.status_code == 200
    shown = text_of(page.text)
    assert shown.index("Müller") < shown.index("Weiß") < shown.index("Mueller") and "Hoffmann" not in shown


def test_the_embedded_views_may_be_framed_and_nothing_else(world: World) -> None:
    for path in (
        "/embed/clubs/C0327/latest",
        f"/embed/players/{world.pkz['A']}/latest",
        "/embed/top-lists/all/women/latest",
    ):
        answer = world.client.get(path)
        assert answer.status_code == 200, path
        assert "frame-ancestors *" in answer.headers["content-security-policy"]
        assert "x-frame-options" not in answer.headers
    for path in ("/", f"/players/{world.pkz['A']}", "/api/v1/ratings/top-lists/all"):
        answer = world.client.get(path)
        assert "frame-ancestors 'none'" in answer.headers["content-security-policy"], path
        assert answer.headers["x-frame-options"] == "DENY"
    settings = Settings(database_url=world.url, embed_frame_ancestors="https://sk-musterstadt.de")
    with TestClient(create_app(settings, recalculation=False)) as client:
        policy = client.get("/embed/clubs/C0327/latest").headers["content-security-policy"]
        assert policy.endswith("frame-ancestors https://sk-musterstadt.de")


def test_the_embedded_views_show_the_current_figures(world: World) -> None:
    club = text_of(world.client.get("/embed/clubs/C0327/latest").text)
    for pid in _in("C0327"):
        assert NAMES[pid][0] in club and str(FINAL[pid]["rating"]) in club
    card = world.client.get(f"/embed/players/{world.pkz['A']}/latest").text
    assert f"{FINAL['A']['rating']}-{FINAL['A']['index']}" in text_of(card)
    assert world.client.get("/embed/clubs/X9999/latest").status_code == 404
    assert world.client.get("/embed/players/99999999/latest").status_code == 404
    assert world.client.get("/embed/top-lists/Z/all/latest").status_code == 404
