"""Merging two records of one person (a newcomer entered twice): everything of the absorbed
record moves to the surviving person number, and the absorbed number points at it forever.

What moves: every participation (with its games, in every version), the memberships, a start
rating set by staff, and the imported start state with its leftover games when the survivor has
none (when both have one, the survivor's counts: it is the record the office keeps; the audit
keeps the other). The survivor's empty fields take the absorbed record's values; two different
birth years, birth dates or FIDE ids refuse the merge (staff correct one record first), as does
one tournament both records played in: two people, or a file that names one person twice.

The stored results of both persons are redone: the time line is dirty from the earliest event
of either record (his first tournament, or a start state's step before it), and every tournament
of the survivor is marked stale. An unmerge is not offered. Flushes, never commits.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy import and_, delete, func, insert, literal, select, update
from sqlalchemy.orm import Session, aliased

from zdb.audit.writer import record_entry
from zdb.auth.principal import Principal
from zdb.complaints.service import link_change
from zdb.errors import ConflictError, NotFoundError, ValidationError, ValidationProblem
from zdb.messages import Message
from zdb.office.persons import EDITABLE, person_values
from zdb.office.reach import recalculation_from
from zdb.players.models import Membership, Player
from zdb.rating import OrderKey
from zdb.timeline.dirty import mark_dirty
from zdb.timeline.models import HistoryRow, InitialState, PlayerRating, StartRatingRow
from zdb.tournaments.models import GameRow, Participation
from zdb.tournaments.person_facts import mark_stale

__all__ = ["Merge", "merge_persons"]

#: fields that must agree when both records hold them
#: the fields two records of one person never disagree in, with their words in a refusal
_IDENTIFYING = {"birth_year": Message("birth year"), "birth_date": Message("birth date"), "fide_id": Message("fide id")}


@dataclass(frozen=True, slots=True)
class Merge:
    survivor: int
    absorbed: int
    participations: int
    memberships: int
    #: the earliest place of the time line redone (None: neither record has played or been rated)
    reach: OrderKey | None


def _locked(session: Session, survivor: int, absorbed: int) -> tuple[Player, Player]:
    if survivor == absorbed:
        raise ValidationError([ValidationProblem("body.absorb", Message("a record is not merged with itself"))])
    # In person-number order: two merges of the same pair in opposite directions cannot deadlock.
    found = {
        p.pkz: p
        for p in session.scalars(
            select(Player).where(Player.pkz.in_([survivor, absorbed])).order_by(Player.pkz).with_for_update()
        )
    }
    for pkz in (survivor, absorbed):
        if pkz not in found:
            raise NotFoundError(Message("player {pkz} does not exist", pkz=pkz))
        if found[pkz].merged_into is not None:
            raise ConflictError(
                Message("player {pkz} was merged into {survivor} already", pkz=pkz, survivor=found[pkz].merged_into)
            )
    return found[survivor], found[absorbed]


def _shared_tournaments(session: Session, survivor: int, absorbed: int) -> list[int]:
    mine, theirs = aliased(Participation), aliased(Participation)
    return list(
        session.scalars(
            select(mine.tournament_id)
            .join(theirs, and_(theirs.tournament_id == mine.tournament_id, theirs.version == mine.version))
            .where(mine.player_pkz == survivor, theirs.player_pkz == absorbed)
            .distinct()
            .order_by(mine.tournament_id)
        )
    )


def _earliest_step(session: Session, survivor: int, absorbed: int) -> OrderKey | None:
    """The first stored step of either person (a start rating or the conversion may lie before
    his first tournament), or the day of a start rating of the absorbed record."""
    h = HistoryRow
    first = session.execute(
        select(h.event_date, h.event_phase, h.event_text, h.event_id)
        .where(h.player_pkz.in_([survivor, absorbed]))
        .order_by(h.event_date, h.event_phase, h.event_text, h.event_id)
        .limit(1)
    ).first()
    starts: date | None = session.execute(
        select(func.min(StartRatingRow.rating_date)).where(StartRatingRow.player_pkz == absorbed)
    ).scalar()
    keys: list[OrderKey] = [] if first is None else [(first[0], first[1], first[2], first[3])]
    if starts is not None:
        # A start rating's place names its person: at the survivor's it may come earlier that
        # day, so the whole day is redone.
        keys.append((starts, 0, "", 0))
    return min(keys) if keys else None


def _move_participations(session: Session, survivor: int, absorbed: int) -> int:
    """Games reference their players' participations, so a participation cannot be renumbered in
    place: a copy under the survivor's number (at a negative position, free in every version)
    takes the games, then the absorbed one goes (with its evaluation) and the copy its position."""
    p = Participation
    # Counted first: an INSERT from a SELECT does not tell its row count on every driver.
    count = session.execute(select(func.count()).select_from(p).where(p.player_pkz == absorbed)).scalar_one()
    session.execute(
        insert(p).from_select(
            ["tournament_id", "version", "player_pkz", "position", "birth_year", "member", "fide_rating"],
            select(
                p.tournament_id, p.version, literal(survivor), -p.position, p.birth_year, p.member, p.fide_rating
            ).where(p.player_pkz == absorbed),
        )
    )
    for column in (GameRow.white_pkz, GameRow.black_pkz):
        session.execute(
            update(GameRow)
            .where(column == absorbed)
            .values({column: survivor})
            .execution_options(synchronize_session=False)
        )
    session.execute(delete(p).where(p.player_pkz == absorbed).execution_options(synchronize_session=False))
    session.execute(
        update(p)
        .where(p.player_pkz == survivor, p.position < 0)
        .values(position=-p.position)
        .execution_options(synchronize_session=False)
    )
    return int(count)


def _start_state(session: Session, survivor: int, absorbed: int) -> dict[str, Any] | None:
    """Moves the absorbed start state when the survivor has none; returns the one dropped."""
    theirs = session.get(InitialState, absorbed)
    if theirs is None:
        return None
    if session.get(InitialState, survivor) is None:
        theirs.player_pkz = survivor
        session.flush()
        return None
    dropped = {"rating": theirs.rating, "index": theirs.rating_index, "leftover": theirs.leftover}
    session.delete(theirs)
    session.flush()
    return dropped


def merge_persons(
    session: Session, caller: Principal, survivor: int, absorbed: int, *, complaint: int | None = None
) -> Merge:
    """Make two records of one person one. ``complaint``: the merge is made for that complaint
    (about either record): it is linked to it and the audit entry names it."""
    kept, gone = _locked(session, survivor, absorbed)
    shared = _shared_tournaments(session, survivor, absorbed)
    if shared:
        raise ConflictError(
            Message(
                "players {survivor} and {absorbed} both played in tournament {listed}: two people, or a file that "
                "names one person twice; correct the tournament first",
                survivor=survivor,
                absorbed=absorbed,
                listed=", ".join(str(t) for t in shared),
            )
        )
    for name, word in _IDENTIFYING.items():
        mine, theirs = getattr(kept, name), getattr(gone, name)
        if mine is not None and theirs is not None and mine != theirs:
            raise ConflictError(
                Message(
                    "the records differ in {field} ({mine} and {theirs}): correct one record first",
                    field=word,
                    mine=mine,
                    theirs=theirs,
                )
            )
    days = (
        session.execute(
            select(StartRatingRow.rating_date)
            .where(StartRatingRow.player_pkz == survivor)
            .intersect(select(StartRatingRow.rating_date).where(StartRatingRow.player_pkz == absorbed))
        )
        .scalars()
        .first()
    )
    if days is not None:
        raise ConflictError(
            Message("both records have a start rating on {day}: remove one first", day=days.isoformat())
        )
    was, absorbed_values = person_values(kept), person_values(gone)
    earliest = _earliest_step(session, survivor, absorbed)

    moved = _move_participations(session, survivor, absorbed)
    moved_memberships = session.execute(
        update(Membership)
        .where(Membership.player_pkz == absorbed)
        .values(player_pkz=survivor)
        .execution_options(synchronize_session=False)
    )
    memberships = moved_memberships.rowcount or 0  # type: ignore[attr-defined]
    session.execute(
        update(StartRatingRow)
        .where(StartRatingRow.player_pkz == absorbed)
        .values(player_pkz=survivor, evaluated=False)
        .execution_options(synchronize_session=False)
    )
    dropped = _start_state(session, survivor, absorbed)
    # The stored results of the absorbed number vanish; the recalculation writes the survivor's anew.
    for table in (HistoryRow, PlayerRating):
        session.execute(delete(table).where(table.player_pkz == absorbed).execution_options(synchronize_session=False))

    fide_id = gone.fide_id
    gone.fide_id = None  # unique: free it before the survivor takes it
    gone.merged_into = survivor
    session.flush()
    for name in ("birth_year", "birth_date", "sex", "nation", "given_name"):
        if getattr(kept, name) in (None, "") and getattr(gone, name) not in (None, ""):
            setattr(kept, name, getattr(gone, name))
    if kept.fide_id is None:
        kept.fide_id = fide_id
    # WO 3.4.3: a guest never was a member; if either record was one, the person was.
    kept.guest = kept.guest and gone.guest
    session.flush()
    session.execute(
        update(Participation)
        .where(Participation.player_pkz == survivor)
        .values(birth_year=kept.birth_year, **({} if was["guest"] == gone.guest else {"member": not kept.guest}))
        .execution_options(synchronize_session=False)
    )
    stale = mark_stale(session, [survivor])
    starts = [k for k in (stale, earliest) if k is not None]
    if earliest is not None:
        mark_dirty(session, [earliest])
    reach = min(starts) if starts else None
    after = person_values(kept)
    if complaint is not None:
        target = f"player {survivor} (absorbed {absorbed})"
        link_change(session, complaint, caller, kind="record", target=target, person_pkz=survivor, other_pkz=absorbed)
    record_entry(
        session,
        caller.token_id,
        "player.merge",
        f"player {survivor}",
        before={"survivor": was, "absorbed": {"pkz": absorbed, **absorbed_values}},
        after={k: after[k] for k in EDITABLE},
        absorbed=absorbed,
        participations_moved=moved,
        memberships_moved=memberships,
        start_state_dropped=dropped,
        recalculation_from=recalculation_from(reach),
        **({"complaint": complaint} if complaint is not None else {}),
    )
    return Merge(survivor, absorbed, moved, int(memberships), reach)
