"""Tournaments and histories through the portal door (scope ``dsb_tournament``), on both
backends: the list by rating state, period and ``vkz`` prefix with paging, one tournament, its
evaluation with the portal's display strings, its matches with White's expectation, a person's
history newest first with the 2026 conversion as an upgrade, and the 401, 400 and 404 answers.

Known answers: the replay vector (``vectors.json``: its reports, histories and events) and the
world's constants (``tests/api/world.py``); White's expectation worked out with spec §4's
P(D) = ½(1 + erf(D/400)) from the vector's ratings before the tournament."""

from __future__ import annotations

from math import erf
from typing import Any

import pytest
from sqlalchemy import update

from tests.api.world import LATE, PENDING, REPLAY, TOURNAMENTS, WITHDRAWN, World
from tests.portal.portal import RS, bearer
from zdb.db import engine_for, unit_of_work
from zdb.timeline.models import Evaluation

EVENTS = {event["id"]: event for event in REPLAY["events"]}
REPORTS = REPLAY["expected"]["reports"]
HISTORY = REPLAY["expected"]["history"]


@pytest.fixture(scope="module")
def auth(world: World) -> dict[str, str]:
    return bearer(world, "tournament-reader", ["dsb_tournament"])


def _get(world: World, auth: dict[str, str], path: str, **params: Any) -> Any:
    answer = world.client.get(f"{RS}{path}", params=params, headers=auth)
    assert answer.status_code == 200, answer.text
    return answer.json()


def _uuids(body: Any) -> list[str]:
    return [item["uuid"] for item in body["data"]]


def test_tournaments_by_rating_state(world: World, auth: dict[str, str]) -> None:
    rated = _get(world, auth, "/dwz/tournaments", ratingState="RATED")
    assert set(_uuids(rated)) == {str(tid) for tid in EVENTS}
    assert rated["metadata"] == {"totalCount": len(EVENTS)}
    # submitted after the recalculation and not yet evaluated; withdrawn
    assert _uuids(_get(world, auth, "/dwz/tournaments", ratingState="PENDING")) == [str(PENDING)]
    assert _uuids(_get(world, auth, "/dwz/tournaments", ratingState="UNRATED")) == [str(WITHDRAWN)]
    every = _get(world, auth, "/dwz/tournaments")
    ends = [item["enddate"] for item in every["data"]]
    assert ends == sorted(ends, reverse=True) and len(ends) == len(EVENTS) + len(LATE)


def test_tournaments_by_period_and_vkz_with_paging(world: World, auth: dict[str, str]) -> None:
    june = _get(world, auth, "/dwz/tournaments", fromDate="2026-06-01", toDate="2026-06-30")
    assert set(_uuids(june)) == {str(tid) for tid, e in EVENTS.items() if e["end_date"].startswith("2026-06")}
    region_c = _get(world, auth, "/dwz/tournaments", vkz="C")
    assert set(_uuids(region_c)) == {str(tid) for tid, (fed, _) in TOURNAMENTS.items() if fed.startswith("C")}
    whole = _uuids(_get(world, auth, "/dwz/tournaments"))
    paged = [
        u
        for offset in range(0, len(whole), 3)
        for u in _uuids(_get(world, auth, "/dwz/tournaments", limit=3, offset=offset))
    ]
    assert paged == whole


def test_one_tournament_is_flat(world: World, auth: dict[str, str]) -> None:
    one = _get(world, auth, "/dwz/tournaments/1")
    event = EVENTS[1]
    assert one["uuid"] == "1" and one["label"] == TOURNAMENTS[1][1] and one["vkz"] == TOURNAMENTS[1][0]
    assert one["enddate"] == event["end_date"]
    assert one["playerCount"] == len(event["players"]) and one["matchCount"] == len(event["games"])
    assert one["ratingState"] == "RATED"
    assert None not in one.values()


def test_the_evaluation_as_the_portal_shows_it(world: World, auth: dict[str, str]) -> None:
    body = _get(world, auth, "/dwz/tournaments/1/evaluation")
    assert body["tournament"]["uuid"] == "1"
    by_id = {player["personId"]: player for player in body["players"]}
    for row in REPORTS["1"]:
        shown = by_id[row["pid"]]
        # an unrated player's old value (and expectation) is an empty text
        assert shown["ratingOldDisplayString"] == ("" if row["r0"] is None else f"{row['r0']}-{row['i0']}")
        assert shown["ratingNewDisplayString"] == ("" if row["rn"] is None else f"{row['rn']}-{row['i_new']}")
        assert shown["wins"] == row["W"] and shown["numberOfGames"] == row["n"]
        expected = "" if row["We"] is None else f"{row['We']:.3f}".replace(".", ",")
        assert shown["winsExpectedDisplayString"] == expected
        assert shown["member"] is row["member"]
    assert _get(world, auth, f"/dwz/tournaments/{PENDING}/evaluation")["players"] == []


