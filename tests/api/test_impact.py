"""The impact of a recalculation: a tournament submitted late moves its players and, through
the later tournaments they played, others. The known answers are the player cards read before
and after the run (the current ratings), never the impact's own tables."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tests.api.test_submissions import _games, _post
from tests.api.world import NAMES, World
from tests.db.scenario import recalc


def _cards(world: World) -> dict[int, tuple[int, int]]:
    cards = [world.get(f"/players/{world.pkz[pid]}").json() for pid in NAMES]
    return {c["pkz"]: (c["rating"], c["rating_index"]) for c in cards}


def test_a_late_tournament_says_whom_it_moved_and_how_far(fresh: World) -> None:
    before = _cards(fresh)
    late = {
        "acronym": "LAT",
        "federation": "C03",
        "end_date": "2026-08-01",
        "time_control": "40/5400+30:1800+30",
        "games": _games(4),
        "players": [{"pkz": fresh.pkz[p]} for p in "ABCD"],
    }
    submitted = _post(fresh, late)
    assert submitted.status_code == 201, submitted.text
    late_id = submitted.json()["id"]
    assert fresh.get(f"/tournaments/{late_id}/impact").status_code == 404  # not evaluated yet
    since = datetime.now(UTC).replace(microsecond=0) - timedelta(seconds=1)
    recalc(fresh.url)
    after = _cards(fresh)
    moved = {pkz: (before[pkz], after[pkz]) for pkz in after if after[pkz] != before[pkz]}
    largest = max((new[0] - old[0] for old, new in moved.values()), key=abs)

    impact = fresh.get(f"/tournaments/{late_id}/impact").json()
    assert impact["moved"] == len(moved) and impact["largest_change"] == largest
    assert f"moved {len(moved)} players; the largest change {largest:+d}" in impact["summary"]
    changes = fresh.get(f"/recalculation/runs/{impact['id']}/changes").json()
    assert changes["total"] == len(moved)
    for change in changes["items"]:
        old, new = moved[change["pkz"]]
        assert (change["old_rating"], change["old_index"], change["new_rating"], change["new_index"]) == (*old, *new)
    assert abs(changes["items"][0]["change"]) == abs(largest)
    assert fresh.get("/recalculation/runs").json()["items"][0]["id"] == impact["id"]
    # The change feed carries the values before beside the new ones.
    feed = fresh.get("/ratings/changes", changed_since=since.isoformat()).json()["items"]
    fed = {c["pkz"]: ((c["old_rating"], c["old_index"]), (c["rating"], c["rating_index"])) for c in feed}
    assert {pkz: fed[pkz] for pkz in moved} == moved
    # The pages say it in German: the tournament's, and the recalculation's.
    page = " ".join(fresh.client.get(f"/tournaments/{late_id}").text.split())
    shown = f"+{largest}" if largest > 0 else f"\u2212{-largest}"  # a real minus sign
    assert (
        f"Die letzte Auswertung des Turniers hat die Wertungszahlen von {len(moved)} Spielern verändert. "
        f"Die größte Änderung: {shown}." in page
    )
    assert shown in fresh.client.get("/recalculation").text
