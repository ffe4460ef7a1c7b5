"""Filing, reading and deciding complaints; what a correction or record change made for one
records; closing the open ones of a withdrawn or rejected tournament.

Who files: without a token a player, by his person number and an e-mail address to answer to;
a club token (its club), a referee token, the office (an admin token). A complaint about an
evaluation is accepted within the complaint period of the edition that published it
(``zdb.complaints.periods``); after it only from the office, marked late. A complaint about a
person's record has no period: a wrong record may be pointed out at any time (a person's right
to have his data corrected knows no deadline).

Deciding: a state and/or a note, against the revision read; a decision made meanwhile makes
the UPDATE find no row and the later one is a 409. A closed complaint (resolved, dismissed) is
opened again by setting it in progress. Everything is audited; the e-mail address never goes
into the audit log. Flushes, never commits.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from datetime import UTC, datetime

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from zdb.audit.writer import record_entry
from zdb.auth.errors import PermissionDeniedError
from zdb.auth.principal import Principal
from zdb.complaints.models import OPEN, Complaint, ComplaintLink, ComplaintNote
from zdb.complaints.periods import Period, complaint_period
from zdb.complaints.routing import route_complaint, sees
from zdb.complaints.schemas import ComplaintIn, DecisionIn
from zdb.errors import ConflictError, NotFoundError, ValidationError, ValidationProblem
from zdb.messages import Message
from zdb.players.merged import survivor_of
from zdb.tournaments.models import Participation, TournamentRecord

__all__ = [
    "close_for_tournament",
    "decide",
    "file_complaint",
    "followed",
    "link_change",
    "links_of",
    "notes_of",
    "open_count",
    "seen_complaint",
    "staff_complaints",
]


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def _who(caller: Principal) -> str:
    return f"{caller.role} {caller.scope or ''} (token {caller.token_id})".replace("  ", " ")


def _problems(session: Session, body: ComplaintIn, caller: Principal) -> list[ValidationProblem]:
    problems: list[ValidationProblem] = []
    if caller.role == "public":
        if body.pkz is None:
            problems.append(ValidationProblem("body.pkz", Message("a player names his person number")))
        elif survivor_of(session, body.pkz) is None:
            problems.append(
                ValidationProblem("body.pkz", Message("no player has the person number {pkz}", pkz=body.pkz))
            )
        if body.email is None:
            problems.append(ValidationProblem("body.email", Message("an e-mail address to answer to is needed")))
    if body.subject == "evaluation":
        if body.tournament is None:
            problems.append(
                ValidationProblem("body.tournament", Message("a complaint about an evaluation names its tournament"))
            )
        elif session.get(TournamentRecord, body.tournament) is None:
            problems.append(
                ValidationProblem("body.tournament", Message("tournament {id} does not exist", id=body.tournament))
            )
        elif session.get(TournamentRecord, body.tournament).status == "withdrawn":  # type: ignore[union-attr]
            problems.append(
                ValidationProblem("body.tournament", Message("tournament {id} was withdrawn", id=body.tournament))
            )
    person = body.person if body.person is not None else (body.pkz if body.subject == "record" else None)
    if person is not None and survivor_of(session, person) is None:
        problems.append(ValidationProblem("body.person", Message("no player has the person number {pkz}", pkz=person)))
    elif person is not None and body.subject == "evaluation" and body.tournament is not None and not problems:
        played = session.execute(
            select(Participation.player_pkz)
            .where(Participation.tournament_id == body.tournament, Participation.player_pkz == person)
            .limit(1)
        ).scalar()
        if played is None:
            problems.append(
                ValidationProblem(
                    "body.person",
                    Message("{pkz} did not play in tournament {id}", pkz=person, id=body.tournament),
                )
            )
    if body.subject == "record" and person is None:
        problems.append(ValidationProblem("body.person", Message("a complaint about a record names the person")))
    return problems


def file_complaint(
    session: Session, body: ComplaintIn, caller: Principal, *, now: datetime, days: int
) -> tuple[Complaint, str, Period]:
    """Store a complaint, routed; its private link's secret (shown once) and its period."""
    problems = _problems(session, body, caller)
    if problems:
        raise ValidationError(problems)
    period = Period(None, None, None)
    late = False
    if body.subject == "evaluation":
        assert body.tournament is not None
        period = complaint_period(session, body.tournament, days=days)
        if not period.open_on(now.date()):
            if caller.role != "admin":
                raise ConflictError(
                    Message(
                        "the complaint period of the edition {edition} ended on {day}: the federation's office may "
                        "still take the complaint",
                        edition=period.edition,
                        day=period.until.isoformat() if period.until else "",
                    )
                )
            late = True
    person = body.person if body.person is not None else (body.pkz if body.subject == "record" else None)
    person = None if person is None else survivor_of(session, person)
    route = route_complaint(session, tournament_id=body.tournament, person_pkz=person)
    secret = secrets.token_urlsafe(24)
    kind = {"public": "player", "club": "club", "referee": "referee", "admin": "office"}[caller.role]
    made = Complaint(
        filed_at=now,
        filer_kind=kind,
        filer_pkz=None if body.pkz is None else survivor_of(session, body.pkz),
        email=body.email,
        filer_club=caller.scope if caller.role == "club" else None,
        filed_by="public" if caller.role == "public" else _who(caller),
        subject=body.subject,
        tournament_id=body.tournament if body.subject == "evaluation" else None,
        person_pkz=person,
        text=body.text,
        state="new",
        revision=0,
        routed_to=route.to,
        routed_scope=route.scope,
        routed_token_id=route.token_id,
        edition_id=period.edition_id,
        late=late,
        follow_hash=_hash(secret),
        changed_at=now,
    )
    session.add(made)
    session.flush()
    record_entry(
        session,
        caller.token_id,
        "complaint.file",
        f"complaint {made.id}",
        subject=body.subject,
        tournament=made.tournament_id,
        person=person,
        routed_to=route.to,
        routed_scope=route.scope,
        late=late,
    )
    return made, secret, period


