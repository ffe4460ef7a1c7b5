"""The reviews as the officers and the referees read them: the lists, one review with the
preview and the impact its approval would have. Reads only."""

from __future__ import annotations

from sqlalchemy import and_, func, or_, select
from sqlalchemy.orm import Session

from zdb.auth.officers import RatingOfficer
from zdb.auth.principal import Principal
from zdb.reviews.models import Review
from zdb.reviews.rules import officer_prefixes
from zdb.reviews.schemas import ReviewDetailOut, ReviewImpactOut, ReviewOut
from zdb.reviews.stored_submission import intake_from_json
from zdb.submissions.preview import preview
from zdb.submissions.schemas import PreviewOut
from zdb.tournaments.models import Participation, TournamentRecord, TournamentVersion

__all__ = ["review_detail", "review_out", "visible_reviews"]


def review_out(session: Session, review: Review) -> ReviewOut:
    officer = session.get(RatingOfficer, review.responsible_prefix) if review.responsible_prefix else None
    return ReviewOut(
        id=review.id,
        state=review.state,  # type: ignore[arg-type]  # the table's check keeps it a state
        correction=review.correction,
        tournament_id=review.tournament_id,
        federation=review.federation_prefix,
        responsible=review.responsible_prefix,
        responsible_officer=None if officer is None else officer.name,
        acronym=review.acronym,
        name=review.name,
        end_date=review.end_date,
        players=review.players,
        games=review.games,
        submitted_by=review.submitted_by,
        submitted_at=review.submitted_at,
        decided_by=review.decided_by,
        decided_at=review.decided_at,
        reason=review.reason,
    )


def visible_reviews(
    session: Session, caller: Principal, *, state: str | None, limit: int, offset: int
) -> tuple[list[ReviewOut], int]:
    """The reviews the caller may see, the waiting first and the oldest of them first: the
    rating office all; an officer those of his federations (and those below); a referee those
    of his scope (his own submissions among them)."""
    r = Review
    where = []
    if caller.role != "admin":
        mine = [r.responsible_prefix.startswith(p, autoescape=True) for p in officer_prefixes(session, caller)]
        if caller.role == "referee" and caller.scope is not None:
            mine.append(r.federation_prefix.startswith(caller.scope, autoescape=True))
        if not mine:
            return [], 0
        where.append(or_(*mine))
    if state is not None:
        where.append(r.state == state)
    total = session.execute(select(func.count()).select_from(r).where(*where)).scalar_one()
    rows = session.scalars(
        select(r)
        .where(*where)
        .order_by((r.state == "waiting").desc(), r.submitted_at, r.id)
        .limit(limit)
        .offset(offset)
    ).all()
    return [review_out(session, row) for row in rows], total


def _later_tournaments(session: Session, review: Review, players: list[int]) -> int:
    """Evaluated tournaments of these players that end on or after the review's end date: the
    approval moves the time line there, and the recalculation evaluates them again."""
    if not players:
        return 0
    t, v, p = TournamentRecord, TournamentVersion, Participation
    return session.execute(
        select(func.count(func.distinct(t.id)))
        .join(v, and_(v.tournament_id == t.id, v.version == t.evaluated_version))
        .join(p, and_(p.tournament_id == t.id, p.version == t.evaluated_version))
        .where(
            p.player_pkz.in_(players),
            v.end_date >= review.end_date,
            t.status != "withdrawn",
            t.id != (review.tournament_id or 0),
        )
    ).scalar_one()


def _impact(session: Session, review: Review, previewed: PreviewOut) -> ReviewImpactOut:
    changes = [row.rn - row.r0 for row in previewed.rows if row.r0 is not None and row.rn is not None]
    return ReviewImpactOut(
        ratings_changed=sum(1 for c in changes if c != 0),
        largest_change=max(changes, key=abs) if changes else None,
        newcomers=sum(1 for row in previewed.rows if row.r0 is None),
        later_tournaments=_later_tournaments(session, review, [row.pkz for row in previewed.rows if row.pkz]),
    )


def review_detail(session: Session, review: Review) -> ReviewDetailOut:
    """The review with the evaluation its submission would get now and what it would move."""
    previewed = preview(session, intake_from_json(review.submission))
    return ReviewDetailOut(
        **review_out(session, review).model_dump(), preview=previewed, impact=_impact(session, review, previewed)
    )
