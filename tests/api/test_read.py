"""The read side through the API, on both backends: every figure the API shows is compared with
vectors.json (through the replay that built the world) or derived from the world's own data."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

import pytest

from tests.api.world import CLUBS, LATE, MEMBERSHIPS, NAMES, PENDING, REPLAY, WITHDRAWN, World
from tests.vector_compare import WE_TOLERANCE, assert_rows
from zdb.rating import ResultCode, expected_score

EXPECTED = REPLAY["expected"]
EVENTS = {e["id"]: e for e in REPLAY["events"] if "id" in e}
BIRTH_YEARS = {p["pid"]: p["birth_year"] for e in REPLAY["events"] for p in e.get("players", [])}


def _vector_row(row: dict[str, Any], world: World) -> dict[str, Any]:
    """An API report row in the vectors' row format."""
    return {
        "pid": world.pid[row["pkz"]],
        "member": row["member"],
        "stage": row["stage"],
        "fide_start": row["fide_start"],
        "r0": row["r0"],
        "i0": row["i0"],
        "W": row["w"],
        "n": row["n"],
        "unrated_games": row["unrated_games"],
        "We": row["we"],
        "E": row["e"],
        "K": row["k"],
        "Rh": row["rh"],
        "sonder": row["sonder"],
        "rn": row["rn"],
        "i_new": row["i_new"],
        "stored": row["stored"],
        "leftover_used": row["leftover_used"],
        "leftover_stored": row["leftover_stored"],
    }


def _pids(world: World, items: list[dict[str, Any]]) -> set[str]:
    return {world.pid[item["pkz"]] for item in items}


# -- players -----------------------------------------------------------------------------------


@pytest.mark.parametrize("query", ["Müller", "Mueller", "muller", "MÜLLER", "  müller "])
def test_name_search_ignores_case_accents_and_umlauts(world: World, query: str) -> None:
    answer = world.get("/players", name=query).json()
    assert _pids(world, answer["items"]) == {"A", "B", "C"}
    assert answer["total"] == 3


def test_name_search_by_several_words_and_folded_letters(world: World) -> None:
    assert _pids(world, world.get("/players", name="Müller, Anna").json()["items"]) == {"A"}
    assert _pids(world, world.get("/players", name="weiss").json()["items"]) == {"E"}
    assert _pids(world, world.get("/players", name="Oeztuerk").json()["items"]) == {"F"}
    assert _pids(world, world.get("/players", name="gross gerd").json()["items"]) == {"G"}
    assert world.get("/players", name="100%_").json()["total"] == 0  # LIKE wildcards are literal


def test_search_by_club_and_fide_id(world: World) -> None:
    members = {pid for pid, ms in MEMBERSHIPS.items() for club, _, _, until in ms if club == "C0327" and until is None}
    assert _pids(world, world.get("/players", club="C0327").json()["items"]) == members
    (found,) = world.get("/players", fide_id=4600003).json()["items"]
    assert world.pid[found["pkz"]] == "C" and found["fide_id"] == 4600003
    assert [c["club_code"] for c in found["clubs"]] == ["C0101"]


def test_search_pages_carry_the_total(world: World) -> None:
    everyone = world.get("/players", limit=100).json()
    assert everyone["total"] == len(NAMES) == len(everyone["items"])
    page = world.get("/players", limit=3, offset=6).json()
    assert page["total"] == len(NAMES) and (page["limit"], page["offset"]) == (3, 6)
    assert [p["pkz"] for p in page["items"]] == [p["pkz"] for p in everyone["items"][6:9]]


def test_search_result_shows_the_current_rating(world: World) -> None:
    for item in world.get("/players", limit=100).json()["items"]:
        final = EXPECTED["final_states"][world.pid[item["pkz"]]]
        assert (item["rating"], item["rating_index"]) == (final["rating"], final["index"])
        assert item["birth_year"] == BIRTH_YEARS.get(world.pid[item["pkz"]])
        assert "birth_date" not in item


