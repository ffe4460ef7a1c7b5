"""The record is the authority on a person: what an evaluation needs of a known participant
comes from his record, and a file only identifies him.

Spec §13.16: the birth year is a fact of the person, not of one tournament; every evaluation
of that person uses the record's, whichever file named him. WO 3.4.3: a guest is a person who
is not and never was a member of a federation club; that, too, is the record's fact (its
``guest`` flag, set when the person was created), not a consequence of which lines a file has.

When a file tells a birth year the record does not know, the record learns it. Every stored
evaluation of that person was made without it, so each tournament he plays in is marked stale
(``TournamentRecord.stale_generation``), his participations take the year, and the time line
is dirty from the first of them: the recalculation that follows redoes them, and the invariant
"stored = from scratch" holds. A file whose value contradicts the record changes nothing; the
caller answers it with a warning naming both values (staff correct records).

Flushes, never commits.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date

from sqlalchemy import and_, select, update
from sqlalchemy.orm import Session

from zdb.errors import ConflictError
from zdb.players.models import Player
from zdb.rating import OrderKey
from zdb.timeline.dirty import mark_dirty
from zdb.tournaments.models import Participation, TournamentRecord, TournamentVersion

__all__ = ["KnownPerson", "known_people", "learn_birth_years", "mark_stale"]


@dataclass(frozen=True, slots=True)
class KnownPerson:
    """What the record says of a participant that a file may leave out or spell otherwise."""

    pkz: int
    name: str
    birth_year: int | None
    guest: bool


def known_people(session: Session, numbers: Iterable[int]) -> dict[int, KnownPerson]:
    wanted = sorted(set(numbers))
    if not wanted:
        return {}
    p = Player
    rows = session.execute(select(p.pkz, p.given_name, p.surname, p.birth_year, p.guest).where(p.pkz.in_(wanted)))
    return {r.pkz: KnownPerson(r.pkz, f"{r.given_name} {r.surname}".strip(), r.birth_year, bool(r.guest)) for r in rows}


def learn_birth_years(session: Session, years: Mapping[int, int]) -> OrderKey | None:
    """Store birth years the records did not know; returns the earliest place of the time line
    this makes dirty (None: none of these persons has played yet)."""
    if not years:
        return None
    # Locked: a concurrent submission that learns another year for the same person waits, and
    # then finds the year known (and is refused with a conflict instead of overwriting it).
    rows = session.execute(select(Player.pkz, Player.birth_year).where(Player.pkz.in_(list(years))).with_for_update())
    current = {r.pkz: r.birth_year for r in rows}
    for pkz, year in years.items():
        if current.get(pkz) is not None and current[pkz] != year:
            raise ConflictError(
                f"the birth year of {pkz} was recorded as {current[pkz]} meanwhile; submit the tournament again"
            )
    for pkz, year in years.items():
        session.execute(update(Player).where(Player.pkz == pkz).values(birth_year=year))
        session.execute(
            update(Participation)
            .where(Participation.player_pkz == pkz)
            .values(birth_year=year)
            .execution_options(synchronize_session=False)
        )
    return mark_stale(session, list(years))


def mark_stale(session: Session, numbers: list[int], since: date | None = None) -> OrderKey | None:
    """Every tournament of the time line these persons play in (current version, not withdrawn;
    ``since``: ending on or after that day); returns the earliest place made dirty."""
    t, v, p = TournamentRecord, TournamentVersion, Participation
    rows = session.execute(
        select(t.id, v.end_date, v.acronym)
        .join(v, and_(v.tournament_id == t.id, v.version == t.current_version))
        .join(p, and_(p.tournament_id == t.id, p.version == t.current_version))
        .where(p.player_pkz.in_(numbers), t.status != "withdrawn", *([] if since is None else [v.end_date >= since]))
        .distinct()
    ).all()
    if not rows:
        return None
    keys: list[OrderKey] = [(r.end_date, 1, r.acronym, r.id) for r in rows]
    generation = mark_dirty(session, keys)
    ids = [r.id for r in rows]
    for start in range(0, len(ids), 5000):
        session.execute(
            update(t)
            # Always the newest generation: a run that started before this change must not clear it.
            .where(t.id.in_(ids[start : start + 5000]))
            .values(stale_generation=generation)
            .execution_options(synchronize_session=False)
        )
    return min(keys)
