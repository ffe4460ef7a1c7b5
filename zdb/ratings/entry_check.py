"""The entry check for organisers: a tournament's entry list in, per entry whether the person is
known, a member of a club or a guest at the start date, rated, and his current DWZ — the check
a pairing program makes at registration.

Beside the players' matching (``zdb.players.matching``) and by its rules, reading only: an entry
names a person by person number (a merged number answers with the record it was merged into),
by club code + membership number (a membership holding that number at the start date), or by
name + birth date. The full birth date is non-public, so, as in the matching, it is compared
only on the records whose birth date the caller may read; any other record is compared by name
and birth year alone (the answer must not tell whether a tried date fits). Two records fitting
one entry are answered as ambiguous with their person numbers, never guessed.

Member or guest: a member is a person with a membership valid on the start date (its club is
named); anyone else is a guest there (WO 3.4.3: a guest of the federation's list is never a
member). Rated: a current rating exists. Nothing is written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from zdb.auth.principal import Principal
from zdb.common.names import fold_name
from zdb.players.merged import LIVE, survivor_of
from zdb.players.models import Membership, Player
from zdb.players.similar import current_clubs
from zdb.timeline.models import PlayerRating

__all__ = ["MAX_ENTRIES", "CheckedEntry", "Entry", "check_entries"]

#: the most entries of one call (a large open has some 500)
MAX_ENTRIES = 1000


@dataclass(frozen=True, slots=True)
class Entry:
    pkz: int | None = None
    club: str | None = None
    member_no: int | None = None
    surname: str | None = None
    given_name: str | None = None
    birth_date: date | None = None


@dataclass(frozen=True, slots=True)
class CheckedEntry:
    known: bool
    pkz: int | None = None
    member: bool | None = None
    club: str | None = None
    rated: bool | None = None
    dwz: int | None = None
    dwz_index: int | None = None
    candidates: tuple[int, ...] = ()
    note: str | None = None


def _membership_on(session: Session, pkz: int, on: date) -> str | None:
    m = Membership
    return session.execute(
        select(m.club_code)
        .where(m.player_pkz == pkz, m.valid_from <= on, or_(m.valid_until.is_(None), m.valid_until >= on))
        .order_by(m.valid_from, m.id)
        .limit(1)
    ).scalar()


def _by_number(session: Session, club: str, number: int, on: date) -> int | None:
    m = Membership
    found = session.execute(
        select(m.player_pkz)
        .where(
            m.club_code == club,
            m.member_no == number,
            m.valid_from <= on,
            or_(m.valid_until.is_(None), m.valid_until >= on),
        )
        .limit(1)
    ).scalar()
    return None if found is None else survivor_of(session, found)


def _by_name(session: Session, entry: Entry, caller: Principal) -> list[int]:
    assert entry.surname is not None and entry.birth_date is not None
    folded = fold_name(f"{entry.given_name or ''} {entry.surname}".strip())
    year = entry.birth_date.year
    candidates = list(
        session.execute(
            select(Player)
            .where(Player.search_name == folded, LIVE, or_(Player.birth_year == year, Player.birth_year.is_(None)))
            .order_by(Player.pkz)
        ).scalars()
    )
    clubs = current_clubs(session, [p.pkz for p in candidates])
    return [
        p.pkz
        for p in candidates
        # outside the caller's scope the date is not compared, whether it fits or not
        if not caller.sees_private(clubs[p.pkz]) or p.birth_date is None or p.birth_date == entry.birth_date
    ]


def _identify(
    session: Session, entry: Entry, on: date, caller: Principal
) -> tuple[int | None, tuple[int, ...], str | None]:
    if entry.pkz is not None:
        found = survivor_of(session, entry.pkz)
        return found, (), None if found is None else (None if found == entry.pkz else f"merged into {found}")
    if entry.club is not None and entry.member_no is not None:
        return _by_number(session, entry.club, entry.member_no, on), (), None
    if entry.surname is not None and entry.birth_date is not None:
        found_by_name = _by_name(session, entry, caller)
        if len(found_by_name) > 1:
            return None, tuple(found_by_name), "ambiguous: name the player by person number"
        return (found_by_name[0] if found_by_name else None), (), None
    return None, (), "no identification: a person number, club + membership number, or name + birth date"


def check_entries(session: Session, entries: Sequence[Entry], *, start: date, caller: Principal) -> list[CheckedEntry]:
    """Each entry, in the list's order."""
    answers = []
    for entry in entries:
        pkz, candidates, note = _identify(session, entry, start, caller)
        if pkz is None:
            answers.append(CheckedEntry(known=False, candidates=candidates, note=note))
            continue
        club = _membership_on(session, pkz, start)
        rating = session.get(PlayerRating, pkz)
        dwz = None if rating is None else rating.rating
        answers.append(
            CheckedEntry(
                known=True,
                pkz=pkz,
                member=club is not None,
                club=club,
                rated=dwz is not None,
                dwz=dwz,
                dwz_index=None if rating is None or dwz is None else rating.rating_index,
                note=note,
            )
        )
    return answers
