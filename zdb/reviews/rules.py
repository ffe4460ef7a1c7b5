"""Whether a submission waits in review, and who is responsible for it.

The review rule is a federation's, inherited down the tree as its other rules are
(``zdb.federations.settings``): a federation states it or leaves it to its parent, and with none
stated anywhere there is no review (today's behaviour). Where the rule applies, a federation may
exempt trusted referees (a token the rating office marked as trusted). The rating office itself
(an admin token) is never held: it is the last instance of every review.

Responsibility comes from the tree: the tournament's (or club's) federation's officer, else the
nearest officer above it (its district, else its region, else the national federation). With no
officer named anywhere the rating office (the national federation, prefix "") is responsible.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from zdb.auth.models import ApiToken
from zdb.auth.officers import RatingOfficer
from zdb.auth.principal import Principal
from zdb.errors import NotFoundError, ValidationError, ValidationProblem
from zdb.federations.models import Federation
from zdb.messages import Message
from zdb.reviews.models import ReviewSetting, TrustedReferee

__all__ = [
    "EffectiveReview",
    "effective_review",
    "is_trusted",
    "officer_prefixes",
    "remove_officer",
    "responsible_officer",
    "review_applies",
    "set_officer",
    "set_review_rule",
    "set_trusted",
]


@dataclass(frozen=True, slots=True)
class EffectiveReview:
    """The review rule that applies in a federation, and which federation set each part (None:
    the default)."""

    review: str = "off"
    trusted_exempt: bool = False
    review_from: str | None = None
    trusted_exempt_from: str | None = None


def _ancestry(session: Session, prefix: str | None) -> list[str]:
    """The federation and those above it, nearest first (a broken tree never loops)."""
    found: list[str] = []
    current = prefix
    while current is not None and current not in found:
        federation = session.get(Federation, current)
        if federation is None:
            break
        found.append(current)
        current = federation.parent_prefix
    return found


def effective_review(session: Session, prefix: str | None) -> EffectiveReview:
    review: tuple[str, str] | None = None
    exempt: tuple[bool, str] | None = None
    for current in _ancestry(session, prefix):
        own = session.get(ReviewSetting, current)
        if own is None:
            continue
        if review is None and own.review is not None:
            review = (own.review, current)
        if exempt is None and own.trusted_exempt is not None:
            exempt = (own.trusted_exempt, current)
    return EffectiveReview(
        review[0] if review else "off",
        exempt[0] if exempt else False,
        review[1] if review else None,
        exempt[1] if exempt else None,
    )


def is_trusted(session: Session, caller: Principal) -> bool:
    return caller.token_id is not None and session.get(TrustedReferee, caller.token_id) is not None


def review_applies(session: Session, federation: str | None, caller: Principal) -> bool:
    """Whether the caller's submission for ``federation`` waits in review."""
    if caller.role == "admin":
        return False  # the rating office decides reviews; its own submissions are not held
    rule = effective_review(session, federation)
    if rule.review != "required":
        return False
    return not (rule.trusted_exempt and is_trusted(session, caller))


def responsible_officer(session: Session, prefix: str | None) -> tuple[str, RatingOfficer | None]:
    """The federation whose officer is responsible for ``prefix`` and the officer; ("", None)
    where no federation on the way up names one: the rating office."""
    for current in _ancestry(session, prefix):
        officer = session.get(RatingOfficer, current)
        if officer is not None:
            return current, officer
    return "", None


def officer_prefixes(session: Session, caller: Principal) -> list[str]:
    """The federations the caller is the officer of (by his token)."""
    if caller.token_id is None:
        return []
    return list(session.scalars(select(RatingOfficer.prefix).where(RatingOfficer.token_id == caller.token_id)))


def set_review_rule(
    session: Session, prefix: str, *, review: str | None, trusted_exempt: bool | None
) -> tuple[dict[str, object], dict[str, object]]:
    """Replace a federation's own review rule (null: inherit); before and after for the audit log."""
    own = session.get(ReviewSetting, prefix, with_for_update=True)
    before: dict[str, object] = {
        "review": None if own is None else own.review,
        "trusted_exempt": None if own is None else own.trusted_exempt,
    }
    if own is None:
        own = ReviewSetting(prefix=prefix)
        session.add(own)
    own.review, own.trusted_exempt = review, trusted_exempt
    session.flush()
    return before, {"review": review, "trusted_exempt": trusted_exempt}


def _token(session: Session, token_id: int, place: str) -> ApiToken:
    token = session.get(ApiToken, token_id)
    if token is None or token.revoked_at is not None:
        raise ValidationError([ValidationProblem(place, Message("no valid token has the id {id}", id=token_id))])
    return token


def set_officer(
    session: Session, prefix: str, *, name: str, email: str, token_id: int | None, by: str
) -> tuple[dict[str, object] | None, dict[str, object]]:
    """Name (or replace) a federation's rating officer. His token, if given, must be a referee's
    token whose scope covers the federation (he decides its reviews with it) or an admin's."""
    if token_id is not None:
        token = _token(session, token_id, "body.token_id")
        if token.role == "club" or (token.role == "referee" and not prefix.startswith(token.scope or "\0")):
            raise ValidationError(
                [
                    ValidationProblem(
                        "body.token_id",
                        Message(
                            "token {id} cannot decide the reviews of federation {prefix!r}: its scope does not "
                            "cover it",
                            id=token_id,
                            prefix=prefix,
                        ),
                    )
                ]
            )
    own = session.get(RatingOfficer, prefix, with_for_update=True)
    before: dict[str, object] | None = None if own is None else {"name": own.name, "token_id": own.token_id}
    if own is None:
        own = RatingOfficer(prefix=prefix)
        session.add(own)
    own.name, own.email, own.token_id = name, email, token_id
    own.set_by, own.set_at = by, datetime.now(UTC)
    session.flush()
    # the address is not written to the audit log either: it is said only that it changed
    return before, {"name": name, "token_id": token_id, "email_set": True}


def remove_officer(session: Session, prefix: str) -> dict[str, object]:
    own = session.get(RatingOfficer, prefix, with_for_update=True)
    if own is None:
        raise NotFoundError(Message("federation {prefix!r} has no officer of its own", prefix=prefix))
    before: dict[str, object] = {"name": own.name, "token_id": own.token_id}
    session.delete(own)
    session.flush()
    return before


def set_trusted(session: Session, token_id: int, *, trusted: bool, by: str) -> bool:
    """Mark a referee's token as trusted (or no longer); whether anything changed."""
    token = _token(session, token_id, "path.token_id")
    if token.role != "referee":
        raise ValidationError(
            [
                ValidationProblem(
                    "path.token_id",
                    Message("only a referee's token can be trusted; this is a {role}'s", role=token.role),
                )
            ]
        )
    own = session.get(TrustedReferee, token_id)
    if trusted and own is None:
        session.add(TrustedReferee(token_id=token_id, set_by=by, set_at=datetime.now(UTC)))
    elif not trusted and own is not None:
        session.delete(own)
    else:
        return False
    session.flush()
    return True
