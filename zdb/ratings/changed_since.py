"""The moment a read asks "changed since": to the second and inclusive, as both databases
keep the ratings' change times (SQLite as text to the second)."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import lru_cache

from sqlalchemy import ColumnElement, String, bindparam
from sqlalchemy.orm import Session

from zdb.common.utc import as_utc
from zdb.db import is_postgres
from zdb.timeline.models import PlayerRating

__all__ = ["cached_utc", "changed_since", "second_of"]


def second_of(since: datetime) -> datetime:
    """A moment in UTC to the second (a naive one is UTC)."""
    return (since.astimezone(UTC) if since.tzinfo else since.replace(tzinfo=UTC)).replace(microsecond=0)


def changed_since(session: Session, since: datetime) -> ColumnElement[bool]:
    """``changed_at >= since``, inclusive and to the second: a duplicate in a feed is harmless, a
    missed change is not. SQLite keeps the server's timestamps as text to the second."""
    moment = second_of(since)
    if not is_postgres(session):
        text = moment.strftime("%Y-%m-%d %H:%M:%S")
        return PlayerRating.changed_at >= bindparam("changed_since", text, type_=String)
    return PlayerRating.changed_at >= moment


#: many rows share a moment (one run's writes): converted once each
cached_utc = lru_cache(maxsize=4096)(as_utc)