def followed(session: Session, secret: str) -> Complaint:
    found = session.execute(select(Complaint).where(Complaint.follow_hash == _hash(secret))).scalar()
    if found is None:
        raise NotFoundError(Message("no complaint has this link"))
    return found


def seen_complaint(session: Session, complaint_id: int, caller: Principal) -> Complaint:
    """A complaint the caller may read and decide: 404 if none, 403 if routed to someone else."""
    found = session.get(Complaint, complaint_id)
    if found is None:
        raise NotFoundError(Message("complaint {id} does not exist", id=complaint_id))
    if not sees(caller, found.routed_token_id, found.routed_scope):
        raise PermissionDeniedError(Message("complaint {id} is routed to another rating officer", id=complaint_id))
    return found


def staff_complaints(
    session: Session, caller: Principal, *, state: str | None, limit: int, offset: int
) -> tuple[list[Complaint], int]:
    """The complaints the caller sees, the open ones first, oldest first."""
    c = Complaint
    where = [] if state is None else [c.state == state]
    rows: Sequence[Complaint] = (
        session.execute(select(c).where(*where).order_by(c.state.not_in(OPEN), c.filed_at, c.id)).scalars().all()
    )
    # the routing is read in Python: a few hundred complaints a year
    mine = [r for r in rows if sees(caller, r.routed_token_id, r.routed_scope)]
    return mine[offset : offset + limit], len(mine)


def notes_of(session: Session, complaint_id: int) -> list[ComplaintNote]:
    n = ComplaintNote
    return list(session.execute(select(n).where(n.complaint_id == complaint_id).order_by(n.at, n.id)).scalars())


def links_of(session: Session, complaint_id: int) -> list[ComplaintLink]:
    k = ComplaintLink
    return list(session.execute(select(k).where(k.complaint_id == complaint_id).order_by(k.at, k.id)).scalars())


