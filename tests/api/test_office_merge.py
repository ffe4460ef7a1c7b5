"""Two records of one person merged: a newcomer entered again under a misspelt name plays a
tournament submitted late, between the tournaments of his first record. After the merge every
game is the survivor's, the absorbed number redirects to him, and the time line redone from
the earliest tournament of either equals an evaluation from scratch (``zdb verify``).

Read off the replay vector by hand: D (Schmidt, Dieter) plays tournaments 1 (2026-03-15), 5
and 3 (June) and 4 (2026-09-20); the late tournament LAT ends on 2026-07-15, between them.
"""

from __future__ import annotations

from typing import Any

from click.testing import CliRunner

from tests.api.test_submissions import _games, _post
from tests.api.world import World
from tests.db.scenario import is_clean, recalc
from zdb.cli import main


def _merge(world: World, survivor: int, absorbed: int) -> Any:
    return world.client.post(
        f"/api/v1/players/{survivor}/merge",
        json={"absorb": absorbed},
        headers={"Authorization": f"Bearer {world.tokens['admin']}"},
    )


def test_two_records_on_either_side_of_a_late_tournament_merge_into_one(fresh: World) -> None:
    d = fresh.pkz["D"]
    late = {
        "acronym": "LAT",
        "name": "Sommerturnier",
        "federation": "C03",
        "end_date": "2026-07-15",
        "time_control": "40/5400+30:1800+30",
        "games": _games(4),
        "players": [
            {"pkz": fresh.pkz["A"]},
            {"pkz": fresh.pkz["B"]},
            {"pkz": fresh.pkz["C"]},
            {"surname": "Schmid", "given_name": "Dieter", "sex": "M", "club": "C0327"},
        ],
    }
    submitted = _post(fresh, late)
    assert submitted.status_code == 201, submitted.text
    late_id, twin = submitted.json()["id"], submitted.json()["players"][3]["pkz"]
    assert submitted.json()["players"][3]["created"] is True
    recalc(fresh.url)
    assert is_clean(fresh.url)

    refused = _merge(fresh, fresh.pkz["A"], twin)
    assert refused.status_code == 409 and str(late_id) in refused.json()["detail"]

    merged = _merge(fresh, d, twin)
    assert merged.status_code == 200, merged.text
    # the newcomer's one tournament, and the membership the file's club gave him
    assert merged.json()["participations_moved"] == 1 and merged.json()["memberships_moved"] == 1
    assert merged.json()["recalculation_from"] == {"end_date": "2026-03-15", "tournament_id": 1}
    moved = fresh.client.get(f"/api/v1/players/{twin}?at=2026-08-01", follow_redirects=False)
    assert moved.status_code == 308
    assert moved.headers["location"].endswith(f"/api/v1/players/{d}?at=2026-08-01")

    recalc(fresh.url)
    assert is_clean(fresh.url)
    card = fresh.get(f"/players/{d}").json()
    played = [e["tournament_id"] for e in card["history"] if e.get("tournament_id") is not None]
    assert played.count(late_id) == 1 and played.index(late_id) == 3  # after 1, 5 and 3; before 4
    assert {m["club_code"] for m in card["memberships"]} == {"D0001", "C0327"}
    found = fresh.get("/players", name="Schmid Dieter").json()["items"]
    assert twin not in [p["pkz"] for p in found]
    page = fresh.client.get(f"/players/{twin}", follow_redirects=False)
    assert page.status_code == 301 and page.headers["location"].endswith(f"/players/{d}")
    verified = CliRunner().invoke(main, ["verify", "--database-url", fresh.url])
    assert verified.exit_code == 0, verified.output
    assert "no differences" in verified.output
