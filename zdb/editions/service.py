"""Publishing an edition of the rating list: every listed player's rating and index as of the
edition's date, read from the stored history, copied into the edition's rows once.

Listed are the players with a rating who are no guests (the federation's list holds its
members, as the top list does) and whose record was not merged into another. A date whose
history a pending recalculation may still change is refused: the office publishes what has
been evaluated, so an edition never freezes a state that was about to be corrected.
Flushes, never commits.
"""

from __future__ import annotations

from datetime import date, timedelta

from sqlalchemy import Select, exists, func, insert, literal, select, union_all
from sqlalchemy.orm import Session

from zdb.editions.models import EditionRating, ListEdition
from zdb.errors import ConflictError, ValidationError, ValidationProblem
from zdb.messages import Message
from zdb.outbox.seam import enqueue
from zdb.players.models import Player
from zdb.timeline.models import HistoryRow, InitialState
from zdb.timeline.state import dirty_since

__all__ = ["publish_edition", "publish_scheduled_edition", "quarter_name", "ratings_as_of"]


def quarter_name(on: date) -> str:
    """The usual name of an edition: the quarter it is valid for, the one of the day after its
    date (the list as of 2026-09-30 is the list of 2026-Q4)."""
    after = on + timedelta(days=1)
    return f"{after.year}-Q{(after.month - 1) // 3 + 1}"


def ratings_as_of(on: date) -> Select[tuple[int, int, int]]:
    """(pkz, rating, index) of every listed player after every event up to and including ``on``;
    before a player's first event, his start state."""
    h, i, p = HistoryRow, InitialState, Player
    ranked = (
        select(
            h.player_pkz.label("pkz"),
            h.new_rating.label("rating"),
            h.new_index.label("rating_index"),
            func.row_number()
            .over(
                partition_by=h.player_pkz,
                order_by=(h.event_date.desc(), h.event_phase.desc(), h.event_text.desc(), h.event_id.desc()),
            )
            .label("n"),
        )
        .where(h.event_date <= on)
        .subquery()
    )
    last = select(ranked.c.pkz, ranked.c.rating, ranked.c.rating_index).where(ranked.c.n == 1)
    started = select(i.player_pkz, i.rating, i.rating_index).where(
        ~exists().where(h.player_pkz == i.player_pkz, h.event_date <= on)
    )
    both = union_all(last, started).subquery()
    return (
        select(both.c.pkz, both.c.rating, both.c.rating_index)
        .join(p, p.pkz == both.c.pkz)
        .where(both.c.rating.is_not(None), p.guest.is_(False), p.merged_into.is_(None))
    )


def publish_edition(session: Session, on: date, *, name: str | None, by: str, today: date) -> ListEdition:
    name = name or quarter_name(on)
    if on > today:
        raise ValidationError([ValidationProblem("body.date", Message("{day} lies in the future", day=on.isoformat()))])
    if session.execute(select(ListEdition.id).where(ListEdition.name == name)).scalar() is not None:
        raise ConflictError(Message("the edition {name} was published already; editions never change", name=name))
    dirty = dirty_since(session)
    if dirty is not None and dirty <= on:
        raise ConflictError(
            Message(
                "the recalculation from {day} is still pending: publish once it has finished", day=dirty.isoformat()
            )
        )
    edition = ListEdition(name=name, as_of=on, published_by=by)
    session.add(edition)
    session.flush()
    # the subscribers hear of it once this commits (zdb.notifications.fanout)
    enqueue(session, "edition.published", {"edition": edition.id, "name": name, "as_of": on.isoformat()})
    rows = ratings_as_of(on).subquery()
    session.execute(
        insert(EditionRating).from_select(
            ["edition_id", "player_pkz", "rating", "rating_index"],
            select(literal(edition.id), rows.c.pkz, rows.c.rating, rows.c.rating_index),
        )
    )
    return edition


def publish_scheduled_edition(session: Session, today: date) -> ListEdition | None:
    """The schedule's edition on the first day of a quarter: the ratings as of the day before,
    named after the new quarter; None when it was published already (the task may run twice)."""
    on = today - timedelta(days=1)
    if session.execute(select(ListEdition.id).where(ListEdition.name == quarter_name(on))).scalar() is not None:
        return None
    return publish_edition(session, on, name=None, by="schedule", today=today)
