"""A submission held in review, and the responsible officer's decision on it.

``hold`` keeps a checked submission (a new tournament or a correction) waiting; nothing of it
reaches the time line. ``approve`` stores it as the referee's submission would have been stored
without review: a new tournament or version, its fingerprint, its announcement, the birth years
the records learn from it, and the time line marked dirty at its place as of today (the
recalculation follows the commit). ``reject`` keeps the reason, which the referee sees.

Two officers deciding the same submission at once: the decision is a conditional update of the
review's state (``waiting`` to ``approved`` or ``rejected``); the second finds it decided and is
refused with a conflict naming the first decision. A correction of a tournament already waiting
in review is refused until that one is decided (one waiting version per tournament), so that an
officer never approves a version that another has overtaken.

Flushes, never commits.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from zdb.audit.writer import record_entry
from zdb.auth.errors import PermissionDeniedError
from zdb.auth.principal import Principal
from zdb.errors import ConflictError, NotFoundError, ValidationError, ValidationProblem
from zdb.locks import TOURNAMENT_IDS
from zdb.locks import hold as hold_lock
from zdb.messages import Message
from zdb.reviews.models import Review
from zdb.reviews.rules import officer_prefixes, responsible_officer
from zdb.reviews.stored_submission import intake_from_json, intake_to_json
from zdb.reviews.waiting_duplicates import refuse_waiting_equal
from zdb.submissions.intake import Intake
from zdb.tournaments.announcements import claim as claim_announcement
from zdb.tournaments.duplicates import check_duplicates, fingerprint, remember_fingerprint
from zdb.tournaments.models import Announcement
from zdb.tournaments.person_facts import learn_birth_years
from zdb.tournaments.service import submit_tournaments
from zdb.tournaments.states import record_state

__all__ = [
    "MAX_REASON",
    "approve",
    "close_for_withdrawal",
    "find_review",
    "hold",
    "may_decide",
    "may_see",
    "reject",
    "visible_review",
]

#: the longest reason an officer gives (the states table keeps 1000 characters)
MAX_REASON = 1000


def find_review(session: Session, review_id: int) -> Review:
    found = session.get(Review, review_id)
    if found is None:
        raise NotFoundError(Message("review {id} does not exist", id=review_id))
    return found


def _officer_for(session: Session, caller: Principal, review: Review) -> bool:
    # an officer decides for his federation and, standing in, for every one below it
    return any(review.responsible_prefix.startswith(p) for p in officer_prefixes(session, caller))


def may_decide(session: Session, caller: Principal, review: Review) -> bool:
    if caller.token_id is not None and caller.token_id == review.submitter_token_id and caller.role != "admin":
        return False  # four eyes: nobody approves his own submission (the rating office may)
    return caller.role == "admin" or _officer_for(session, caller, review)


def may_see(session: Session, caller: Principal, review: Review) -> bool:
    """The rating office, the responsible officers, and the referees of its federation's subtree."""
    return (
        caller.role == "admin"
        or (caller.role == "referee" and caller.covers(review.federation_prefix))
        or _officer_for(session, caller, review)
    )


def hold(
    session: Session,
    caller: Principal,
    intake: Intake,
    *,
    by: str,
    announcement: Announcement | None,
) -> Review:
    """Keep a checked submission waiting for the responsible officer.

    Its newcomers were created when it arrived (the officer's preview names them, and the
    approval stores games by person number); a rejected file's newcomers stay as records
    without games, for the office to merge or keep. The birth years it teaches are learned only
    on approval. One equal to a submission waiting already is refused by name
    (``zdb.reviews.waiting_duplicates``); the caller holds the tournament-id lock."""
    submission = intake.submission
    refuse_waiting_equal(session, submission)
    corrected = submission.tournament_id
    if corrected is not None:
        waiting = session.execute(
            select(Review.id).where(Review.tournament_id == corrected, Review.state == "waiting").with_for_update()
        ).scalar()
        if waiting is not None:
            raise ConflictError(
                Message(
                    "a correction of tournament {id} waits in review already (review {review}); nothing was stored: "
                    "send this one after the officer has decided",
                    id=corrected,
                    review=waiting,
                )
            )
    federation = submission.federation_prefix or ""
    responsible, _ = responsible_officer(session, federation)
    now = datetime.now(UTC)
    review = Review(
        state="waiting",
        tournament_id=corrected,
        correction=corrected is not None,
        federation_prefix=federation,
        responsible_prefix=responsible,
        acronym=submission.acronym,
        name=submission.name,
        end_date=submission.end_date,
        players=len(submission.players),
        games=len(submission.games),
        submission=intake_to_json(intake),
        fingerprint=fingerprint(submission),
        announcement_id=None if announcement is None else announcement.id,
        submitted_by=by,
        submitter_token_id=caller.token_id,
        submitted_at=now,
    )
    session.add(review)
    session.flush()
    if corrected is not None:
        record_state(session, corrected, "in_review", by=by, why=f"review {review.id}", at=now)
    return review


def visible_review(session: Session, caller: Principal, review_id: int) -> Review:
    """The review, for a caller who may see it; to anyone else it does not exist (404)."""
    found = find_review(session, review_id)
    if not may_see(session, caller, found):
        raise NotFoundError(Message("review {id} does not exist", id=review_id))
    return found