@pytest.mark.parametrize("pid", sorted(NAMES))
def test_player_card_history_equals_the_replay(world: World, pid: str) -> None:
    card = world.get(f"/players/{world.pkz[pid]}").json()
    final = EXPECTED["final_states"][pid]
    assert (card["rating"], card["rating_index"]) == (final["rating"], final["index"])
    expected = EXPECTED["history"].get(pid, [])
    assert len(card["history"]) == len(expected)
    for got, want in zip(card["history"], expected, strict=True):
        assert got["date"] == want["date"]
        if isinstance(want["event"], int):
            assert (got["kind"], got["tournament_id"], got["event"]) == ("tournament", want["event"], want["acronym"])
            assert got["stored"] == want["evaluated"]
            (row,) = (r for r in EXPECTED["reports"][str(want["event"])] if r["pid"] == pid)
            assert_rows([row], [_vector_row({**got["evaluation"], "pkz": card["pkz"]}, world)], f"{pid} {want}")
        else:
            assert (got["kind"], got["event"], got["evaluation"]) == ("conversion", want["event"], None)
        for side in ("old", "new"):
            rating, index = want[side]
            assert got[f"{side}_rating"] == rating
            assert got[f"{side}_index"] == (None if rating is None else index)


def test_rating_at_any_date(world: World) -> None:
    for pid, history in EXPECTED["history"].items():
        initial = REPLAY["initial_states"].get(pid, {"rating": None, "index": 0})
        before = world.get(f"/players/{world.pkz[pid]}", at="2000-01-01").json()["rating_at"]
        assert before == {
            "on": "2000-01-01",
            "rating": initial["rating"],
            "rating_index": None if initial["rating"] is None else initial["index"],
            "since": None,
            "event": None,
        }
        for entry in history:
            at = world.get(f"/players/{world.pkz[pid]}", at=entry["date"]).json()["rating_at"]
            last = [e for e in history if e["date"] <= entry["date"]][-1]
            assert (at["rating"], at["since"]) == (last["new"][0], last["date"])
    assert world.get(f"/players/{world.pkz['A']}").json()["rating_at"] is None


def test_memberships_current_and_past(world: World) -> None:
    card = world.get(f"/players/{world.pkz['H']}").json()
    assert [(m["club_code"], m["valid_until"]) for m in card["memberships"]] == [
        (club, None if until is None else until.isoformat())
        for club, _, _, until in sorted(MEMBERSHIPS["H"], key=lambda m: m[0])
    ]
    assert world.get(f"/players/{world.pkz['G']}").json()["memberships"] == []


# -- tournaments -------------------------------------------------------------------------------


def _ids(world: World, **params: Any) -> set[int]:
    answer = world.get("/tournaments", limit=100, **params).json()
    assert answer["total"] == len(answer["items"])
    return {t["id"] for t in answer["items"]}


def test_tournament_list_filters(world: World) -> None:
    everything = set(EVENTS) | {WITHDRAWN, PENDING}
    assert _ids(world) == everything
    ends = {tid: e["end_date"] for tid, e in EVENTS.items()}
    assert _ids(world, **{"from": "2026-06-07", "to": "2026-06-08"}) == {
        t for t, d in ends.items() if "2026-06-07" <= d <= "2026-06-08"
    }
    assert _ids(world, federation="C") == {1, 2, 4}
    assert _ids(world, federation="C0") == {1, 2}
    assert _ids(world, q="musterstadt") == {1}
    assert _ids(world, q="opn") == {3}
    assert _ids(world, status="withdrawn") == {WITHDRAWN}
    assert _ids(world, status="received") == {PENDING}
    assert _ids(world, status="evaluating") == set()
    assert _ids(world, status="evaluated") == set(EVENTS)


