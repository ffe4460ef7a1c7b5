"""No tournament twice while it waits in review: a submission equal to one waiting in review is
refused when it is sent (409, naming the held review), as one equal to a stored tournament is
(``zdb.tournaments.duplicates``), and a preview says so.

Why a module of its own: a submission waiting in review is no tournament yet, so the stored
tournaments' fingerprints do not hold it; without this check both copies would wait, and the
second would be refused as a duplicate only when an officer approved it. A waiting review keeps
the same fingerprint the stored tournaments keep (the people, the dates, the games; colours,
file format and door do not matter): one indexed lookup. A review held before it kept one
(migration 0020) is compared by its stored submission, read back (those with the submission's
end date and numbers of players and games only).

As for the stored tournaments, the caller holds the tournament-id lock
(``zdb.locks.TOURNAMENT_IDS``) from this comparison to its commit: of two equal submissions
sent at the same moment the second waits, then finds the first held and is refused by name.
The fingerprint's unique key over the waiting reviews backs this where no lock is taken
(SQLite): the second is then refused as a concurrent change.
"""

from __future__ import annotations

from sqlalchemy import and_, or_, select
from sqlalchemy.orm import Session

from zdb.errors import ConflictError, ValidationProblem
from zdb.messages import Message
from zdb.reviews.models import Review
from zdb.reviews.stored_submission import intake_from_json
from zdb.tournaments.duplicates import DuplicateNotes, duplicate_notes, fingerprint
from zdb.tournaments.service import TournamentSubmission

__all__ = ["WaitingDuplicateError", "duplicate_and_waiting_notes", "refuse_waiting_equal", "waiting_equal"]


class WaitingDuplicateError(ConflictError):
    """A submission refused because an equal one waits in review; ``review_id`` names it."""

    def __init__(self, text: Message, review_id: int) -> None:
        super().__init__(text)
        self.review_id = review_id


def waiting_equal(session: Session, submission: TournamentSubmission) -> Review | None:
    """The first review waiting with the submission's players, dates and games, if any. A
    correction is never compared with the reviews of the tournament it corrects (a second
    correction of it is refused while one waits: ``zdb.reviews.service.hold``)."""
    r = Review
    own = fingerprint(submission)
    kept_before = and_(
        r.fingerprint.is_(None),
        r.end_date == submission.end_date,
        r.players == len(submission.players),
        r.games == len(submission.games),
    )
    found = session.scalars(
        select(r).where(r.state == "waiting", or_(r.fingerprint == own, kept_before)).order_by(r.id)
    ).all()
    corrected = submission.tournament_id
    for review in found:
        if corrected is not None and review.tournament_id == corrected:
            continue
        if (review.fingerprint or fingerprint(intake_from_json(review.submission).submission)) == own:
            return review
    return None


def _label(review: Review) -> Message:
    return Message(
        "review {id} ({acronym} {name!r}, ending {end})",
        id=review.id,
        acronym=review.acronym,
        name=review.name,
        end=review.end_date.isoformat(),
    )


def _equal_message(review: Review) -> Message:
    return Message(
        "{review} holds the same players, dates and results: this tournament waits in review already",
        review=_label(review),
    )


def refuse_waiting_equal(session: Session, submission: TournamentSubmission) -> None:
    """Refuse (409, naming the review) a submission equal to one waiting in review."""
    found = waiting_equal(session, submission)
    if found is not None:
        raise WaitingDuplicateError(Message("{problem}; nothing was stored", problem=_equal_message(found)), found.id)


def duplicate_and_waiting_notes(session: Session, submission: TournamentSubmission) -> DuplicateNotes:
    """What a preview says of the stored tournaments the submission equals or resembles
    (``zdb.tournaments.duplicates.duplicate_notes``) and of a review waiting with the same
    content: each what its submission would be answered with."""
    stored = duplicate_notes(session, submission)
    found = waiting_equal(session, submission)
    if found is None:
        return stored
    note = ValidationProblem(
        "tournament", Message("{problem}; its submission would be refused", problem=_equal_message(found))
    )
    return DuplicateNotes((*stored.warnings, note), confirmable=False)
