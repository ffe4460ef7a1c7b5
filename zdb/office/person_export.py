"""Everything the database holds on one person, as one JSON document (a data subject's request
for his data): the record with its non-public fields, the numbers merged into it, memberships,
participations, the rating history, the published editions that list him, and the audit
entries on his record."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import and_, select
from sqlalchemy.orm import Session

from zdb.audit.reader import entries_about
from zdb.editions.models import EditionRating, ListEdition
from zdb.errors import NotFoundError
from zdb.messages import Message
from zdb.players.models import Membership, Player
from zdb.timeline.models import HistoryRow, PlayerRating
from zdb.tournaments.models import Participation, TournamentVersion

__all__ = ["person_document"]


def _plain(value: Any) -> Any:
    return value.isoformat() if isinstance(value, date | datetime) else value


def _rows(session: Session, statement: Any) -> list[dict[str, Any]]:
    return [{k: _plain(v) for k, v in row.items()} for row in session.execute(statement).mappings()]


def person_document(session: Session, pkz: int) -> dict[str, Any]:
    player = session.get(Player, pkz)
    if player is None:
        raise NotFoundError(Message("player {pkz} does not exist", pkz=pkz))
    p, m, t, v, h, r = Player, Membership, Participation, TournamentVersion, HistoryRow, PlayerRating
    record = {c.key: _plain(getattr(player, c.key)) for c in p.__table__.columns}
    return {
        "pkz": pkz,
        "exported_at": _plain(datetime.now().astimezone()),
        "record": record,
        "merged_into_this": [n for (n,) in session.execute(select(p.pkz).where(p.merged_into == pkz).order_by(p.pkz))],
        "memberships": _rows(
            session,
            select(m.id, m.club_code, m.member_no, m.status, m.valid_from, m.valid_until)
            .where(m.player_pkz == pkz)
            .order_by(m.valid_from, m.id),
        ),
        "participations": _rows(
            session,
            select(
                t.tournament_id,
                t.version,
                v.acronym,
                v.name,
                v.end_date,
                t.position,
                t.birth_year,
                t.member,
                t.fide_rating,
            )
            .join(v, and_(v.tournament_id == t.tournament_id, v.version == t.version))
            .where(t.player_pkz == pkz)
            .order_by(v.end_date, t.tournament_id, t.version),
        ),
        "current_rating": _rows(session, select(r.rating, r.rating_index, r.changed_at).where(r.player_pkz == pkz)),
        "rating_history": _rows(
            session,
            select(
                h.event_date,
                h.event_phase,
                h.event_text,
                h.tournament_id,
                h.old_rating,
                h.old_index,
                h.new_rating,
                h.new_index,
            )
            .where(h.player_pkz == pkz)
            .order_by(h.event_date, h.event_phase, h.event_text, h.event_id),
        ),
        "published_editions": _rows(
            session,
            select(ListEdition.name, ListEdition.as_of, EditionRating.rating, EditionRating.rating_index)
            .join(ListEdition, ListEdition.id == EditionRating.edition_id)
            .where(EditionRating.player_pkz == pkz)
            .order_by(ListEdition.as_of),
        ),
        "audit": _rows(
            session,
            entries_about(f"player {pkz}"),
        ),
    }
