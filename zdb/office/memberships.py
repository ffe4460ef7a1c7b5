"""Memberships as the rating office keeps them: a join, a change of number or status, a leave,
a transfer from one club to another.

``valid_until`` is the last day of a membership. A transfer ends the old membership the day
before the new one begins, so the person belongs to exactly one of the two clubs on every day.

A join is an input of evaluations when the person was a guest: WO 3.4.3 makes a guest a person
who is not and never was a member of a federation club, so from the day he joins he is a member.
His participations in tournaments ending on or after that day count him as a member, and those
tournaments are redone; the ones before stay guest evaluations, as they were played. Leaving a
club never makes a person a guest again. Flushes, never commits.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from sqlalchemy import exists, select, update
from sqlalchemy.orm import Session

from zdb.audit.writer import changed_values, record_entry
from zdb.auth.principal import Principal
from zdb.complaints.service import link_change
from zdb.errors import ConflictError, NotFoundError, ValidationError, ValidationProblem
from zdb.federations.models import Club
from zdb.messages import Message
from zdb.office.persons import player_for_change
from zdb.office.reach import recalculation_from
from zdb.players.models import Membership, Player
from zdb.rating import OrderKey
from zdb.tournaments.models import Participation, TournamentVersion
from zdb.tournaments.person_facts import mark_stale

__all__ = ["Joined", "edit_membership", "join", "membership_values", "memberships_of", "transfer"]

_STATUSES = ("active", "passive")


@dataclass(frozen=True, slots=True)
class Joined:
    membership: Membership
    #: the earliest place of the time line the join made dirty (None: he was a member already)
    reach: OrderKey | None


def membership_values(membership: Membership) -> dict[str, Any]:
    m = membership
    return {
        "club_code": m.club_code,
        "member_no": m.member_no,
        "status": m.status,
        "valid_from": m.valid_from,
        "valid_until": m.valid_until,
    }


def memberships_of(session: Session, pkz: int) -> list[Membership]:
    """A person's memberships, the oldest first."""
    if session.get(Player, pkz) is None:
        raise NotFoundError(Message("player {pkz} does not exist", pkz=pkz))
    found = session.scalars(
        select(Membership).where(Membership.player_pkz == pkz).order_by(Membership.valid_from, Membership.id)
    )
    return list(found)


def _open_club(session: Session, code: str, field: str) -> Club:
    club = session.get(Club, code)
    if club is None:
        raise ValidationError([ValidationProblem(field, Message("no club has the code {code!r}", code=code))])
    if club.dissolved_on is not None:
        raise ConflictError(Message("club {code} was dissolved on {day}", code=code, day=club.dissolved_on.isoformat()))
    return club


def _check_number(session: Session, club: str, number: int | None, but: int | None = None) -> None:
    if number is None:
        return
    holder = session.execute(
        select(Membership.player_pkz).where(
            Membership.club_code == club,
            Membership.member_no == number,
            Membership.valid_until.is_(None),
            Membership.id != (but or 0),
        )
    ).scalar()
    if holder is not None:
        raise ConflictError(
            Message(
                "membership number {number} of club {club} is held by player {holder}",
                number=number,
                club=club,
                holder=holder,
            )
        )


def _current(session: Session, pkz: int, club: str) -> Membership | None:
    return session.execute(
        select(Membership).where(
            Membership.player_pkz == pkz, Membership.club_code == club, Membership.valid_until.is_(None)
        )
    ).scalar_one_or_none()


def _becomes_member(session: Session, pkz: int, since: date) -> OrderKey | None:
    p, v = Participation, TournamentVersion
    played_since = exists().where(v.tournament_id == p.tournament_id, v.version == p.version, v.end_date >= since)
    session.execute(
        update(p)
        .where(p.player_pkz == pkz, played_since)
        .values(member=True)
        .execution_options(synchronize_session=False)
    )
    return mark_stale(session, [pkz], since)


def _for_complaint(session: Session, caller: Principal, complaint: int | None, pkz: int, target: str) -> dict[str, Any]:
    """Link the change to the complaint it is made for (about this person; open), and the field
    its audit entry names it by; nothing without a complaint."""
    if complaint is None:
        return {}
    link_change(session, complaint, caller, kind="record", target=target, person_pkz=pkz)
    return {"complaint": complaint}


