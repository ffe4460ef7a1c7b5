"""The referee's writes from the pages, through the same services, audit records and
idempotency keys as the API's ``zdb.api.routers.submissions``: the tournament service stores
the version and marks the time line dirty, ``record_write`` audits it under the token, and the
caller's unit of work commits and then asks for the recalculation.

The idempotency key is made when the preview is shown, so that a second click on "submit"
(or a reload of the answer) stores nothing twice and leads to the same tournament.
"""

from __future__ import annotations

from sqlalchemy.orm import Session
from starlette.requests import Request

from zdb.api.idempotency import StoredAnswer, claim, remember, request_hash
from zdb.auth.errors import PermissionDeniedError
from zdb.auth.principal import Principal
from zdb.auth.service import record_write
from zdb.errors import ConflictError
from zdb.tournaments.queries import tournament_detail
from zdb.tournaments.service import submit_tournaments, withdraw_tournament
from zdb.tournaments.submission_schemas import MatchedPlayerOut, SubmissionOut
from zdb.web.uploads import Upload

__all__ = ["authorize", "store", "stored_federation", "withdraw", "writer_name"]


def authorize(caller: Principal, federation: str | None) -> None:
    """A referee acts in his subtree only (as the API's submissions router)."""
    if caller.role == "admin":
        return
    if federation is None or not caller.covers(federation):
        where = "no federation" if federation is None else f"federation {federation!r}"
        raise PermissionDeniedError(f"a tournament of {where} lies outside the token's scope {caller.scope!r}")


def writer_name(caller: Principal) -> str:
    """Who submitted, as the API records it."""
    return f"{caller.role} {caller.scope or ''} (token {caller.token_id})".replace("  ", " ")


def stored_federation(session: Session, tournament_id: int) -> str | None:
    """The federation of a tournament that may still be changed (a withdrawn one may not)."""
    detail = tournament_detail(session, tournament_id)
    if detail.status == "withdrawn":
        raise ConflictError(f"tournament {tournament_id} was withdrawn; its id is never reused")
    return detail.federation_prefix


def _digest(upload: Upload, tournament_id: int | None) -> str:
    meta = "" if upload.meta is None else repr(upload.meta)
    return request_hash("POST", f"/referee/upload/{tournament_id or ''}", meta, upload.data)


def store(
    request: Request, session: Session, caller: Principal, upload: Upload, *, key: str | None, tournament_id: int | None
) -> int:
    """Submit (or, with ``tournament_id``, correct) the upload; the tournament's id."""
    if tournament_id is not None:
        authorize(caller, stored_federation(session, tournament_id))
    authorize(caller, upload.federation)
    digest = _digest(upload, tournament_id)
    if key:
        first = claim(session, caller, key, digest)
        if first is not None:
            return int(first.body["id"])
    intake = upload.intake(session, create=True, tournament_id=tournament_id)
    [(new_id, version)] = submit_tournaments(session, [intake.submission], by=writer_name(caller))
    players = intake.submission.players
    created = [p.pkz for p, new in zip(players, intake.created, strict=True) if new]
    correction = tournament_id is not None
    record_write(
        session, caller, "tournament.correct" if correction else "tournament.submit", f"tournament {new_id}",
        {"version": version, "acronym": intake.submission.acronym, "players": len(players),
         "created_players": created},
    )  # fmt: skip
    if key:
        out = SubmissionOut(
            id=new_id,
            version=version,
            players=[
                MatchedPlayerOut(start_no=k + 1, pkz=p.pkz, created=new)
                for k, (p, new) in enumerate(zip(players, intake.created, strict=True))
            ],
        )
        location = str(request.app.url_path_for("tournament", tournament_id=str(new_id)))
        answer = StoredAnswer(200 if correction else 201, out.model_dump(mode="json"), location)
        remember(session, caller, key, answer, tournament_id=new_id)
    return new_id


def withdraw(session: Session, caller: Principal, tournament_id: int) -> None:
    authorize(caller, tournament_detail(session, tournament_id).federation_prefix)
    withdraw_tournament(session, tournament_id, by=writer_name(caller))
    record_write(session, caller, "tournament.withdraw", f"tournament {tournament_id}")