def test_tournament_list_pages_latest_first(world: World) -> None:
    everything = world.get("/tournaments").json()["items"]
    assert [t["end_date"] for t in everything] == sorted((t["end_date"] for t in everything), reverse=True)
    page = world.get("/tournaments", limit=2, offset=2).json()
    assert page["total"] == len(everything) and [t["id"] for t in page["items"]] == [t["id"] for t in everything[2:4]]
    first = next(t for t in everything if t["id"] == 1)
    assert first["players"] == len(EVENTS[1]["players"]) and first["evaluated_version"] == 1
    assert first["start_date"] is None and first["time_control"] is None


def test_one_tournament(world: World) -> None:
    detail = world.get(f"/tournaments/{WITHDRAWN}").json()
    assert detail["status"] == "withdrawn" and detail["withdrawn_at"] is not None
    assert [v["version"] for v in detail["versions"]] == [1]
    assert world.get("/tournaments/4").json()["withdrawn_at"] is None


@pytest.mark.parametrize("tournament_id", [int(t) for t in EXPECTED["reports"]])
def test_evaluation_report_equals_the_replay(world: World, tournament_id: int) -> None:
    report = world.get(f"/tournaments/{tournament_id}/evaluation").json()
    assert report["current"] and report["version"] == 1
    rows = [_vector_row(row, world) for row in report["rows"]]
    assert_rows(EXPECTED["reports"][str(tournament_id)], rows, str(tournament_id))
    assert {r["rule_set"] for r in report["rows"]} == {report["rule_set"]}


def test_a_pending_tournament_has_no_report_yet(world: World) -> None:
    report = world.get(f"/tournaments/{PENDING}/evaluation").json()
    assert (report["version"], report["current"], report["rule_set"], report["rows"]) == (None, False, None, [])
    assert report["tournament"]["status"] == "received"


@pytest.mark.parametrize("tournament_id", sorted(EVENTS))
def test_crosstable(world: World, tournament_id: int) -> None:
    table = world.get(f"/tournaments/{tournament_id}/crosstable").json()
    event = EVENTS[tournament_id]
    assert [world.pid[r["pkz"]] for r in table["rows"]] == [p["pid"] for p in event["players"]]
    assert [r["start_no"] for r in table["rows"]] == list(range(1, len(event["players"]) + 1))
    assert sum(len(r["games"]) for r in table["rows"]) == 2 * len(event["games"])
    points = dict.fromkeys((p["pid"] for p in event["players"]), 0.0)
    for game in event["games"]:
        code = ResultCode(game["result"])
        points[game["white"]] += code.white_points
        points[game["black"]] += code.black_points
    r0 = {r["pid"]: r["r0"] for r in EXPECTED["reports"][str(tournament_id)]}
    for row in table["rows"]:
        pid = world.pid[row["pkz"]]
        assert row["points"] == points[pid] and row["rating"] == r0[pid]
        for game in row["games"]:
            opponent = table["rows"][game["opponent"] - 1]
            assert any(g["opponent"] == row["start_no"] and g["result"] == game["result"] for g in opponent["games"])


# -- the explanation -----------------------------------------------------------------------------


@pytest.mark.parametrize("tournament_id", [int(t) for t in EXPECTED["reports"]])
def test_explanation_figures_equal_the_stored_evaluation(world: World, tournament_id: int) -> None:
    for want in EXPECTED["reports"][str(tournament_id)]:
        got = world.get(f"/tournaments/{tournament_id}/players/{world.pkz[want['pid']]}/explanation").json()
        assert got["matches_stored"], (tournament_id, want["pid"])
        assert_rows([want], [_vector_row({**got["figures"], "pkz": got["pkz"]}, world)], str(tournament_id))
        rated = [g for g in got["games"] if g["rated"]]
        assert len(rated) == want["n"] and sum(g["points"] for g in rated) == want["W"]
        if want["We"] is None:
            assert got["we_exact"] is None and got["classic"] is None and got["wo2026"] is None
            continue
        for game in rated:
            assert game["difference"] == want["r0"] - game["opponent_rating"]
            assert game["expected"] == expected_score(game["difference"])
        assert abs(sum(g["expected"] for g in rated) - want["We"]) <= WE_TOLERANCE
        if got["rule_set"] == "classic":
            terms = got["classic"]
            assert terms["e"] == want["E"] and terms["rn"] == want["rn"]
            assert terms["e"] == min(max(terms["e_min"], terms["e_unbounded"]), terms["cap"])
        else:
            terms = got["wo2026"]
            assert terms["k"] == want["K"] and terms["rn"] == want["rn"]
            assert terms["k_exact"] == pytest.approx(terms["k0"] * terms["b"] + terms["a"])


