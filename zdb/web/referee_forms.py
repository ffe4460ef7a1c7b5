"""The referee's writes from the pages: the upload handed to the same store-record-remember
sequence as the API's (``zdb.endpoints.referee_writes``), so that authorisation, audit records and
idempotency are one piece of code.

The idempotency key is made when the preview is shown, so that a second click on "submit"
(or a reload of the answer) stores nothing twice and leads to the same tournament.
"""

from __future__ import annotations

from sqlalchemy.orm import Session
from starlette.requests import Request

from zdb.auth.principal import Principal
from zdb.endpoints import referee_writes as writes
from zdb.endpoints.idempotency import request_hash
from zdb.web.uploads import Upload

__all__ = ["authorize", "store", "stored_federation", "withdraw"]

authorize = writes.authorize
withdraw = writes.withdraw


def stored_federation(session: Session, tournament_id: int) -> str | None:
    """The federation of a tournament that may still be corrected (a withdrawn one may not)."""
    return writes.stored_federation(session, tournament_id, for_change=True)


def _digest(upload: Upload, tournament_id: int | None) -> str:
    meta = "" if upload.meta is None else repr(upload.meta)
    return request_hash("POST", f"/referee/upload/{tournament_id or ''}", meta, upload.data)


def store(
    request: Request,
    session: Session,
    caller: Principal,
    upload: Upload,
    *,
    key: str | None,
    tournament_id: int | None,
    confirm_duplicate: bool = False,
    announcement: str | None = None,
) -> str:
    """Submit (or, with ``tournament_id``, correct) the upload; the page to go on to: the
    tournament's, or the review's where the submission waits in review.
    ``confirm_duplicate``: the referee ticked that it is not the stored tournament it resembles."""
    if tournament_id is not None:
        writes.authorize(caller, stored_federation(session, tournament_id))
    writes.authorize(caller, upload.federation)
    answer = writes.store(
        request,
        session,
        caller,
        key=key,
        digest=_digest(upload, tournament_id),
        make=lambda: upload.intake(session, create=True, caller=caller, learn=False, tournament_id=tournament_id),
        correction=tournament_id is not None,
        confirm_duplicate=confirm_duplicate,
        announcement=announcement,
        announcement_place="announcement",
    )
    if answer.status == 202:
        return f"/referee/reviews/{int(answer.body['review'])}"
    return f"/referee/tournaments/{int(answer.body['id'])}"
