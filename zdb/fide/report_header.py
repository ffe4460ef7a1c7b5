"""What a FIDE registration adds to FIDE's report file of its tournament: the city (``022``),
the type (``092``), the chief arbiter (``102``) and his deputy (``112``) with their FIDE ids, and
the rate of play as registered (``122``). A tournament without a registration keeps the report
as the stored tournament alone gives it; a team season keeps its type ``Team``."""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy import select
from sqlalchemy.orm import Session

from zdb.fide.models import FideRegistration
from zdb.formats.trf import TrfDocument
from zdb.tournaments.models import Announcement

__all__ = ["registered_category", "with_registration"]

#: TRF16's ``092`` of an individual tournament, by the registered system
_TYPES = {"swiss": "Individual: Swiss-System", "round_robin": "Individual: Round-Robin"}


def registered_category(session: Session, tournament_id: int) -> str:
    """The FIDE rating a registered tournament counts for (standard where none is registered)."""
    category = session.execute(
        select(FideRegistration.category)
        .join(Announcement, FideRegistration.announcement_id == Announcement.id)
        .where(Announcement.tournament_id == tournament_id)
    ).scalar()
    return category or "standard"


def with_registration(session: Session, tournament_id: int, document: TrfDocument) -> TrfDocument:
    row = session.execute(
        select(Announcement, FideRegistration)
        .join(FideRegistration, FideRegistration.announcement_id == Announcement.id)
        .where(Announcement.tournament_id == tournament_id)
    ).first()
    if row is None:
        return document
    announcement, registration = row
    deputies: tuple[str, ...] = ()
    if registration.deputy_arbiter_fide_id is not None:
        deputies = (f"{registration.deputy_arbiter_name} ({registration.deputy_arbiter_fide_id})",)
    return replace(
        document,
        city=announcement.place,
        chief_arbiter=f"{registration.chief_arbiter_name} ({registration.chief_arbiter_fide_id})",
        deputy_arbiters=deputies,
        time_control=registration.rate_of_play,
        tournament_type=document.tournament_type or _TYPES.get(registration.system),
    )