def test_explanation_of_a_newcomer_names_his_opponents_ratings(world: World) -> None:
    (newcomer,) = (r for r in EXPECTED["reports"]["3"] if r["stage"] != "established")
    got = world.get(f"/tournaments/3/players/{world.pkz[newcomer['pid']]}/explanation").json()
    assert got["stage"] == newcomer["stage"] and got["matches_stored"]
    r0 = {r["pid"]: r["r0"] for r in EXPECTED["reports"]["3"]}
    for game in got["games"]:
        assert game["expected"] is None
        assert game["opponent_rating"] == r0[world.pid[game["opponent_pkz"]]]


def test_explanation_refusals(world: World) -> None:
    pending = world.get(f"/tournaments/{PENDING}/players/{world.pkz['A']}/explanation")
    assert pending.status_code == 409 and pending.json()["type"].endswith("/conflict")
    outsider = next(pid for pid in NAMES if pid not in {p["pid"] for p in EVENTS[1]["players"]})
    assert world.get(f"/tournaments/1/players/{world.pkz[outsider]}/explanation").status_code == 404
    assert world.get(f"/tournaments/99/players/{world.pkz['A']}/explanation").status_code == 404


# -- federations, clubs, top lists ---------------------------------------------------------------


def test_federation_subtree(world: World) -> None:
    assert [f["prefix"] for f in world.get("/federations", under="C").json()["items"]] == ["C", "C01", "C03"]
    tree = world.get("/federations").json()
    assert tree["total"] == 5 and tree["items"][0] == {
        "prefix": "",
        "name": "Deutscher Schachbund",
        "level": 0,
        "parent_prefix": None,
    }
    page = world.get("/federations", limit=2, offset=1).json()
    assert page["total"] == 5 and [f["prefix"] for f in page["items"]] == ["C", "C01"]


def test_clubs(world: World) -> None:
    assert [c["code"] for c in world.get("/clubs", federation="C").json()["items"]] == ["C0101", "C0327"]
    assert [c["code"] for c in world.get("/clubs", q="delta").json()["items"]] == ["D0001"]
    assert world.get("/clubs").json()["total"] == len(CLUBS)
    club = world.get("/clubs/C0327").json()
    current = [m for ms in MEMBERSHIPS.values() for m in ms if m[0] == "C0327" and m[3] is None]
    assert club["members"] == len(current)
    assert club["active_members"] == sum(1 for m in current if m[2] == "active")
    assert world.get("/clubs/X9999").status_code == 404


def _current(pid: str, prefix: str = "", status: str | None = None) -> bool:
    return any(
        club.startswith(prefix) and until is None and (status is None or state == status)
        for club, _, state, until in MEMBERSHIPS.get(pid, [])
    )


