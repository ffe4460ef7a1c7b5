"""From an outbox message to the deliveries it means: one per event and matching subscription.

Runs as the relay's handler, in the transaction that marks the message done: the deliveries
exist exactly when the message is done (a relay that dies meanwhile leaves neither). A club's
subscription matches what concerns its current members; a staff subscription what concerns a
club (or a tournament's federation) inside its subtree. Paused subscriptions still collect their
deliveries: they are sent once the owner resumes it.

The kinds handled here (``HANDLERS``): ``rating.run`` (a recalculation run: one
``rating.changed`` per moved member, or, for a from-scratch run or more than ``PER_PERSON_LIMIT``
members, one ``ratings.recalculated`` with a link to the run's changes; and the run's tournaments
as evaluated), ``tournament.state`` (submitted, corrected, withdrawn), ``edition.published``,
and ``event`` (any other type: ``{"type", "data", "clubs"}``, for everyone without ``clubs``).
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from zdb.auth.models import ApiToken
from zdb.notifications.events import (
    EDITION_PUBLISHED,
    RATING_CHANGED,
    RATINGS_RECALCULATED,
    TOURNAMENT_STATE_CHANGED,
)
from zdb.notifications.models import NotificationDelivery, Subscription
from zdb.outbox.models import OutboxMessage
from zdb.players.models import Membership
from zdb.timeline.run_records import RunChange, RunRecord, RunTournament
from zdb.tournaments.models import Participation, TournamentRecord, TournamentVersion

__all__ = ["HANDLERS", "PER_PERSON_LIMIT", "covers"]

#: a run that moves more of a subscription's members sends one summary event instead of one each
PER_PERSON_LIMIT = 100
_CHUNK = 5000

API = "/api/v1"


def covers(subscription: Subscription, club_code: str) -> bool:
    if subscription.owner_role == "club":
        return club_code == subscription.scope
    return club_code.startswith(subscription.scope)


def _wants(subscription: Subscription, *types: str) -> bool:
    return not subscription.events or any(t in subscription.events for t in types)


class _Writer:
    """The deliveries of one outbox message, numbered per subscription."""

    def __init__(self, session: Session, message: OutboxMessage) -> None:
        self.session = session
        self.source = message.id
        self.now = datetime.now(UTC)
        self._seq: dict[int, int] = defaultdict(int)

    def add(self, subscription: Subscription, event_type: str, data: Mapping[str, Any]) -> None:
        self._seq[subscription.id] += 1
        self.session.add(
            NotificationDelivery(
                subscription_id=subscription.id,
                source=self.source,
                seq=self._seq[subscription.id],
                event_id=f"msg_{uuid.uuid4().hex}",
                event_type=event_type,
                body={"type": event_type, "timestamp": self.now.isoformat(), "data": dict(data)},
                status="pending",
                attempts=0,
                created_at=self.now,
                next_attempt_at=self.now,
                retry_since=self.now,
            )
        )


def _subscriptions(session: Session, message: OutboxMessage, *types: str) -> list[Subscription]:
    """The subscriptions that want one of ``types``, existed when the message was written (an
    event from before a subscription is not its business) and whose token is not revoked (a club
    that lost its token hears nothing more)."""
    query = (
        select(Subscription)
        .join(ApiToken, ApiToken.id == Subscription.token_id)
        .where(Subscription.created_at <= message.created_at, ApiToken.revoked_at.is_(None))
        .order_by(Subscription.id)
    )
    return [s for s in session.scalars(query) if _wants(s, *types)]


def _clubs_of(session: Session, persons: Iterable[int], today: date) -> dict[int, set[str]]:
    """Each person's current clubs (active and passive memberships valid today)."""
    m = Membership
    found: dict[int, set[str]] = defaultdict(set)
    wanted = sorted(set(persons))
    for start in range(0, len(wanted), _CHUNK):
        rows = session.execute(
            select(m.player_pkz, m.club_code).where(
                m.player_pkz.in_(wanted[start : start + _CHUNK]),
                m.valid_from <= today,
                or_(m.valid_until.is_(None), m.valid_until >= today),
            )
        )
        for pkz, code in rows:
            found[pkz].add(code)
    return found


def _tournament_reach(session: Session, tournament_id: int) -> tuple[str | None, set[str]]:
    """A tournament's federation and its players' current clubs (its current version's)."""
    record = session.get(TournamentRecord, tournament_id)
    if record is None:
        return None, set()
    version = session.get(TournamentVersion, (tournament_id, record.current_version))
    players = session.scalars(
        select(Participation.player_pkz).where(
            Participation.tournament_id == tournament_id, Participation.version == record.current_version
        )
    ).all()
    clubs = set().union(*_clubs_of(session, players, datetime.now(UTC).date()).values())
    return (version.federation_prefix if version is not None else None), clubs


def _reaches(subscription: Subscription, federation: str | None, clubs: set[str]) -> bool:
    if any(covers(subscription, code) for code in clubs):
        return True
    return subscription.owner_role != "club" and federation is not None and federation.startswith(subscription.scope)


def _figures(rating: int | None, index: int | None) -> dict[str, int | None]:
    return {"dwz": rating, "index": index}


