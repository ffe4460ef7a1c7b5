"""The rating office's writes of the review's setup, as both doors (the API and the staff
pages) make them: a federation's own review rule set, its rating officer named or removed, each
with its audit entry. One place, so that the two doors can never drift apart in what they check
or record. Flushes, never commits."""

from __future__ import annotations

from sqlalchemy.orm import Session

from zdb.audit.writer import record_entry
from zdb.auth.principal import Principal
from zdb.federations.settings import require_federation
from zdb.reviews.rules import remove_officer, set_officer, set_review_rule
from zdb.reviews.schemas import OfficerIn, ReviewRuleIn
from zdb.submissions.store import writer_name

__all__ = ["change_review_rule", "name_officer", "unname_officer"]


def change_review_rule(session: Session, caller: Principal, prefix: str, body: ReviewRuleIn) -> None:
    """Replace the federation's own review rule (null parts: inherited from the parent)."""
    require_federation(session, prefix)
    before, after = set_review_rule(session, prefix, review=body.review, trusted_exempt=body.trusted_exempt)
    record_entry(session, caller.token_id, "federation.review", f"federation {prefix}", before=before, after=after)


def name_officer(session: Session, caller: Principal, prefix: str, body: OfficerIn) -> None:
    """Name (or replace) the federation's rating officer; his address is never written to the
    audit log (``zdb.reviews.rules.set_officer``)."""
    require_federation(session, prefix)
    before, after = set_officer(
        session, prefix, name=body.name, email=body.email, token_id=body.token_id, by=writer_name(caller)
    )
    record_entry(session, caller.token_id, "federation.officer", f"federation {prefix}", before=before, after=after)


def unname_officer(session: Session, caller: Principal, prefix: str) -> None:
    """Remove the federation's own rating officer: the nearest one above becomes responsible."""
    before = remove_officer(session, prefix)
    record_entry(session, caller.token_id, "federation.officer", f"federation {prefix}", before=before, after=None)
