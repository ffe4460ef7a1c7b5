"""The rating list's persons through the portal door (``/dwz/dwzliste/persons``), on both
backends: the search by ``vkz`` prefix, folded names, gender and age by birth year, paging by
``limit``/``offset`` and by ``page``/``size``, absent keys for absent values, one person, a
merged record answering as its survivor, and the 400s and 404 in the portal's shape.

Known answers: the world's constants (``tests/api/world.py``) and the replay vector's final
states (``vectors.json``)."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

import pytest
from sqlalchemy import update

from tests.api.world import MEMBERSHIPS, NAMES, REPLAY, World
from tests.portal.portal import RS
from zdb.db import engine_for, unit_of_work
from zdb.players.models import Membership, Player

FINAL = REPLAY["expected"]["final_states"]
BIRTH_YEARS = {p["pid"]: p["birth_year"] for e in REPLAY["events"] for p in e.get("players", [])}
#: people with a current membership: the rating list
MEMBERS = {pid for pid, held in MEMBERSHIPS.items() if any(until is None for *_, until in held)}


def _persons(world: World, **params: Any) -> Any:
    answer = world.client.get(f"{RS}/dwz/dwzliste/persons", params=params)
    assert answer.status_code == 200, answer.text
    return answer.json()


def _ids(body: Any) -> set[str]:
    return {person["nuLigaPersonId"] for person in body["data"]}


def _in(prefix: str) -> set[str]:
    return {
        pid
        for pid, held in MEMBERSHIPS.items()
        for code, *_, until in held
        if until is None and code.startswith(prefix)
    }


@pytest.mark.parametrize("vkz", ["C", "C03", "C0327", "D", "C0101"])
def test_vkz_is_a_prefix_of_the_club_code(world: World, vkz: str) -> None:
    body = _persons(world, vkz=vkz)
    assert _ids(body) == _in(vkz)
    assert body["metadata"] == {"totalCount": len(_in(vkz))}


def test_a_person_carries_the_lists_figures_and_his_current_memberships(world: World) -> None:
    (anna,) = _persons(world, vkz="C0327", lastname="Müller", firstname="Anna")["data"]
    assert anna == {
        "uuid": "A",
        "nuLigaPersonId": "A",
        "firstname": "Anna",
        "lastname": "Müller",
        "birthyear": BIRTH_YEARS["A"],
        "gender": "W",
        "fideId": 4600001,
        "rating": FINAL["A"]["rating"],
        "index": FINAL["A"]["index"],
        # her last tournament (BLZ) ended on 2026-09-20: ISO week 38
        "weekOfLastTournamentEvaluation": "202638",
        "memberships": [
            {
                "vkz": "C0327",
                "memberNo": "1",
                "clubName": "SK Musterstadt 1920",
                "licenceState": "A",
                "regionName": "Bezirk C03",
                "federationName": "Region C",
            }
        ],
    }
    assert world.client.get(f"{RS}/dwz/dwzliste/persons/A").json() == anna


def test_names_are_folded_as_zdbs_search_folds_them(world: World) -> None:
    api = world.get("/players", name="Müller").json()["items"]
    expected = {world.pid[item["pkz"]] for item in api} & MEMBERS
    assert {"A", "B"} <= expected  # Müller and Mueller
    assert _ids(_persons(world, lastname="Müller")) == expected
    assert _ids(_persons(world, lastname="MUELLER")) == expected
    assert _ids(_persons(world, lastname="Weiss")) == {"E"}  # Weiß


def test_gender_and_age_by_birth_year(world: World) -> None:
    women = {pid for pid, (_, _, sex) in NAMES.items() if sex == "F"} & MEMBERS
    assert _ids(_persons(world, gender="W")) == women
    year = datetime.now(UTC).year
    born = {pid: BIRTH_YEARS[pid] for pid in MEMBERS if pid in BIRTH_YEARS}
    assert _ids(_persons(world, minAge=50)) == {pid for pid, y in born.items() if year - y >= 50}
    assert _ids(_persons(world, maxAge=20)) == {pid for pid, y in born.items() if year - y <= 20}
    assert _ids(_persons(world, minAge=20, maxAge=50)) == {pid for pid, y in born.items() if 20 <= year - y <= 50}


def test_paging_by_limit_and_offset_and_by_page_and_size(world: World) -> None:
    whole = _persons(world, limit=1000)["data"]
    assert len(whole) == len(MEMBERS)
    pages = [_persons(world, limit=2, offset=offset) for offset in range(0, len(MEMBERS), 2)]
    assert [p for page in pages for p in page["data"]] == whole
    assert all(page["metadata"]["totalCount"] == len(MEMBERS) for page in pages)
    assert "next" in pages[0]["links"] and "prev" not in pages[0]["links"]
    assert "next" not in pages[-1]["links"] and "prev" in pages[-1]["links"]
    # page counts from 0
    sized = [_persons(world, page=n, size=2)["data"] for n in range(len(pages))]
    assert sized == [page["data"] for page in pages]
    assert _persons(world, limit=2, offset=len(MEMBERS))["data"] == []


@pytest.mark.parametrize(
    ("params", "named"),
    [
        ({"limit": "0"}, "limit"),
        ({"limit": "1001"}, "limit"),
        ({"limit": "ten"}, "limit"),
        ({"offset": "-1"}, "offset"),
        ({"page": "x"}, "page"),
        ({"size": "0"}, "size"),
        ({"gender": "X"}, "gender"),
        ({"minAge": "old"}, "minAge"),
        ({"maxAge": "-3"}, "maxAge"),
    ],
)
def test_a_malformed_parameter_is_a_400_naming_it(world: World, params: dict[str, str], named: str) -> None:
    answer = world.client.get(f"{RS}/dwz/dwzliste/persons", params=params)
    assert answer.status_code == 400
    body = answer.json()
    assert set(body) == {"error", "error_description"}
    assert body["error_description"].startswith(f"{named}: ")


def test_an_unknown_person_is_a_404_in_the_portals_shape(world: World) -> None:
    answer = world.client.get(f"{RS}/dwz/dwzliste/persons/NU0000000")
    assert answer.status_code == 404
    assert answer.json() == {"error": "not_found", "error_description": "person NU0000000 does not exist"}


def test_an_unrated_member_has_no_rating_keys_and_a_merged_record_answers_as_its_survivor(fresh: World) -> None:
    with unit_of_work(engine_for(fresh.url)) as session:
        session.add(Player(pkz=90000001, surname="Neu", given_name="Nina", search_name="nina neu", sex="F"))
        session.flush()
        session.add(
            Membership(
                player_pkz=90000001, club_code="D0001", member_no=77, status="active", valid_from=date(2026, 1, 1)
            )
        )
        session.execute(update(Player).where(Player.pkz == fresh.pkz["G"]).values(merged_into=fresh.pkz["D"]))
    nina = fresh.client.get(f"{RS}/dwz/dwzliste/persons/90000001").json()
    # ZDB made her: her person number is her id; no rating, so no rating and no index
    assert nina["nuLigaPersonId"] == "90000001"
    assert "rating" not in nina and "index" not in nina and "weekOfLastTournamentEvaluation" not in nina
    assert nina["memberships"][0]["memberNo"] == "77"
    survivor = fresh.client.get(f"{RS}/dwz/dwzliste/persons/G").json()
    card = fresh.get(f"/players/{fresh.pkz['D']}").json()  # the pending tournament is evaluated here
    assert survivor["nuLigaPersonId"] == "D" and survivor["rating"] == card["rating"]
    assert "G" not in _ids(_persons(fresh, limit=1000))
