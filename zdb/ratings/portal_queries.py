"""The persons of the rating list as the rating portal's REST interface answers them
(``/dwz/dwzliste/persons``, ``/dwz/persons/{id}/history``): the read statements behind the
portal door (``zdb.portal``), shaped as the portal's objects.

A person's id there is his portal id (``NU…``, kept as ``players.external_id``), or his person
number where ZDB created him and he has none, as in ZDB's portal-layout export
(``zdb.formats.portal_files.person_id``). A merged record's id answers as its survivor.

Absent values are absent keys, never nulls (the interface's rule: a person without a rating
has no ``rating`` and no ``index``). Names are public names (``zdb.players.privacy``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy import ColumnElement, and_, exists, func, or_, select
from sqlalchemy.orm import Session

from zdb.common.like import like_pattern
from zdb.errors import NotFoundError
from zdb.federations.models import Club, Federation
from zdb.lists.fide_queries import listed_week_date
from zdb.lists.models import ListBaseline
from zdb.players.models import Membership, Player
from zdb.players.privacy import public_name_column
from zdb.ratings.player_queries import name_terms
from zdb.timeline.models import Evaluation, HistoryRow, PlayerRating
from zdb.tournaments.models import TournamentVersion

__all__ = [
    "PersonFilter",
    "person",
    "person_history",
    "person_id_of",
    "resolve_person",
    "search_persons",
    "year_week",
]

#: ZDB's sex as the portal's lists write it (``zdb.formats.list_writer``)
GENDERS = {"M": "M", "F": "W", "D": "D"}
_SEX_OF_GENDER = {portal: ours for ours, portal in GENDERS.items()}
#: the 2026 conversion's event text in the history (phase 2)
_CONVERSION_PHASE = 2


def person_id_of(pkz: int, external_id: str | None) -> str:
    """The person's id in the portal's interface: his portal id, else his person number."""
    return external_id or str(pkz)


def year_week(day: date | None) -> str | None:
    """``weekOfLastTournamentEvaluation``: the ISO year and week as ``YYYYWW``. Whether the portal
    puts a separator between them was not confirmed; the federation's list files write none
    (``Letzte-Auswertung``), and a client reading the first four and the last two characters reads
    both."""
    if day is None:
        return None
    year, week, _ = day.isocalendar()
    return f"{year}{week:02d}"


@dataclass(frozen=True, slots=True)
class PersonFilter:
    """The search's filters; ``None`` is no filter. Ages are counted by birth year in ``year``."""

    year: int
    lastname: str | None = None
    firstname: str | None = None
    vkz: str | None = None
    person_id: str | None = None
    gender: str | None = None
    min_age: int | None = None
    max_age: int | None = None


def _current_membership(*conditions: ColumnElement[bool]) -> ColumnElement[bool]:
    m = Membership
    return exists().where(m.player_pkz == Player.pkz, m.valid_until.is_(None), *conditions)


def _conditions(wanted: PersonFilter) -> list[ColumnElement[bool]]:
    p = Player
    # The rating list lists members: a person without a current membership is not on it.
    conditions: list[ColumnElement[bool]] = [p.merged_into.is_(None), _current_membership()]
    # ZDB keeps one folded search name (given name and surname together): each folded word of
    # ``lastname`` and of ``firstname`` must occur in it, as ZDB's own search folds and matches.
    terms = [*name_terms(wanted.lastname or ""), *name_terms(wanted.firstname or "")]
    for term in terms:
        conditions.append(p.search_name.like(like_pattern(term), escape="\\"))
    if terms:
        conditions.append(p.objects_to_publication.is_(False))  # a withheld name is not found by it
    if wanted.vkz:
        pattern = like_pattern(wanted.vkz, prefix_only=True)
        conditions.append(_current_membership(Membership.club_code.like(pattern, escape="\\")))
    if wanted.person_id is not None:
        conditions.append(_id_condition(wanted.person_id))
    if wanted.gender is not None:
        conditions.append(p.sex == _SEX_OF_GENDER[wanted.gender])
    if wanted.min_age is not None:
        conditions.append(p.birth_year <= wanted.year - wanted.min_age)
    if wanted.max_age is not None:
        conditions.append(p.birth_year >= wanted.year - wanted.max_age)
    return conditions


