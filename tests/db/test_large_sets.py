"""A federation's whole register in one statement's IN list is more than a database takes
(PostgreSQL: 65,535 parameters; SQLite: 32,766 where it is built with the default limit): the
look-ups and replacements an import makes for all its people work for 70,000 of them."""

from __future__ import annotations

from sqlalchemy import func, select

from zdb.db import engine_for, unit_of_work
from zdb.players.service import NewPlayer, create_players, pkz_by_external_id
from zdb.rating import PlayerState
from zdb.timeline.models import InitialState
from zdb.timeline.start_states import set_initial_states

PEOPLE = 70_000


def test_people_found_by_more_external_ids_than_a_statement_takes(database_url: str) -> None:
    with unit_of_work(engine_for(database_url)) as session:
        (pkz,) = create_players(session, [NewPlayer(surname="Kern", external_id="NU1")])
        unknown = [f"NU{k}" for k in range(2, PEOPLE)]
        assert pkz_by_external_id(session, [*unknown, "NU1"]) == {"NU1": pkz}


def test_initial_states_of_more_people_than_a_statement_takes(postgres_url: str) -> None:
    # PostgreSQL only: creating 70,000 people takes SQLite seconds, and its limit here is higher.
    with unit_of_work(engine_for(postgres_url)) as session:
        numbers = create_players(session, [NewPlayer(surname=f"P{k}") for k in range(PEOPLE)])
        set_initial_states(session, {pkz: PlayerState(1500, 3) for pkz in numbers})
        set_initial_states(session, {pkz: PlayerState(1600, 4) for pkz in numbers})  # replaces every one
        counted = session.execute(select(func.count(), func.min(InitialState.rating)).select_from(InitialState)).one()
    assert tuple(counted) == (PEOPLE, 1600)
