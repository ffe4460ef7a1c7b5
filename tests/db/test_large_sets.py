"""A federation's whole register in one statement's IN list is more than a database takes
(PostgreSQL: 65,535 parameters; SQLite: 32,766): an import looks up all its people at once, and
that works for 70,000 of them."""

from __future__ import annotations

from zdb.db import engine_for, unit_of_work
from zdb.players.service import NewPlayer, create_players, pkz_by_external_id

PEOPLE = 70_000


def test_people_found_by_more_external_ids_than_a_statement_takes(database_url: str) -> None:
    with unit_of_work(engine_for(database_url)) as session:
        (pkz,) = create_players(session, [NewPlayer(surname="Kern", external_id="NU1")])
        unknown = [f"NU{k}" for k in range(2, PEOPLE)]
        assert pkz_by_external_id(session, [*unknown, "NU1"]) == {"NU1": pkz}