def _id_condition(person_id: str) -> ColumnElement[bool]:
    """The person with this id: his portal id, or his person number where he has none."""
    by_external = Player.external_id == person_id
    if person_id.isdigit() and len(person_id) <= 18:
        return or_(by_external, and_(Player.pkz == int(person_id), Player.external_id.is_(None)))
    return by_external


def resolve_person(session: Session, person_id: str) -> int:
    """The person number behind an id of the interface, a merged record followed to its survivor;
    ``NotFoundError`` for an unknown id."""
    p = Player
    row = session.execute(select(p.pkz, p.merged_into).where(p.external_id == person_id)).first()
    if row is None and person_id.isdigit() and len(person_id) <= 18:
        row = session.execute(select(p.pkz, p.merged_into).where(p.pkz == int(person_id))).first()
    if row is None:
        raise NotFoundError(f"person {person_id} does not exist")
    pkz, merged_into = row
    seen = {pkz}
    while merged_into is not None and merged_into not in seen:  # a chain of merges ends at its survivor
        seen.add(merged_into)
        pkz, merged_into = session.execute(select(p.pkz, p.merged_into).where(p.pkz == merged_into)).one()
    return pkz


def _last_evaluations(session: Session, pkzs: Sequence[int]) -> dict[int, date]:
    """The end of each person's last evaluated tournament here, else the week of his list entry."""
    if not pkzs:
        return {}
    h, b = HistoryRow, ListBaseline
    found: dict[int, date] = {}
    for pkz, listed in session.execute(select(b.player_pkz, b.last_evaluation).where(b.player_pkz.in_(pkzs))):
        day = listed_week_date(listed)
        if day is not None:
            found[pkz] = day
    rows = session.execute(
        select(h.player_pkz, func.max(h.event_date))
        .where(h.player_pkz.in_(pkzs), h.event_phase == 1, h.evaluated.is_(True))
        .group_by(h.player_pkz)
    )
    found.update((pkz, day) for pkz, day in rows if day is not None)
    return found


def _memberships(session: Session, pkzs: Sequence[int]) -> dict[int, list[dict[str, Any]]]:
    """The current memberships of the persons, with their club's federation and region."""
    held: dict[int, list[dict[str, Any]]] = {pkz: [] for pkz in pkzs}
    if not pkzs:
        return held
    m, c, f = Membership, Club, Federation
    names = {row.prefix: row.name for row in session.execute(select(f.prefix, f.name))}
    rows = session.execute(
        select(m.player_pkz, m.club_code, m.member_no, m.status, c.name, c.federation_prefix)
        .join(c, c.code == m.club_code)
        .where(m.player_pkz.in_(pkzs), m.valid_until.is_(None))
        .order_by(m.player_pkz, m.valid_from, m.club_code)
    )
    for row in rows:
        # Not confirmed which federation the portal names by which key: ``regionName`` is the
        # club's own federation (its district), ``federationName`` its regional federation
        # (Landesverband, the first character of the club code).
        held[row.player_pkz].append(
            _present(
                {
                    "vkz": row.club_code,
                    "memberNo": None if row.member_no is None else str(row.member_no),
                    "clubName": row.name,
                    "licenceState": "P" if row.status == "passive" else "A",
                    "regionName": names.get(row.federation_prefix),
                    "federationName": names.get(row.club_code[:1]),
                }
            )
        )
    return held


def _present(values: Mapping[str, Any]) -> dict[str, Any]:
    """The keys with a value: the interface leaves absent values out, never null."""
    return {key: value for key, value in values.items() if value is not None}


_PERSON_COLUMNS = (
    Player.pkz,
    Player.external_id,
    public_name_column(Player.surname).label("surname"),
    public_name_column(Player.given_name, given=True).label("given_name"),
    Player.birth_year,
    Player.sex,
    Player.fide_id,
    PlayerRating.rating,
    PlayerRating.rating_index,
)


def _persons(session: Session, rows: Sequence[Any]) -> list[dict[str, Any]]:
    pkzs = [row.pkz for row in rows]
    clubs = _memberships(session, pkzs)
    last = _last_evaluations(session, pkzs)
    persons = []
    for row in rows:
        person_id = person_id_of(row.pkz, row.external_id)
        rated = row.rating is not None
        persons.append(
            _present(
                {
                    "uuid": person_id,
                    "nuLigaPersonId": person_id,
                    "firstname": row.given_name,
                    "lastname": row.surname,
                    "birthyear": row.birth_year,
                    "gender": GENDERS.get(row.sex or ""),
                    "fideId": row.fide_id,
                    "rating": row.rating,
                    "index": row.rating_index if rated else None,
                    "weekOfLastTournamentEvaluation": year_week(last.get(row.pkz)),
                    "memberships": clubs[row.pkz],
                }
            )
        )
    return persons


