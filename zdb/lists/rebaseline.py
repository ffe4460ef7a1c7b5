"""A deliberate re-baseline: the list's DWZ and index become the starting state, at a date, of
every person it lists whom the register knows, replacing what ZDB computed before that date.

A sync never touches a rating (``zdb.lists.sync_plan``); this is the separate, explicit step a
federation takes when it decides that its list, not ZDB's evaluation, is right. It is a start
rating of spec §2 per person at the date (ordered before every tournament ending that day),
the date becomes his epoch (``zdb.lists.epochs``), and the time line is dirty from the date on,
so the recalculation carries the new states through every later tournament. Flushes, never
commits.
"""

from __future__ import annotations

from datetime import date

from sqlalchemy import delete
from sqlalchemy.orm import Session

from zdb.audit.writer import record_entry
from zdb.bulk import copy_rows, in_chunks
from zdb.errors import ValidationError, ValidationProblem
from zdb.formats.dsb_files import Codec
from zdb.formats.list_model import ListMember
from zdb.formats.list_reader import read_rating_list
from zdb.formats.read_limits import ReadRefusedError
from zdb.lists.models import ListBaseline
from zdb.lists.upload_refusals import refusal_error
from zdb.messages import Message
from zdb.players.service import pkz_by_external_id
from zdb.timeline.dirty import mark_dirty
from zdb.timeline.models import StartRatingRow

__all__ = ["rebaseline"]


def rebaseline(session: Session, data: bytes, *, file: str, day: date, codec: Codec | None = None) -> int:
    """Set the starting states; answers how many were set."""
    try:
        rating_list = read_rating_list(data, codec, name=file)
    except ReadRefusedError as error:
        raise refusal_error(error) from None
    if rating_list.problems:
        raise ValidationError([ValidationProblem(f"{p.file}:{p.line}", p.message) for p in rating_list.problems])
    if not rating_list.people:
        raise ValidationError([ValidationProblem(file, Message("a re-baseline needs a list with person ids (ID)"))])
    rated = {p.person_id: p.member for p in rating_list.people if p.member.rating is not None}
    known = pkz_by_external_id(session, [key for key in rated if key is not None])
    # A person listed under two ids (his own and a merged record's) is set once: by his first line.
    firsts: dict[int, ListMember] = {}
    for key, member in rated.items():
        if key in known:
            firsts.setdefault(known[key], member)
    states = list(firsts.items())
    for chunk in in_chunks(pkz for pkz, _ in states):
        session.execute(
            delete(StartRatingRow).where(StartRatingRow.player_pkz.in_(chunk), StartRatingRow.rating_date == day)
        )
        session.execute(delete(ListBaseline).where(ListBaseline.player_pkz.in_(chunk)))
    copy_rows(
        session,
        StartRatingRow.__table__,  # type: ignore[arg-type]
        ("player_pkz", "rating_date", "rating", "rating_index", "evaluated", "set_by"),
        ((pkz, day, m.rating, m.rating_index or 0, False, f"re-baseline {file}"[:100]) for pkz, m in states),
    )
    copy_rows(
        session,
        ListBaseline.__table__,  # type: ignore[arg-type]
        ("player_pkz", "epoch", "last_evaluation", "import_id"),
        ((pkz, day, None if m.last_evaluation is None else str(m.last_evaluation), None) for pkz, m in states),
    )
    if states:
        mark_dirty(session, [(day, 0, "", 0)])
    record_entry(session, None, "list.rebaseline", file[:200], list_date=day, starting_states=len(states))
    return len(states)