def test_a_non_members_new_value_is_in_brackets(fresh: World) -> None:
    # The vector has no non-member: one evaluation row is made a non-member's here.
    with unit_of_work(engine_for(fresh.url)) as session:
        session.execute(
            update(Evaluation)
            .where(Evaluation.tournament_id == 1, Evaluation.player_pkz == fresh.pkz["B"])
            .values(member=False)
        )
    auth = bearer(fresh, "brackets", ["dsb_tournament"])
    shown = {p["personId"]: p for p in _get(fresh, auth, "/dwz/tournaments/1/evaluation")["players"]}
    (row,) = [row for row in REPORTS["1"] if row["pid"] == "B"]
    assert shown["B"]["ratingNewDisplayString"] == f"({row['rn']}-{row['i_new']})"
    assert shown["B"]["member"] is False
    assert not shown["A"]["ratingNewDisplayString"].startswith("(")


def test_matches_carry_whites_expectation(world: World, auth: dict[str, str]) -> None:
    body = _get(world, auth, "/dwz/tournaments/1/matches")
    games = EVENTS[1]["games"]
    assert body["metadata"] == {"totalCount": len(games)}
    before = {row["pid"]: row["r0"] for row in REPORTS["1"]}
    names = {"1-0": "WHITE_WINS", "0-1": "BLACK_WINS", "1/2-1/2": "REMIS", "+-": "PLUS_MINUS", "-+": "MINUS_PLUS"}
    assert len(body["data"]) == len(games)
    for game, shown in zip(games, body["data"], strict=True):
        assert shown["whitePlayer"]["personId"] == game["white"] and shown["blackPlayer"]["personId"] == game["black"]
        assert shown["result"] == names[game["result"]]
        rated = before[game["white"]] is not None and before[game["black"]] is not None
        if game["result"] in ("1-0", "0-1", "1/2-1/2") and rated:
            difference = before[game["white"]] - before[game["black"]]
            assert shown["expected"] == round(0.5 * (1 + erf(difference / 400)), 3)
        else:
            assert "expected" not in shown
    two = _get(world, auth, "/dwz/tournaments/1/matches", limit=2, offset=2)["data"]
    assert two == body["data"][2:4]


def test_a_persons_history_newest_first_with_the_conversion_as_an_upgrade(world: World, auth: dict[str, str]) -> None:
    body = _get(world, auth, "/dwz/persons/A/history")
    assert body["person"]["nuLigaPersonId"] == "A"
    tournaments = [e for e in HISTORY["A"] if e["event"] != "conversion-2026"]
    assert [entry["tournament"]["uuid"] for entry in body["entries"]] == [
        str(e["event"]) for e in reversed(tournaments)
    ]
    for entry, event in zip(body["entries"], reversed(tournaments), strict=True):
        assert entry["tournament"]["enddate"] == event["date"]
        player = entry["player"]
        assert [player["ratingOld"], player["indexOld"]] == event["old"]
        assert [player["ratingNew"], player["indexNew"]] == event["new"]
    (conversion,) = [e for e in HISTORY["A"] if e["event"] == "conversion-2026"]
    (upgrade,) = body["upgrades"]
    assert upgrade["referenceDate"] == conversion["date"]
    assert [upgrade["ratingOld"], upgrade["indexOld"], upgrade["ratingNew"], upgrade["indexNew"]] == [
        *conversion["old"],
        *conversion["new"],
    ]


def test_without_a_token_the_tournament_paths_are_401(world: World) -> None:
    for path in ("/dwz/tournaments", "/dwz/tournaments/1", "/dwz/tournaments/1/evaluation", "/dwz/persons/A/history"):
        answer = world.client.get(f"{RS}{path}")
        assert answer.status_code == 401, path
        assert answer.json()["error"] == "unauthorized"


@pytest.mark.parametrize(
    ("path", "params", "status", "named"),
    [
        ("/dwz/tournaments", {"fromDate": "2026-13-01"}, 400, "fromDate"),
        ("/dwz/tournaments", {"toDate": "20.09.2026"}, 400, "toDate"),
        ("/dwz/tournaments", {"ratingState": "DONE"}, 400, "ratingState"),
        ("/dwz/tournaments", {"limit": "0"}, 400, "limit"),
        ("/dwz/tournaments/1/matches", {"round": "first"}, 400, "round"),
        ("/dwz/tournaments/999/evaluation", {}, 404, None),
        ("/dwz/tournaments/not-a-uuid", {}, 404, None),
        ("/dwz/tournaments/999/matches", {}, 404, None),
        ("/dwz/persons/NU999/history", {}, 404, None),
    ],
)
def test_bad_input(  # noqa: PLR0917 - pytest passes the parameters by position
    world: World, auth: dict[str, str], path: str, params: dict[str, str], status: int, named: str | None
) -> None:
    answer = world.client.get(f"{RS}{path}", params=params, headers=auth)
    assert answer.status_code == status
    body = answer.json()
    assert set(body) == {"error", "error_description"}
    if named is not None:
        assert body["error_description"].startswith(f"{named}: ")