def test_top_list(world: World) -> None:
    top = world.get("/ratings/top").json()
    ratings = [e["rating"] for e in top["items"]]
    assert ratings == sorted((s["rating"] for s in EXPECTED["final_states"].values()), reverse=True)
    assert [e["rank"] for e in top["items"]] == [1 + ratings.index(r) for r in ratings]
    assert top["total"] == len(EXPECTED["final_states"])

    def pids(**params: Any) -> set[str]:
        return _pids(world, world.get("/ratings/top", **params).json()["items"])

    assert pids(federation="D") == {p for p in NAMES if _current(p, "D")}
    assert pids(federation="C", active=True) == {p for p in NAMES if _current(p, "C", "active")}
    assert pids(federation="C", active=False) == {
        p for p in NAMES if _current(p, "C") and not _current(p, "C", "active")
    }
    assert pids(sex="F") == {p for p, (_, _, sex) in NAMES.items() if sex == "F"}
    assert pids(year=2026, age_max=20) == {p for p, y in BIRTH_YEARS.items() if y is not None and 2026 - y <= 20}
    assert pids(year=2026, age_min=40, age_max=60) == {
        p for p, y in BIRTH_YEARS.items() if y is not None and 40 <= 2026 - y <= 60
    }
    page = world.get("/ratings/top", limit=2, offset=2).json()
    assert [e["pkz"] for e in page["items"]] == [e["pkz"] for e in top["items"][2:4]]


# -- club software ---------------------------------------------------------------------------------


def _year_week(day: str) -> str:
    year, week, _ = date.fromisoformat(day).isocalendar()
    return f"{year}-W{week:02d}"


def test_club_ratings(world: World) -> None:
    answer = world.get("/clubs/C0327/ratings").json()
    members = sorted(
        (number, pid)
        for pid, ms in MEMBERSHIPS.items()
        for club, number, _, until in ms
        if club == "C0327" and until is None
    )
    assert [world.pid[m["pkz"]] for m in answer["items"]] == [pid for _, pid in members]
    assert answer["total"] == len(members)
    for member in answer["items"]:
        pid = world.pid[member["pkz"]]
        final = EXPECTED["final_states"][pid]
        assert (member["rating"], member["rating_index"]) == (final["rating"], final["index"])
        evaluated = [e["date"] for e in EXPECTED["history"][pid] if e.get("evaluated")]
        assert member["last_evaluation_end_date"] == evaluated[-1]
        assert member["last_evaluation"] == _year_week(evaluated[-1])
        assert member["fide_id"] == world.get(f"/players/{member['pkz']}").json()["fide_id"]
    assert world.get("/clubs/X9999/ratings").status_code == 404


def test_club_ratings_changed_since(world: World) -> None:
    everyone = world.get("/clubs/C0327/ratings").json()
    assert world.get("/clubs/C0327/ratings", changed_since="2000-01-01").json()["total"] == everyone["total"]
    latest = max(m["rating_changed_at"] for m in everyone["items"])
    assert world.get("/clubs/C0327/ratings", changed_since=latest).json()["total"] >= 1  # inclusive
    assert world.get("/clubs/C0327/ratings", changed_since="2999-01-01T00:00:00Z").json()["total"] == 0


def test_change_feed(world: World) -> None:
    feed = world.get("/ratings/changes", changed_since="2000-01-01T00:00:00+02:00").json()
    assert feed["total"] == len(EXPECTED["final_states"])
    following = datetime.fromisoformat(feed["next_changed_since"])
    assert all(datetime.fromisoformat(i["changed_at"]) <= following for i in feed["items"])
    again = world.get("/ratings/changes", changed_since=feed["next_changed_since"]).json()
    assert 1 <= again["total"] <= feed["total"]
    assert _pids(world, world.get("/ratings/changes", changed_since="2000-01-01", federation="D").json()["items"]) == {
        p for p in NAMES if _current(p, "D")
    }
    assert world.get("/ratings/changes").status_code == 422


# -- the recalculation -------------------------------------------------------------------------------


def test_recalculation_status(world: World) -> None:
    status = world.get("/recalculation").json()
    assert status["state"] == "pending" and status["progress"] is None and status["running_since"] is None
    acronym, end_date = LATE[WITHDRAWN]  # the earlier of the two late tournaments
    assert status["dirty_position"] == {"date": end_date, "phase": 1, "text": acronym, "id": WITHDRAWN}
    assert status["last_run"]["evaluated"] == len(EXPECTED["reports"])
    assert status["last_run"]["error"] is None and status["last_run"]["finished_at"] is not None
