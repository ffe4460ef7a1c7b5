"""When the periodic work last ran: one row per kind of work (``service_beats``).

Why: the sweep that recovers lost recalculation requests and closes imports of lost workers is
run by Celery beat; when beat died nothing said so (health stayed 200) and accepted submissions
waited for minutes. The sweep records each run here, in the database every API process reads,
so that readiness fails and the metrics show the age when it has not run for too long.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import DateTime, String, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from zdb.orm import Base

__all__ = ["SWEEP", "ServiceBeat", "last_beat", "record_beat"]

#: the sweep of ``workers.tasks.sweep``
SWEEP = "sweep"


class ServiceBeat(Base):
    __tablename__ = "service_beats"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


def record_beat(session: Session, name: str, at: datetime | None = None) -> None:
    """``name`` ran now (or at ``at``). Flushes, never commits."""
    row = session.get(ServiceBeat, name)
    moment = at or datetime.now(UTC)
    if row is None:
        session.add(ServiceBeat(name=name, at=moment))
    else:
        row.at = moment
    session.flush()


def last_beat(session: Session, name: str) -> datetime | None:
    """When ``name`` last ran (UTC); None if it never did."""
    at = session.execute(select(ServiceBeat.at).where(ServiceBeat.name == name)).scalar()
    if at is not None and at.tzinfo is None:  # SQLite keeps no zone: the value was UTC
        at = at.replace(tzinfo=UTC)
    return at
