"""A record that knows only a player's birth year is found by a file that carries his full birth
date: the date cannot contradict what the record does not know, so the file names the same
person (a duplicate newcomer would start again as unrated, spec §3: his whole history lost).
A record whose birth date is known and differs is someone else. On both databases."""

from __future__ import annotations

from datetime import date

import pytest

from zdb.auth.principal import Principal
from zdb.db import engine_for, unit_of_work
from zdb.federations.models import Club, Federation
from zdb.players.matching import PlayerQuery, match_players
from zdb.players.models import Membership
from zdb.players.service import NewPlayer, create_players

REFEREE = Principal("referee", "C")  # the club C0327 lies in his scope: he may compare birth dates
JOINED = date(2026, 3, 1)


@pytest.fixture(params=["postgresql", "sqlite"])
def url(request: pytest.FixtureRequest) -> str:
    return str(request.getfixturevalue("postgres_url" if request.param == "postgresql" else "sqlite_url"))


def _recorded(url: str, player: NewPlayer) -> int:
    """A member of club C0327 (in the referee's scope) with the record ``player``."""
    with unit_of_work(engine_for(url)) as session:
        session.add(Federation(prefix="", name="Deutscher Schachbund", level=0, parent_prefix=None))
        session.flush()
        session.add(Federation(prefix="C", name="Region C", level=1, parent_prefix=""))
        session.flush()
        session.add(Club(code="C0327", name="SK Musterstadt 1920", federation_prefix="C"))
        session.flush()
        (pkz,) = create_players(session, [player])
        session.add(Membership(player_pkz=pkz, club_code="C0327", member_no=7, valid_from=date(2010, 1, 1)))
    return pkz


def _match(url: str, query: PlayerQuery) -> tuple[int | None, bool]:
    with unit_of_work(engine_for(url)) as session:
        outcome = match_players(session, [query], create=True, joined=JOINED, caller=REFEREE)
    assert outcome.problems == ()
    return outcome.pkz[0], outcome.created[0]


def test_a_record_with_the_birth_year_only_is_found_by_a_full_birth_date(url: str) -> None:
    pkz = _recorded(url, NewPlayer(surname="Jahrmann", given_name="Jonas", birth_year=1985))
    file_says = PlayerQuery("players[0]", surname="Jahrmann", given_name="Jonas", birth_date=date(1985, 4, 3))
    assert _match(url, file_says) == (pkz, False)


def test_a_record_with_another_birth_date_is_someone_else(url: str) -> None:
    pkz = _recorded(
        url, NewPlayer(surname="Jahrmann", given_name="Jonas", birth_year=1985, birth_date=date(1985, 9, 30))
    )
    file_says = PlayerQuery("players[0]", surname="Jahrmann", given_name="Jonas", birth_date=date(1985, 4, 3))
    found, created = _match(url, file_says)
    assert created and found != pkz


def test_a_record_of_another_birth_year_is_someone_else(url: str) -> None:
    pkz = _recorded(url, NewPlayer(surname="Jahrmann", given_name="Jonas", birth_year=1990))
    file_says = PlayerQuery("players[0]", surname="Jahrmann", given_name="Jonas", birth_date=date(1985, 4, 3))
    found, created = _match(url, file_says)
    assert created and found != pkz
    year_only = PlayerQuery("players[0]", surname="Jahrmann", given_name="Jonas", birth_year=1991)
    found, created = _match(url, year_only)
    assert created and found != pkz


def test_a_file_with_the_birth_year_only_finds_the_record(url: str) -> None:
    pkz = _recorded(
        url, NewPlayer(surname="Jahrmann", given_name="Jonas", birth_year=1985, birth_date=date(1985, 9, 30))
    )
    assert _match(url, PlayerQuery("players[0]", surname="Jahrmann", given_name="Jonas", birth_year=1985)) == (
        pkz,
        False,
    )


def test_a_record_without_a_birth_year_fits_any(url: str) -> None:
    pkz = _recorded(url, NewPlayer(surname="Jahrmann", given_name="Jonas"))
    file_says = PlayerQuery("players[0]", surname="Jahrmann", given_name="Jonas", birth_date=date(1985, 4, 3))
    assert _match(url, file_says) == (pkz, False)


def test_a_record_of_another_name_born_the_same_year_is_someone_else(url: str) -> None:
    pkz = _recorded(url, NewPlayer(surname="Jahrmann", given_name="Jonas", birth_year=1985))
    file_says = PlayerQuery("players[0]", surname="Andersmann", given_name="Jonas", birth_date=date(1985, 4, 3))
    found, created = _match(url, file_says)
    assert created and found != pkz


def test_a_player_named_by_surname_alone(url: str) -> None:
    pkz = _recorded(url, NewPlayer(surname="Einname", birth_year=1985))
    assert _match(url, PlayerQuery("players[0]", surname="Einname", birth_year=1985)) == (pkz, False)


def test_a_caller_who_may_not_read_the_birth_date_finds_by_year_and_is_warned(url: str) -> None:
    """Outside the caller's scope the date is not compared (it must not be learnable from the
    answer): the record is found by name and year, and the answer says the date was not compared."""
    pkz = _recorded(
        url, NewPlayer(surname="Jahrmann", given_name="Jonas", birth_year=1985, birth_date=date(1985, 9, 30))
    )
    file_says = PlayerQuery("players[0]", surname="Jahrmann", given_name="Jonas", birth_date=date(1985, 4, 3))
    with unit_of_work(engine_for(url)) as session:
        outcome = match_players(session, [file_says], create=True, joined=JOINED, caller=Principal("referee", "D"))
    assert (outcome.pkz, outcome.created, outcome.problems) == ((pkz,), (False,), ())
    assert [w.place for w in outcome.warnings] == ["players[0]"]


def test_two_fitting_records_are_listed_in_person_number_order(url: str) -> None:
    first = _recorded(url, NewPlayer(surname="Jahrmann", given_name="Jonas", birth_year=1985))
    with unit_of_work(engine_for(url)) as session:
        (second,) = create_players(session, [NewPlayer(surname="Jahrmann", given_name="Jonas", birth_year=1985)])
        session.add(Membership(player_pkz=second, club_code="C0327", member_no=8, valid_from=date(2010, 1, 1)))
    file_says = PlayerQuery("players[0]", surname="Jahrmann", given_name="Jonas", birth_date=date(1985, 4, 3))
    with unit_of_work(engine_for(url)) as session:
        outcome = match_players(session, [file_says], create=True, joined=JOINED, caller=REFEREE)
    assert outcome.pkz == (None,) and len(outcome.problems) == 1
    said = str(outcome.problems[0].message)
    assert said.index(str(first)) < said.index(str(second))