def _moving_tournaments(session: Session, persons: list[int], tournaments: set[int]) -> dict[int, int]:
    """For each person, the run's tournament that set his rating: his latest among them."""
    p, r, v = Participation, TournamentRecord, TournamentVersion
    latest: dict[int, tuple[date, int]] = {}
    for start in range(0, len(persons), _CHUNK):
        rows = session.execute(
            select(p.player_pkz, p.tournament_id, v.end_date)
            .join(r, (r.id == p.tournament_id) & (r.current_version == p.version))
            .join(v, (v.tournament_id == p.tournament_id) & (v.version == p.version))
            .where(p.player_pkz.in_(persons[start : start + _CHUNK]))
        )
        for pkz, tournament_id, end in rows:
            if tournament_id in tournaments and (pkz not in latest or (end, tournament_id) > latest[pkz]):
                latest[pkz] = (end, tournament_id)
    return {pkz: found[1] for pkz, found in latest.items()}


def on_rating_run(session: Session, message: OutboxMessage) -> None:
    run = session.get(RunRecord, int(message.payload["run"]))
    if run is None:
        return
    writer = _Writer(session, message)
    tournaments = sorted(session.scalars(select(RunTournament.tournament_id).where(RunTournament.run_id == run.id)))
    run_link = f"{API}/recalculation/runs/{run.id}/changes"
    rated = _subscriptions(session, message, RATING_CHANGED, RATINGS_RECALCULATED)
    if rated:
        changes = {c.player_pkz: c for c in session.scalars(select(RunChange).where(RunChange.run_id == run.id))}
        clubs = _clubs_of(session, changes, datetime.now(UTC).date())
        for subscription in rated:
            members = sorted(pkz for pkz in changes if any(covers(subscription, c) for c in clubs.get(pkz, ())))
            if not members:
                continue
            if run.from_scratch or len(members) > PER_PERSON_LIMIT or not _wants(subscription, RATING_CHANGED):
                summary = {"run": run.id, "from_scratch": run.from_scratch, "moved": len(members)}
                writer.add(subscription, RATINGS_RECALCULATED, {**summary, "links": {"changes": run_link}})
                continue
            moving = _moving_tournaments(session, members, set(tournaments))
            for pkz in members:
                change = changes[pkz]
                data = {
                    "person": pkz,
                    "old": _figures(change.old_rating, change.old_index),
                    "new": _figures(change.new_rating, change.new_index),
                    # his own tournament among the run's; null when the run moved him through later games
                    "tournament": moving.get(pkz),
                    "run": run.id,
                    "run_tournaments": tournaments,
                    "links": {"person": f"{API}/players/{pkz}", "run": run_link},
                }
                writer.add(subscription, RATING_CHANGED, data)
    # the run's tournaments as evaluated (a from-scratch run evaluates them all: its summary says so)
    stated = _subscriptions(session, message, TOURNAMENT_STATE_CHANGED)
    if stated and not run.from_scratch and len(tournaments) <= PER_PERSON_LIMIT:
        at = run.finished_at if run.finished_at.tzinfo is not None else run.finished_at.replace(tzinfo=UTC)
        for tournament_id in tournaments:
            federation, clubs_in = _tournament_reach(session, tournament_id)
            data = _tournament_data(tournament_id, "evaluated", None, at.isoformat(), run.id)
            for subscription in stated:
                if _reaches(subscription, federation, clubs_in):
                    writer.add(subscription, TOURNAMENT_STATE_CHANGED, data)


def _tournament_data(tournament_id: int, state: str, version: int | None, at: str, run: int | None) -> dict[str, Any]:
    return {
        "tournament": tournament_id,
        "state": state,
        "version": version,
        "at": at,
        "run": run,
        "links": {"tournament": f"{API}/tournaments/{tournament_id}"},
    }


def on_tournament_state(session: Session, message: OutboxMessage) -> None:
    stated = _subscriptions(session, message, TOURNAMENT_STATE_CHANGED)
    if not stated:
        return
    payload = message.payload
    tournament_id = int(payload["tournament"])
    federation, clubs = _tournament_reach(session, tournament_id)
    data = _tournament_data(tournament_id, str(payload["state"]), payload.get("version"), str(payload["at"]), None)
    writer = _Writer(session, message)
    for subscription in stated:
        if _reaches(subscription, federation, clubs):
            writer.add(subscription, TOURNAMENT_STATE_CHANGED, data)


def on_edition(session: Session, message: OutboxMessage) -> None:
    payload = message.payload
    data = {
        "edition": payload["edition"],
        "name": payload["name"],
        "as_of": payload["as_of"],
        "links": {"edition": f"{API}/editions/{payload['name']}"},
    }
    writer = _Writer(session, message)
    for subscription in _subscriptions(session, message, EDITION_PUBLISHED):  # an edition concerns every club
        writer.add(subscription, EDITION_PUBLISHED, data)


def on_event(session: Session, message: OutboxMessage) -> None:
    """Any other event: ``{"type", "data", "clubs"}``; without ``clubs``, for every subscription."""
    payload = message.payload
    event_type = str(payload["type"])
    clubs = payload.get("clubs")
    writer = _Writer(session, message)
    for subscription in _subscriptions(session, message, event_type):
        if clubs is None or any(covers(subscription, c) for c in clubs):
            writer.add(subscription, event_type, payload.get("data") or {})


HANDLERS: dict[str, Callable[[Session, OutboxMessage], None]] = {
    "rating.run": on_rating_run,
    "tournament.state": on_tournament_state,
    "edition.published": on_edition,
    "event": on_event,
}