def search_persons(
    session: Session, wanted: PersonFilter, *, limit: int, offset: int
) -> tuple[list[dict[str, Any]], int]:
    """A page of the rating list's persons matching every filter, by surname, given name and
    number; and how many match."""
    p, r = Player, PlayerRating
    conditions = _conditions(wanted)
    total = session.execute(select(func.count()).select_from(p).where(*conditions)).scalar_one()
    rows = session.execute(
        select(*_PERSON_COLUMNS)
        .outerjoin(r, r.player_pkz == p.pkz)
        .where(*conditions)
        .order_by(p.surname, p.given_name, p.pkz)
        .limit(limit)
        .offset(offset)
    ).all()
    return _persons(session, rows), total


def person(session: Session, person_id: str) -> dict[str, Any]:
    """One person (a merged record as its survivor); ``NotFoundError`` for an unknown id."""
    return _person_of(session, resolve_person(session, person_id))


def _person_of(session: Session, pkz: int) -> dict[str, Any]:
    row = session.execute(
        select(*_PERSON_COLUMNS).outerjoin(PlayerRating, PlayerRating.player_pkz == Player.pkz).where(Player.pkz == pkz)
    ).one()
    return _persons(session, [row])[0]


def person_history(session: Session, person_id: str) -> dict[str, Any]:
    """``{person, entries, upgrades}``: every evaluated tournament of the person, newest first, and
    the conversions of the rules (the 2026 one) as upgrades, newest first."""
    pkz = resolve_person(session, person_id)
    found = _person_of(session, pkz)
    h, v = HistoryRow, TournamentVersion
    rows = session.execute(
        select(
            h.event_date,
            h.event_phase,
            h.event_text,
            h.tournament_id,
            h.old_rating,
            h.old_index,
            h.new_rating,
            h.new_index,
            h.evaluated,
            v.name,
            v.start_date,
            v.federation_prefix,
        )
        .outerjoin(v, and_(v.tournament_id == h.tournament_id, v.version == h.tournament_version))
        .where(h.player_pkz == pkz, h.event_phase.in_((1, _CONVERSION_PHASE)))
        .order_by(h.event_date.desc(), h.event_phase.desc(), h.event_text.desc(), h.event_id.desc())
    ).all()
    figures = _history_figures(session, pkz)
    entries, upgrades = [], []
    for row in rows:
        values = {
            "ratingOld": row.old_rating,
            "indexOld": row.old_index if row.old_rating is not None else None,
            "ratingNew": row.new_rating,
            "indexNew": row.new_index if row.new_rating is not None else None,
        }
        if row.event_phase == _CONVERSION_PHASE:
            upgrades.append(_present({"referenceDate": row.event_date.isoformat(), "name": row.event_text, **values}))
            continue
        games = figures.get(row.tournament_id, {})
        entries.append(
            {
                "tournament": _present(
                    {
                        "uuid": str(row.tournament_id),
                        "label": row.name or row.event_text,
                        "vkz": row.federation_prefix,
                        "startdate": None if row.start_date is None else row.start_date.isoformat(),
                        "enddate": row.event_date.isoformat(),
                    }
                ),
                "player": _present({**values, **games}),
            }
        )
    return {"person": found, "entries": entries, "upgrades": upgrades}


def _history_figures(session: Session, pkz: int) -> dict[int, dict[str, Any]]:
    """Each evaluated tournament's points and games of the person (their evaluation rows)."""
    e, h = Evaluation, HistoryRow
    rows = session.execute(
        select(e.tournament_id, e.w, e.n, e.we, e.e, e.rh)
        .join(
            h, and_(h.tournament_id == e.tournament_id, h.tournament_version == e.version, h.player_pkz == e.player_pkz)
        )
        .where(e.player_pkz == pkz)
    )
    return {
        row.tournament_id: _present(
            {
                "wins": float(row.w),
                "numberOfGames": row.n,
                "winsExpected": None if row.we is None else round(float(row.we), 3),
                "coefficient": row.e,
                "performance": row.rh,
            }
        )
        for row in rows
    }
