"""Points in time as ZDB answers them: in UTC, with their offset.

SQLite hands back naive datetimes; ZDB writes only UTC (CURRENT_TIMESTAMP, or an aware value
converted), so a naive value read back is UTC. PostgreSQL's ``timestamptz`` is converted."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

from pydantic import AfterValidator

__all__ = ["UtcDateTime", "as_utc"]


def as_utc(moment: datetime) -> datetime:
    """``moment`` in UTC; a naive one is taken as UTC."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


#: a point in time of an answer's field, always answered in UTC with its offset
UtcDateTime = Annotated[datetime, AfterValidator(as_utc)]
