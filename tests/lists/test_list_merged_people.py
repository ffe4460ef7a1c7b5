"""A rating list that names a record a merge absorbed (by the list's person id the record kept)
finds the surviving person (issue 31, point 2): it neither changes the absorbed record nor gives
it memberships again, nor creates the person anew; a re-baseline sets the survivor's start rating."""

from __future__ import annotations

from datetime import date

from sqlalchemy import select

from zdb.auth.principal import Principal
from zdb.db import engine_for, unit_of_work
from zdb.lists.rebaseline import rebaseline
from zdb.lists.service import import_rating_list
from zdb.office.merge import merge_persons
from zdb.players.models import Membership, Player
from zdb.players.service import NewPlayer, create_players
from zdb.synthetic.rating_lists import list_zip_bytes, synthetic_list
from zdb.timeline.models import StartRatingRow

OFFICE = Principal("admin")


def test_a_list_id_of_an_absorbed_record_finds_the_survivor(postgres_url: str) -> None:
    data = list_zip_bytes(synthetic_list(5, 30))
    engine = engine_for(postgres_url)
    with unit_of_work(engine) as session:
        import_rating_list(session, data, file="liste.zip", list_date=date(2026, 5, 31))
    with unit_of_work(engine) as session:
        listed = session.execute(select(Player).where(Player.external_id.is_not(None)).limit(1)).scalar_one()
        absorbed, clubs = (
            listed.pkz,
            set(session.scalars(select(Membership.club_code).where(Membership.player_pkz == listed.pkz))),
        )
        # the same person, entered from a referee's file before the list was matched to him
        [survivor] = create_players(session, [NewPlayer(listed.surname, listed.given_name)])
        merge_persons(session, OFFICE, survivor, absorbed)
        people = session.execute(select(Player.pkz)).scalars().all()
    assert clubs

    with unit_of_work(engine) as session:
        import_rating_list(session, data, file="liste.zip", list_date=date(2026, 8, 31))
    with unit_of_work(engine) as session:
        held = set(session.scalars(select(Membership.club_code).where(Membership.player_pkz == survivor)))
        kept = session.scalars(select(Membership.id).where(Membership.player_pkz == absorbed)).all()
        assert session.execute(select(Player.pkz)).scalars().all() == people  # nobody new
    assert held == clubs and kept == []


def test_a_rebaseline_sets_the_survivors_start_rating_never_the_absorbed_records(postgres_url: str) -> None:
    data = list_zip_bytes(synthetic_list(5, 30))
    engine = engine_for(postgres_url)
    with unit_of_work(engine) as session:
        import_rating_list(session, data, file="liste.zip", list_date=date(2026, 5, 31))
    with unit_of_work(engine) as session:
        rated = select(StartRatingRow.player_pkz).where(StartRatingRow.rating_date == date(2026, 5, 31))
        listed = session.execute(select(Player).where(Player.pkz.in_(rated)).limit(1)).scalar_one()
        absorbed = listed.pkz
        [survivor] = create_players(session, [NewPlayer(listed.surname, listed.given_name)])
        merge_persons(session, OFFICE, survivor, absorbed)

    day = date(2026, 9, 30)
    with unit_of_work(engine) as session:
        assert rebaseline(session, data, file="liste.zip", day=day) > 0
    with unit_of_work(engine) as session:
        holders = set(session.scalars(select(StartRatingRow.player_pkz).where(StartRatingRow.rating_date == day)))
    assert survivor in holders and absorbed not in holders