def _change(
    session: Session, found: Complaint, *, revision: int, state: str | None, note: str | None, by: str, now: datetime
) -> None:
    """The conditional UPDATE that makes one of two decisions at once win."""
    values: dict[str, object] = {"revision": revision + 1, "changed_at": now}
    if state is not None:
        values["state"] = state
    done = session.execute(
        update(Complaint)
        .where(Complaint.id == found.id, Complaint.revision == revision)
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    if done.rowcount != 1:  # type: ignore[attr-defined]
        raise ConflictError(
            Message(
                "complaint {id} was changed meanwhile (revision {revision} is no longer the current one): "
                "read it again and decide once more",
                id=found.id,
                revision=revision,
            )
        )
    session.add(ComplaintNote(complaint_id=found.id, at=now, by=by, state=state, text=note))
    session.flush()
    session.refresh(found)


def decide(session: Session, complaint_id: int, caller: Principal, body: DecisionIn, *, now: datetime) -> Complaint:
    found = seen_complaint(session, complaint_id, caller)
    if body.state is None and body.note is None:
        raise ValidationError([ValidationProblem("body", Message("a decision sets a state, writes a note, or both"))])
    if body.state == "new":
        raise ValidationError([ValidationProblem("body.state", Message("a complaint cannot be made new again"))])
    before = found.state
    _change(session, found, revision=body.revision, state=body.state, note=body.note, by=_who(caller), now=now)
    record_entry(
        session,
        caller.token_id,
        "complaint.decide",
        f"complaint {found.id}",
        before={"state": before},
        after={"state": found.state},
        **({"note": body.note} if body.note else {}),
    )
    return found


def link_change(
    session: Session,
    complaint_id: int,
    caller: Principal,
    *,
    kind: str,
    target: str,
    tournament_id: int | None = None,
    person_pkz: int | None = None,
    other_pkz: int | None = None,
    place: str = "query.complaint",
    now: datetime | None = None,
) -> Complaint:
    """Record that a correction (of ``tournament_id``) or a record change (of ``person_pkz``, or
    of two records made one: ``other_pkz`` too) was made for a complaint; the complaint must be
    open and about that tournament or one of those persons. The caller's audit entry of the
    change names the complaint too (its door adds ``complaint``)."""
    found = session.get(Complaint, complaint_id)
    if found is None or not sees(caller, found.routed_token_id, found.routed_scope):
        raise ValidationError(
            [ValidationProblem(place, Message("complaint {id} does not exist or is not yours", id=complaint_id))]
        )
    if found.state not in OPEN:
        # a closed complaint's links tell what was done before it was decided: nothing joins later
        raise ValidationError(
            [
                ValidationProblem(
                    place,
                    Message(
                        "complaint {id} is closed ({state}): a change is linked to an open complaint",
                        id=complaint_id,
                        state=found.state,
                    ),
                )
            ]
        )
    persons = {pkz for pkz in (person_pkz, other_pkz) if pkz is not None}
    fits = (tournament_id is not None and found.tournament_id == tournament_id) or bool(
        persons & {found.person_pkz, found.filer_pkz}
    )
    if not fits:
        about = (
            Message("tournament {id}", id=tournament_id)
            if tournament_id is not None
            else Message("person {pkz}", pkz=person_pkz)
        )
        raise ValidationError(
            [ValidationProblem(place, Message("complaint {id} is not about {about}", id=complaint_id, about=about))]
        )
    session.add(
        ComplaintLink(complaint_id=found.id, kind=kind, target=target, at=now or datetime.now(UTC), by=_who(caller))
    )
    session.flush()
    return found


def close_for_tournament(session: Session, caller: Principal, tournament_id: int, *, why: str, now: datetime) -> int:
    """Close the open complaints about a withdrawn or rejected tournament, each with a note:
    resolved, as the evaluation complained about no longer counts (not dismissed: nobody found
    the complaint unfounded). How many were closed."""
    c = Complaint
    open_ones = list(
        session.execute(select(c).where(c.tournament_id == tournament_id, c.state.in_(OPEN)).order_by(c.id)).scalars()
    )
    for found in open_ones:
        before = found.state
        _change(session, found, revision=found.revision, state="resolved", note=why, by=_who(caller), now=now)
        record_entry(
            session,
            caller.token_id,
            "complaint.close",
            f"complaint {found.id}",
            before={"state": before},
            after={"state": "resolved"},
            note=why,
        )
    return len(open_ones)


def open_count(session: Session, caller: Principal) -> int:
    c = Complaint
    rows = session.execute(select(c.routed_token_id, c.routed_scope).where(c.state.in_(OPEN))).all()
    return sum(1 for token_id, scope in rows if sees(caller, token_id, scope))
