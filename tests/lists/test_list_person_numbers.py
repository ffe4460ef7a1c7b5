"""A DeWIS list's ``ID`` is the federation's person number: the people it brings in keep it where
it is free, and a number someone already holds leaves the newcomer the next free one."""

from __future__ import annotations

from datetime import date

from sqlalchemy import select

from zdb.db import engine_for, unit_of_work
from zdb.lists.service import import_rating_list
from zdb.players.models import Player
from zdb.players.service import NewPlayer, create_players
from zdb.synthetic.rating_lists import list_zip_bytes, synthetic_list


def _numbers(url: str) -> dict[str | None, int]:
    with unit_of_work(engine_for(url)) as session:
        return {external: pkz for pkz, external in session.execute(select(Player.pkz, Player.external_id))}


def test_the_dewis_ids_are_kept_where_they_are_free(postgres_url: str) -> None:
    data = synthetic_list(5, 30, id_style="dewis")
    ids = sorted({m.person_id for m in data.members if m.person_id is not None}, key=int)
    with unit_of_work(engine_for(postgres_url)) as session:
        # a referee's guest, entered before the list arrived, holds the first number of an empty database
        [taken] = create_players(session, [NewPlayer("Gast", "Erster")])
    assert str(taken) == ids[0] == "10000001"

    with unit_of_work(engine_for(postgres_url)) as session:
        import_rating_list(session, list_zip_bytes(data, "dewis"), file="liste.zip", list_date=date(2026, 5, 31))

    numbers = _numbers(postgres_url)
    assert numbers[None] == taken  # the guest keeps his number
    assert all(numbers[i] == int(i) for i in ids[1:])
    # the list's holder of the taken number gets the next after all numbers kept from the list
    assert numbers[ids[0]] == int(ids[-1]) + 1


def test_the_portal_ids_are_external_ids_beside_new_numbers(postgres_url: str) -> None:
    data = synthetic_list(5, 30)
    with unit_of_work(engine_for(postgres_url)) as session:
        import_rating_list(session, list_zip_bytes(data), file="liste.zip", list_date=date(2026, 5, 31))
    numbers = _numbers(postgres_url)
    people = {m.person_id for m in data.members}
    assert set(numbers) == people
    assert sorted(numbers.values()) == list(range(10_000_001, 10_000_001 + len(people)))
