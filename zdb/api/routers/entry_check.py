"""The entry check for organisers: one call with a tournament's entry list, per entry whether
the person is known, a member or a guest at the start date, rated, and his current DWZ. Thin:
the domain is ``zdb.ratings.entry_check``."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends

from zdb.api.openapi import problems
from zdb.auth.principal import Principal
from zdb.endpoints.dependencies import Caller, RequestSession
from zdb.players.schemas import EntryCheckedOut, EntryCheckIn
from zdb.ratings.entry_check import Entry, check_entries

__all__ = ["router"]

router = APIRouter(tags=["players"])


def _organiser(caller: Caller) -> Principal:
    # the birth dates compared are non-public: the check is for organisers with a token
    caller.require("admin", "referee", "club")
    return caller


@router.post(
    "/entry-check",
    response_model=list[EntryCheckedOut],
    summary="Check a tournament's entry list: known, member or guest at the start date, rated, current DWZ",
    description="Each entry names a person by `pkz`, by `club` + `member_no` (a membership holding the number on "
    "the start date) or by `surname` (+ `given_name`) + `birth_date` (the date is compared only where the token may "
    "read it, else the birth year). At most 1000 entries; nothing is stored. Answers in the list's order.",
    responses=problems(401, 403),
)
def entry_check(
    *, session: RequestSession, caller: Annotated[Principal, Depends(_organiser)], body: EntryCheckIn
) -> list[EntryCheckedOut]:
    entries = [Entry(**e.model_dump()) for e in body.entries]
    checked = check_entries(session, entries, start=body.start_date, caller=caller)
    return [
        EntryCheckedOut(
            entry=k,
            known=c.known,
            pkz=c.pkz,
            member=c.member,
            club=c.club,
            rated=c.rated,
            dwz=c.dwz,
            dwz_index=c.dwz_index,
            candidates=list(c.candidates),
            note=c.note,
        )
        for k, c in enumerate(checked, start=1)
    ]