def _decide(session: Session, caller: Principal, review_id: int, *, state: str, reason: str | None, by: str) -> Review:
    review = visible_review(session, caller, review_id)
    if not may_decide(session, caller, review):
        raise PermissionDeniedError(
            Message(
                "review {id} is decided by the officer responsible for federation {prefix!r} (or the rating office); "
                "a referee does not decide his own submission",
                id=review_id,
                prefix=review.responsible_prefix,
            )
        )
    now = datetime.now(UTC)
    # The decision is one conditional update: of two officers deciding at once, the second
    # waits for the first one's row lock and then finds the review decided (0 rows).
    decided = session.execute(
        update(Review)
        .where(Review.id == review_id, Review.state == "waiting")
        .values(state=state, decided_by=by, decided_at=now, reason=reason)
        .execution_options(synchronize_session=False)
    )
    if decided.rowcount != 1:  # type: ignore[attr-defined]
        session.refresh(review)
        raise ConflictError(
            Message(
                "review {id} was {state} by {by} already",
                id=review_id,
                state=Message("approved") if review.state == "approved" else Message("rejected"),
                by=review.decided_by or "",
            )
        )
    session.refresh(review)
    return review


def _reason(text: str | None, *, required: bool) -> str | None:
    cleaned = None if text is None else " ".join(text.split())
    if required and not cleaned:
        raise ValidationError(
            [ValidationProblem("body.reason", Message("a rejection needs a reason: the referee reads it"))]
        )
    if cleaned is not None and len(cleaned) > MAX_REASON:
        raise ValidationError([ValidationProblem("body.reason", Message("at most {n} characters", n=MAX_REASON))])
    return cleaned or None


def approve(session: Session, caller: Principal, review_id: int, *, by: str, note: str | None = None) -> Review:
    """Store the waiting submission as a tournament (or the corrected tournament's new version)
    and mark the time line dirty at its place; nothing was evaluated before this."""
    note = _reason(note, required=False)
    review = _decide(session, caller, review_id, state="approved", reason=note, by=by)
    intake = intake_from_json(review.submission)
    submission = intake.submission
    hold_lock(session, TOURNAMENT_IDS)
    # A tournament stored meanwhile with the same content: refused by name (409). One sharing
    # most games was confirmed by the referee when he sent it, or he would have been refused.
    check_duplicates(session, submission, confirmed=True)
    [(tournament_id, version)] = submit_tournaments(session, [submission], by=review.submitted_by)
    remember_fingerprint(session, tournament_id, submission)
    if review.announcement_id is not None:
        announced = session.get(Announcement, review.announcement_id)
        assert announced is not None
        claim_announcement(session, announced, tournament_id)
    learn_birth_years(session, intake.learned)
    for pkz, year in intake.learned.items():
        # a person's fact learned from the file, as a submission without review records it
        record_entry(
            session,
            caller.token_id,
            "player.learn",
            f"player {pkz}",
            before={"birth_year": None},
            after={"birth_year": year},
            **{"from": f"tournament {tournament_id} version {version}"},
        )
    if not review.correction:
        # its arrival, as a submission without review would have recorded it, then its review
        record_state(
            session, tournament_id, "submitted", by=review.submitted_by, version=version, at=review.submitted_at
        )
        record_state(
            session,
            tournament_id,
            "in_review",
            by=review.submitted_by,
            why=f"review {review.id}",
            at=review.submitted_at,
        )
    else:
        record_state(session, tournament_id, "corrected", by=review.submitted_by, version=version)
    record_state(session, tournament_id, "approved", by=by, why=note, version=version)
    review.tournament_id = tournament_id
    session.flush()
    record_entry(
        session,
        caller.token_id,
        "review.approve",
        f"review {review.id}",
        tournament=tournament_id,
        version=version,
        note=note or None,
    )
    return review


def close_for_withdrawal(session: Session, tournament_id: int, *, by: str, why: str | None) -> list[int]:
    """A withdrawn tournament's corrections waiting in review are closed as rejected, naming the
    withdrawal (an approval could only be refused now); the ids of the reviews closed."""
    waiting = list(
        session.scalars(
            select(Review).where(Review.tournament_id == tournament_id, Review.state == "waiting").with_for_update()
        )
    )
    now = datetime.now(UTC)
    for review in waiting:
        review.state, review.decided_by, review.decided_at = "rejected", by, now
        review.reason = "the tournament was withdrawn" + (f": {why}" if why else "")
    session.flush()
    return [r.id for r in waiting]


def reject(session: Session, caller: Principal, review_id: int, *, by: str, reason: str | None) -> Review:
    """Refuse the waiting submission with a reason the referee sees; nothing of it is stored as
    a tournament (a corrected tournament keeps its approved version)."""
    cleaned = _reason(reason, required=True)
    review = _decide(session, caller, review_id, state="rejected", reason=cleaned, by=by)
    if review.tournament_id is not None:
        record_state(session, review.tournament_id, "rejected", by=by, why=cleaned)
    record_entry(session, caller.token_id, "review.reject", f"review {review.id}", reason=cleaned)
    return review
