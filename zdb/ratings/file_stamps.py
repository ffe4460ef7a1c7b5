"""When a club file last changed: the ``Last-Modified`` of the rating-list ZIP and of a club's
members file (``GET /files/rating-list.zip``, ``GET /clubs/{code}/members.csv``).

Club scripts mirror these files every night with ``If-Modified-Since``, so the date must move
with the file's content and with nothing else: not with a referee's preview (it stores nothing),
not with a write elsewhere in the register, not with a recalculation that changed nobody in the
file. No single column of the register says when a file's content changed (a file holds
memberships, people, ratings, the last evaluation, FIDE's editions, clubs and federations, and
a membership that ended leaves no row behind in it), so the file's content itself decides: each
variant of a file (its path and the query that shapes it) keeps the tag of the content last
served and the moment that content was first served. The same content keeps its moment; other
content gets the present moment, at least a second after the one before (``Last-Modified`` is
to the second, and a client holding the old date must not be told that nothing changed).
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta

from sqlalchemy import DateTime, String, select
from sqlalchemy.dialects.postgresql import insert as postgres_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Mapped, Session, mapped_column

from zdb.common.utc import as_utc
from zdb.db import is_postgres
from zdb.orm import Base

__all__ = ["FileStamp", "content_tag", "last_modified", "variant_key"]


class FileStamp(Base):
    __tablename__ = "file_stamps"

    #: the file's path and the query that shapes it, e.g. ``/clubs/C0327/members.csv?encoding=utf-8``
    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    #: a hash of the content last served
    tag: Mapped[str] = mapped_column(String(64))
    #: when that content was first served, to the second
    modified_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


def variant_key(path: str, **shaping: object) -> str:
    """The key of a file's variant: its path (as the API names it, without ``/api/v1``) and the
    query values that shape its bytes. Every door serving the same file uses the same key, so
    the same content carries the same moment (and the same bytes: a ZIP's entries are dated)."""
    query = "&".join(f"{name}={'' if value is None else value}" for name, value in shaping.items())
    return f"{path}?{query}"[:200]


def content_tag(*parts: object) -> str:
    """A hash of the values a file is written from (their ``repr``: equal values, equal tag)."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(repr(part).encode("utf-8"))
        digest.update(b"\x00")
    return digest.hexdigest()


def last_modified(session: Session, key: str, tag: str, now: datetime | None = None) -> datetime:
    """When the file ``key`` got the content ``tag``: the stored moment while the content is the
    one last served, else now (recorded; flushed in the caller's unit of work, never committed)."""
    stored = session.execute(select(FileStamp.tag, FileStamp.modified_at).where(FileStamp.key == key)).first()
    if stored is not None and stored.tag == tag:
        return as_utc(stored.modified_at)
    moment = as_utc(now or datetime.now(UTC)).replace(microsecond=0)
    if stored is not None and moment <= as_utc(stored.modified_at):
        moment = as_utc(stored.modified_at) + timedelta(seconds=1)
    insert = postgres_insert if is_postgres(session) else sqlite_insert
    statement = insert(FileStamp).values(key=key, tag=tag, modified_at=moment)
    # two requests finding new content at once: the later write stands, both answers are new
    session.execute(
        statement.on_conflict_do_update(
            index_elements=[FileStamp.key], set_={"tag": statement.excluded.tag, "modified_at": moment}
        )
    )
    return moment
