"""The published club software as the test that ZDB speaks the rating portal's language:
``dwzclient`` 0.1.5 (PyPI), unchanged, against ZDB served on a free port with the synthetic
federation (``zdb synth --scale 0.01``), on both backends.

The client is configured with ZDB's base address (``…/dsbwertungsportal``, the part before
``/rs``) and reads persons by id and by ``vkz`` with paging (``page`` and ``size``); every figure
it reads is compared with ZDB's own API: the player card (name, birth year, sex, FIDE id,
rating and index, current memberships) and a club's rating list (the week of the last
evaluation). Its 404 and 401 paths: an unknown id, and the list's paths with a token required.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import aiohttp
import httpx
import pytest
from dwzclient import DWZAuthError, DWZClient, DWZNotFoundError, Person

from tests.web.live_server import serving
from zdb.app import create_app
from zdb.config import Settings
from zdb.db import engine_for, unit_of_work
from zdb.exchange.synthetic import load_register, load_tournaments
from zdb.recalculation.run import run_recalculation
from zdb.synthetic import generate

#: spec §1.4: the client appends /rs/dwz/… to this
BASE_PATH = "/dsbwertungsportal"
#: the synthetic federation's club of the README's examples (Post SV Sankt Rosenheim)
CLUB = "10126"
SEX = {"M": "M", "F": "W", "D": "D"}


@pytest.fixture
def synthetic(database_url: str) -> Iterator[str]:
    """ZDB with the synthetic federation at scale 0.01, served on a free port: its address."""
    world = generate(seed=1, scale=0.01)
    engine = engine_for(database_url)
    with unit_of_work(engine) as session:
        load_register(session, world)
        load_tournaments(session, world)
    run_recalculation(engine)
    with serving(create_app(Settings(database_url=database_url, read_pool_size=2), recalculation=False)) as address:
        yield address


def _run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


async def _search_all(base: str, vkz: str, size: int) -> list[list[Person]]:
    """Every page of a search by ``vkz``, paged as a client does: until a page is short."""
    pages: list[list[Person]] = []
    async with aiohttp.ClientSession() as session:
        client = DWZClient(session, base_url=base)
        while True:
            page = await client.search_persons(vkz=vkz, page=len(pages), size=size)
            pages.append(page)
            if len(page) < size:
                return pages


async def _get_people(base: str, ids: list[str]) -> list[Person]:
    async with aiohttp.ClientSession() as session:
        client = DWZClient(session, base_url=base)
        return [await client.get_person(person_id) for person_id in ids]


def _check_against_the_api(api: httpx.Client, person: Person) -> None:
    """Every figure the client read equals ZDB's own answer for that person."""
    # the synthetic federation's people came from no list: their id is their person number
    card = api.get(f"/api/v1/players/{int(person.nuLigaPersonId)}").json()
    assert (person.lastname, person.firstname) == (card["surname"], card["given_name"])
    assert person.birthyear == card["birth_year"]
    assert person.gender == SEX.get(card["sex"])
    assert person.fideId == card["fide_id"]
    assert (person.rating, person.index) == (card["rating"], card["rating_index"])
    current = sorted(
        (m["club_code"], str(m["member_no"]), m["club_name"]) for m in card["memberships"] if m["valid_until"] is None
    )
    assert sorted((m.vkz, m.memberNo, m.clubName) for m in person.memberships) == current


def test_dwzclient_reads_what_zdbs_api_answers(synthetic: str) -> None:
    base = synthetic + BASE_PATH
    with httpx.Client(base_url=synthetic) as api:
        members = api.get(f"/api/v1/clubs/{CLUB}/ratings", params={"limit": 1000}).json()["items"]
        assert len(members) > 3
        pages = _run(_search_all(base, CLUB, size=3))
        found = [person for page in pages for person in page]
        assert len(pages) >= 2 and all(len(page) == 3 for page in pages[:-1])
        numbers = [int(person.nuLigaPersonId) for person in found]
        assert len(set(numbers)) == len(numbers)  # no person twice over the pages
        assert sorted(numbers) == sorted(m["pkz"] for m in members)
        weeks = {m["pkz"]: m["last_evaluation"] for m in members}  # "2026-W38"
        for person in found:
            _check_against_the_api(api, person)
            week = weeks[int(person.nuLigaPersonId)]
            shown = person.weekOfLastTournamentEvaluation
            assert (shown[:4], shown[-2:]) == (week[:4], week[-2:]) if week else shown is None
        # one person at a time, as a club's website asks
        for person in _run(_get_people(base, [str(n) for n in numbers[:5]])):
            _check_against_the_api(api, person)
        # a regional federation by its prefix: every person a member of one of its clubs
        region = _run(_search_all(base, CLUB[0], size=200))
        assert all(any(m.vkz and m.vkz.startswith(CLUB[0]) for m in p.memberships) for page in region for p in page)


def test_dwzclient_sees_an_unknown_id_as_not_found(synthetic: str) -> None:
    with pytest.raises(DWZNotFoundError):
        _run(_get_people(synthetic + BASE_PATH, ["NU9999999"]))


def test_dwzclient_sees_a_missing_token_as_unauthorised(database_url: str) -> None:
    strict = create_app(Settings(database_url=database_url, portal_list_token=True), recalculation=False)
    with serving(strict) as address:
        with pytest.raises(DWZAuthError):
            _run(_get_people(address + BASE_PATH, ["1"]))
        with pytest.raises(DWZAuthError):
            _run(_search_all(address + BASE_PATH, CLUB, size=10))