def join(
    session: Session,
    caller: Principal,
    pkz: int,
    club: str,
    *,
    member_no: int | None,
    status: str,
    valid_from: date,
    complaint: int | None = None,
    linked: bool = False,
) -> Joined:
    """``complaint``: the change is made for that complaint (about this person): it is linked to
    it (unless the caller ``linked`` it already) and the audit entry names it."""
    player = player_for_change(session, pkz)
    _open_club(session, club, "body.club_code")
    if status not in _STATUSES:
        problem = Message("must be active or passive, got {status!r}", status=status)
        raise ValidationError([ValidationProblem("body.status", problem)])
    if _current(session, pkz, club) is not None:
        raise ConflictError(Message("player {pkz} is a member of club {club} already", pkz=pkz, club=club))
    _check_number(session, club, member_no)
    membership = Membership(player_pkz=pkz, club_code=club, member_no=member_no, status=status, valid_from=valid_from)
    session.add(membership)
    session.flush()
    reach = None
    if player.guest:
        player.guest = False
        session.flush()
        reach = _becomes_member(session, pkz, valid_from)
    target = f"membership {membership.id} (player {pkz} in club {club})"
    named = {"complaint": complaint} if linked else _for_complaint(session, caller, complaint, pkz, target)
    record_entry(
        session,
        caller.token_id,
        "membership.join",
        f"player {pkz}",
        before=None,
        after=membership_values(membership),
        membership=membership.id,
        was_guest=reach is not None or None,
        recalculation_from=recalculation_from(reach),
        **named,
    )
    return Joined(membership, reach)


def edit_membership(
    session: Session,
    caller: Principal,
    membership_id: int,
    given: Mapping[str, Any],
    *,
    complaint: int | None = None,
    linked: bool = False,
) -> Membership:
    """A new number or status, a corrected start, or the leave (``valid_until``, the last day).
    ``complaint``: the change is made for that complaint (about the member), as in ``join``."""
    membership = session.get(Membership, membership_id, with_for_update=True)
    if membership is None:
        raise NotFoundError(Message("membership {id} does not exist", id=membership_id))
    before = membership_values(membership)
    values = {**before, **{k: v for k, v in given.items() if k in ("member_no", "status", "valid_from", "valid_until")}}
    problems = []
    if values["status"] not in _STATUSES:
        problem = Message("must be active or passive, got {status!r}", status=values["status"])
        problems.append(ValidationProblem("body.status", problem))
    if values["valid_from"] is None:
        problems.append(ValidationProblem("body.valid_from", Message("a membership has a first day")))
    elif values["valid_until"] is not None and values["valid_until"] < values["valid_from"]:
        problems.append(
            ValidationProblem(
                "body.valid_until",
                Message("the last day lies before the first, {first}", first=values["valid_from"]),
            )
        )
    if problems:
        raise ValidationError(problems)
    if values["valid_until"] is None:
        _check_number(session, membership.club_code, values["member_no"], but=membership.id)
    old, new = changed_values(before, values)
    if not new:
        return membership
    for name in new:
        setattr(membership, name, values[name])
    session.flush()
    action = "membership.leave" if "valid_until" in new and values["valid_until"] is not None else "membership.edit"
    pkz = membership.player_pkz
    target = f"membership {membership.id} (player {pkz} in club {membership.club_code})"
    named = {"complaint": complaint} if linked else _for_complaint(session, caller, complaint, pkz, target)
    record_entry(
        session,
        caller.token_id,
        action,
        f"player {pkz}",
        before=old,
        after=new,
        membership=membership.id,
        **named,
    )
    return membership


def transfer(
    session: Session,
    caller: Principal,
    pkz: int,
    *,
    from_club: str,
    to_club: str,
    on: date,
    member_no: int | None,
    status: str,
    complaint: int | None = None,
) -> tuple[Membership, Joined]:
    """The old membership ends the day before ``on``, the new one begins on it. ``complaint``:
    the transfer is made for that complaint (about this person): linked to it once, and both
    audit entries name it."""
    if from_club == to_club:
        raise ValidationError([ValidationProblem("body.to_club", Message("a transfer goes to another club"))])
    old = _current(session, pkz, from_club)
    if old is None:
        raise ConflictError(Message("player {pkz} is not a current member of club {club}", pkz=pkz, club=from_club))
    last_day = on - timedelta(days=1)
    if last_day < old.valid_from:
        raise ValidationError(
            [
                ValidationProblem(
                    "body.date",
                    Message(
                        "the membership in {club} began on {first}, after {last}",
                        club=from_club,
                        first=old.valid_from,
                        last=last_day,
                    ),
                )
            ]
        )
    _for_complaint(session, caller, complaint, pkz, f"player {pkz}: transfer from club {from_club} to {to_club}")
    ended = edit_membership(session, caller, old.id, {"valid_until": last_day}, complaint=complaint, linked=True)
    joined = join(
        session,
        caller,
        pkz,
        to_club,
        member_no=member_no,
        status=status,
        valid_from=on,
        complaint=complaint,
        linked=True,
    )
    return ended, joined
