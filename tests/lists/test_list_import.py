"""A federation's rating list into the database: first import, sync, dry run, problems.

The lists are generated (``zdb.synthetic.rating_lists``); the expected counts are taken from
the generated values themselves (people, lines, clubs), never from the import under test.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest
from sqlalchemy import func, select

from tests.db.list_lines import single_line_people, with_lagging_lines
from zdb.audit.models import AuditEntry
from zdb.db import engine_for, unit_of_work
from zdb.federations.models import Club, Federation
from zdb.formats.list_model import ListMember
from zdb.lists.difference import Difference
from zdb.lists.models import ListBaseline
from zdb.lists.service import ListProblemsError, import_rating_list
from zdb.players.models import Membership, Player
from zdb.synthetic.rating_lists import SyntheticList, list_zip_bytes, synthetic_list
from zdb.timeline.models import StartRatingRow

FIRST = date(2026, 1, 31)
SECOND = date(2026, 3, 31)


def _import(url: str, data: bytes, day: date, **options: object) -> Difference:
    with unit_of_work(engine_for(url)) as session:
        return import_rating_list(session, data, file="liste.zip", list_date=day, **options)  # type: ignore[arg-type]


def _count(url: str, model: object) -> int:
    with unit_of_work(engine_for(url)) as session:
        return session.execute(select(func.count()).select_from(model)).scalar_one()  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def first_list() -> SyntheticList:
    return synthetic_list(7, 120)


def test_first_import_stores_the_list_and_a_second_one_changes_nothing(
    database_url: str, first_list: SyntheticList
) -> None:
    data = list_zip_bytes(first_list)
    people = {m.person_id for m in first_list.members}
    rated = {m.person_id for m in first_list.members if m.rating is not None}
    clubs = len(first_list.clubs)

    answer = _import(database_url, data, FIRST)

    assert answer.applied and answer.problems == []
    assert answer.counts["people_new"] == len(people) == _count(database_url, Player)
    assert answer.counts["memberships_new"] == len(first_list.members) == _count(database_url, Membership)
    assert answer.counts["clubs_new"] == clubs == _count(database_url, Club)
    assert answer.counts["start_ratings"] == len(rated) == _count(database_url, StartRatingRow)
    assert _count(database_url, ListBaseline) == len(people)
    with unit_of_work(engine_for(database_url)) as session:
        member = first_list.members[0]
        player = session.execute(select(Player).where(Player.external_id == member.person_id)).scalar_one()
        assert (player.surname, player.given_name, player.birth_year) == (
            member.surname,
            member.given_name,
            member.birth_year,
        )
        # the DSB's 000 is the empty prefix, a state federation X00 the prefix X
        assert session.get(Federation, "") is not None
        club = session.get(Club, member.club_code)
        assert club is not None and club.federation_prefix == member.club_code[:3]
        if member.rating is not None:
            start = session.get(StartRatingRow, (player.pkz, FIRST))
            assert start is not None and (start.rating, start.rating_index) == (
                member.rating,
                member.rating_index or 0,
            )
        baseline = session.get(ListBaseline, player.pkz)
        assert baseline is not None and baseline.epoch == FIRST

    again = _import(database_url, data, FIRST)
    assert again.changes == 0
    assert again.counts["people_unchanged"] == len(people)
    assert _count(database_url, Player) == len(people)
    assert _count(database_url, Membership) == len(first_list.members)


def test_a_later_list_is_a_sync(postgres_url: str, first_list: SyntheticList) -> None:
    _import(postgres_url, list_zip_bytes(first_list), FIRST)
    renamed, leaver, mover, resting = single_line_people(first_list)[:4]
    other_club = next(c.code for c in first_list.clubs if c.code != mover.club_code)
    newcomer = replace(renamed, person_id="NU99999999", surname="Neuzugang", member_no=990, rating=1500, rating_index=1)
    edits = {
        id(renamed): {"surname": "Korrigiert"},
        id(mover): {"club_code": other_club, "member_no": 991},
        id(resting): {"status": "passive"},
    }
    members = [replace(m, **edits.get(id(m), {})) for m in first_list.members if m is not leaver]
    later = replace(first_list, members=(*members, newcomer))

    preview = _import(postgres_url, list_zip_bytes(later), SECOND, dry_run=True)
    answer = _import(postgres_url, list_zip_bytes(later), SECOND)

    expected = {
        "people_new": 1,
        "people_changed": 1,
        "memberships_new": 2,
        "memberships_changed": 1,
        "memberships_ended": 2,
        "transfers": 1,
        "start_ratings": 1,
        "clubs_new": 0,
        "federations_new": 0,
    }
    assert {k: answer.counts[k] for k in expected} == expected
    assert preview.counts == answer.counts and not preview.applied
    with unit_of_work(engine_for(postgres_url)) as session:

        def person(member: ListMember) -> Player:
            return session.execute(select(Player).where(Player.external_id == member.person_id)).scalar_one()

        def memberships(member: ListMember) -> list[tuple[str, str, date, date | None]]:
            rows = session.execute(
                select(Membership.club_code, Membership.status, Membership.valid_from, Membership.valid_until)
                .where(Membership.player_pkz == person(member).pkz)
                .order_by(Membership.valid_from)
            )
            return [tuple(r) for r in rows]  # type: ignore[misc]

        assert person(renamed).surname == "Korrigiert"
        last_day = date(2026, 3, 30)
        assert memberships(leaver) == [(leaver.club_code, "active", FIRST, last_day)]  # kept, ended
        assert memberships(mover) == [
            (mover.club_code, "active", FIRST, last_day),
            (other_club, "active", SECOND, None),
        ]
        assert memberships(resting) == [(resting.club_code, "passive", FIRST, None)]
        new_pkz = person(newcomer).pkz
        assert session.get(StartRatingRow, (new_pkz, SECOND)) is not None
        assert session.get(StartRatingRow, (person(renamed).pkz, SECOND)) is None  # a list never overwrites
        actions = session.execute(select(AuditEntry.action, func.count()).group_by(AuditEntry.action)).all()
        assert dict(actions) == {"list.import": 2, "list.person": 1, "list.membership": 1, "list.membership_end": 2}


def test_a_rating_that_differs_from_the_database_is_reported_not_written(
    postgres_url: str, first_list: SyntheticList
) -> None:
    _import(postgres_url, list_zip_bytes(first_list), FIRST)
    member = next(m for m in single_line_people(first_list) if m.rating is not None)
    changed = replace(
        first_list, members=tuple(replace(m, rating=m.rating + 7) if m is member else m for m in first_list.members)
    )
    answer = _import(postgres_url, list_zip_bytes(changed), SECOND)
    assert answer.counts["ratings_differ"] == 1
    assert answer.changes == 0
    with unit_of_work(engine_for(postgres_url)) as session:
        ratings = session.execute(
            select(StartRatingRow.rating).join(Player).where(Player.external_id == member.person_id)
        )
        assert list(ratings.scalars()) == [member.rating]


def test_a_list_with_problems_stores_nothing_unless_told_to_skip_them(
    postgres_url: str, first_list: SyntheticList
) -> None:
    broken = synthetic_list(7, 120)
    bad = replace(broken, members=(*broken.members, replace(broken.members[0], person_id="NU1", club_code="X9999")))
    data = list_zip_bytes(bad)

    with pytest.raises(ListProblemsError) as refused:
        _import(postgres_url, data, FIRST)
    assert [p.place for p in refused.value.problems] == [f"spieler.csv:{len(bad.members) + 1}"]
    assert "X9999" in refused.value.problems[0].message
    assert _count(postgres_url, Player) == 0

    answer = _import(postgres_url, data, FIRST, skip_problems=True)
    assert answer.skipped == 1 and len(answer.problems) == 1
    assert _count(postgres_url, Membership) == len(broken.members)
    assert _count(postgres_url, Player) == len({m.person_id for m in broken.members})  # not NU1


@pytest.mark.parametrize("layout", ["dewis", "dewis-old"])
def test_the_dewis_layouts_are_taken_in_and_synced(postgres_url: str, layout: str) -> None:
    data = synthetic_list(11, 80, id_style="none" if layout == "dewis-old" else "dewis")
    zipped = list_zip_bytes(data, layout, codec="latin-1")
    first = _import(postgres_url, zipped, FIRST, codec="latin-1", skip_problems=True)
    assert first.counts["memberships_new"] == len(data.members) - first.skipped
    again = _import(postgres_url, zipped, FIRST, codec="latin-1", skip_problems=True)
    assert again.changes == 0


def test_a_list_without_a_date_needs_one(postgres_url: str, first_list: SyntheticList) -> None:
    from zdb.errors import ValidationError

    with pytest.raises(ValidationError, match="--date"), unit_of_work(engine_for(postgres_url)) as session:
        import_rating_list(session, list_zip_bytes(first_list, stamp=None), file="liste.zip")


def test_a_fact_that_differs_between_a_persons_lines_is_a_warning_and_the_summary_counts_exactly(
    postgres_url: str, first_list: SyntheticList
) -> None:
    data, active, lagging, recent = with_lagging_lines(first_list)
    broken = replace(data.members[0], person_id="NU999999", club_code="X9999")  # an unknown club
    listed = replace(data, members=(*data.members, broken))
    zipped = list_zip_bytes(listed)

    # without the broken line the list is taken whole, without being told to skip anything
    whole = _import(postgres_url, list_zip_bytes(data), FIRST, dry_run=True)
    assert whole.problems == [] and whole.skipped == 0 and whole.stored_lines == len(data.members)

    answer = _import(postgres_url, zipped, FIRST, skip_problems=True)

    lines = len(listed.members)  # the header is line 1: the broken line is the last one
    assert answer.problems == [f"spieler.csv:{lines + 1}: the club X9999 is not known"]
    assert answer.skipped == 1
    assert answer.stored_lines == len(data.members) == _count(postgres_url, Membership)
    assert answer.counts["memberships_new"] == answer.stored_lines
    index = {id(m): n + 2 for n, m in enumerate(listed.members)}
    stale_line = next(n + 2 for n, m in enumerate(listed.members) if m.person_id == recent.person_id)
    recent_name = f"{recent.person_id} {recent.surname}, {recent.given_name}"
    assert sorted(answer.warnings) == sorted(
        [
            f"spieler.csv:{index[id(lagging)]}: Letzte Auswertung: {active.person_id} {active.surname}, "
            f"{active.given_name}: '202412' here, '202540' on line {index[id(active)]} (his active membership), "
            "which counts",
            f"spieler.csv:{stale_line}: Geburtsjahr: {recent_name}: '{recent.birth_year - 1}' here, "
            f"'{recent.birth_year}' on line {index[id(recent)]} (his most recent line), which counts",
            f"spieler.csv:{stale_line}: Letzte Auswertung: {recent_name}: '202412' here, "
            f"'202540' on line {index[id(recent)]} (his most recent line), which counts",
        ]
    )
    with unit_of_work(engine_for(postgres_url)) as session:
        facts = dict(
            session.execute(
                select(Player.external_id, Player.birth_year).where(
                    Player.external_id.in_([active.person_id, recent.person_id])
                )
            ).all()
        )
        weeks = dict(
            session.execute(
                select(Player.external_id, ListBaseline.last_evaluation).join(
                    ListBaseline, ListBaseline.player_pkz == Player.pkz
                )
            ).all()
        )
    assert facts[recent.person_id] == recent.birth_year
    assert weeks[active.person_id] == "202540" and weeks[recent.person_id] == "202540"
    assert _count(postgres_url, Player) == len({m.person_id for m in data.members})


def test_an_import_reports_its_progress_through_its_phases(database_url: str, first_list: SyntheticList) -> None:
    data = list_zip_bytes(first_list)
    seen: list[tuple[int, int]] = []
    _import(database_url, data, FIRST, dry_run=True, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(0, 2), (1, 2), (2, 2)]  # reading, comparing, then ended
    seen.clear()
    _import(database_url, data, FIRST, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(done, 9) for done in range(10)]  # and then each of the seven writes
