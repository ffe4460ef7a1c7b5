"""The fees of evaluated versions as they would be booked now: one tournament (``draft_fees``,
for its page's "pending") or many at once (``drafts_at_once``, for the settlement).

Why both here, side by side: the settlement after a schedule that reaches far back books every
tournament evaluated until then, thousands of them. Read one by one, that is a dozen statements
a tournament; ``drafts_at_once`` reads a batch's versions with their counts, announcement and
registration in one statement, the schedules and federations once, and only a registered round
robin's ratings (its average Elo) on their own. Both end in ``_draft``, so the two ways give the
same basis and the same lines.

The rules (see ``zdb.fees.ledger``): the schedule in force at the end date (``zdb.fees.schedules``,
the federation's, else the nearest ancestor's); the rated games only; the FIDE fees for a
tournament whose announcement is registered with FIDE, the results on the day of its first
submission; the payer the announcement's organiser, else the federation's name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from zdb.federations.models import Federation
from zdb.fees.computation import Basis, LineDraft, Terms, average_elo, fee_lines
from zdb.fees.models import FeeSchedule
from zdb.fees.schedules import schedule_in_force
from zdb.fide.deadlines import days_late
from zdb.fide.models import FideRegistration
from zdb.fide.registration import first_submitted_on, results_sent_on
from zdb.lists.models import FideRatingRow
from zdb.players.models import Player
from zdb.tournaments.models import Announcement, GameRow, Participation, TournamentRecord, TournamentVersion

__all__ = ["RATED", "Draft", "draft_fees", "drafts_at_once"]

#: the rated results: a game fee is owed for these only (forfeits and the other unrated results
#: are no game the evaluation counts)
RATED = ("1-0", "0-1", "1/2-1/2")


@dataclass(frozen=True, slots=True)
class Draft:
    """The fees of one evaluated version as they would be booked now."""

    tournament_id: int
    version: int
    payer: str
    end_date: date
    schedule: FeeSchedule | None
    basis: Basis
    lines: list[LineDraft]


@dataclass(frozen=True, slots=True)
class _Facts:
    """What the fees of one version are computed from, as read."""

    tournament_id: int
    version: int
    results_on: date
    start_date: date | None
    end_date: date
    federation_prefix: str | None
    players: int
    non_members: int
    games: int
    organiser: str | None
    fide_system: str | None
    fide_category: str | None


def _terms(schedule: FeeSchedule) -> Terms:
    return Terms(
        schedule.dwz_tournament_cents,
        schedule.dwz_game_cents,
        schedule.dwz_non_member_cents,
        schedule.fide_player_cents,
        tuple((int(low), int(amount)) for low, amount in schedule.fide_round_robin_tiers),
        schedule.fide_late_cents,
    )


def _fide_ratings(session: Session, tournament_id: int, version: int, category: str, start: date) -> list[int]:
    """The FIDE ratings the players started with: the submitted one, else the rating of the
    tournament's category in the newest edition of FIDE's list before the start."""
    p = Participation
    rows = session.execute(
        select(p.fide_rating, Player.fide_id)
        .join(Player, Player.pkz == p.player_pkz)
        .where(p.tournament_id == tournament_id, p.version == version)
    ).all()
    ratings = [r.fide_rating for r in rows if r.fide_rating]
    wanted = [r.fide_id for r in rows if not r.fide_rating and r.fide_id is not None]
    if wanted:
        f = FideRatingRow
        newest = (
            select(f.fide_id, func.max(f.edition).label("edition"))
            .where(f.fide_id.in_(wanted), f.edition < start)
            .group_by(f.fide_id)
            .subquery()
        )
        column = {"rapid": f.rapid, "blitz": f.blitz}.get(category, f.standard)
        listed = session.execute(
            select(column).join(newest, (f.fide_id == newest.c.fide_id) & (f.edition == newest.c.edition))
        ).scalars()
        ratings += [r for r in listed if r]
    return ratings


def _draft(session: Session, facts: _Facts, schedule: FeeSchedule | None, federation_name: str | None) -> Draft:
    average = late = None
    if facts.fide_system is not None:
        if facts.fide_system == "round_robin":
            start = facts.start_date or facts.end_date
            category = facts.fide_category or "standard"
            average = average_elo(_fide_ratings(session, facts.tournament_id, facts.version, category, start))
        late = days_late(facts.end_date, facts.results_on)
    basis = Basis(
        players=facts.players,
        games=facts.games,
        non_members=facts.non_members,
        fide_system=facts.fide_system,
        average_elo=average,
        days_late=late,
    )
    lines = [] if schedule is None else fee_lines(basis, _terms(schedule))
    payer = facts.organiser if facts.organiser is not None else (federation_name or "—")
    return Draft(facts.tournament_id, facts.version, payer, facts.end_date, schedule, basis, lines)


def _read_facts(session: Session, record_ids: Sequence[int]) -> dict[int, _Facts]:
    """The facts of the evaluated versions of ``record_ids``, in one statement."""
    t, head, p, g = TournamentRecord, TournamentVersion, Participation, GameRow
    players = (
        select(
            p.tournament_id,
            p.version,
            func.count().label("players"),
            func.count().filter(p.member.is_(False)).label("non_members"),
        )
        .where(p.tournament_id.in_(record_ids))
        .group_by(p.tournament_id, p.version)
        .subquery()
    )
    games = (
        select(g.tournament_id, g.version, func.count().label("games"))
        .where(g.tournament_id.in_(record_ids), g.result.in_(RATED))
        .group_by(g.tournament_id, g.version)
        .subquery()
    )
    query = (
        select(
            t.id,
            t.evaluated_version,
            t.created_at,
            head.start_date,
            head.end_date,
            head.federation_prefix,
            func.coalesce(players.c.players, 0),
            func.coalesce(players.c.non_members, 0),
            func.coalesce(games.c.games, 0),
            Announcement.organiser,
            FideRegistration.system,
            FideRegistration.category,
        )
        .join(head, (head.tournament_id == t.id) & (head.version == t.evaluated_version))
        .outerjoin(players, (players.c.tournament_id == t.id) & (players.c.version == t.evaluated_version))
        .outerjoin(games, (games.c.tournament_id == t.id) & (games.c.version == t.evaluated_version))
        .outerjoin(Announcement, Announcement.tournament_id == t.id)
        .outerjoin(FideRegistration, FideRegistration.announcement_id == Announcement.id)
        .where(t.id.in_(record_ids))
        .order_by(t.id, Announcement.id)
    )
    facts: dict[int, _Facts] = {}
    for row in session.execute(query):
        tid, version, created, start, end, prefix, players, non_members, games, organiser, system, category = row
        if tid in facts or version is None:
            continue  # a second announcement of one tournament: the first counts, as in ``draft_fees``
        sent = first_submitted_on(created)
        facts[tid] = _Facts(
            tid, version, sent, start, end, prefix, players, non_members, games, organiser, system, category
        )
    return facts


class _Schedules:
    """Every schedule and the federation tree, read once: ``schedule_in_force`` in memory."""

    def __init__(self, session: Session) -> None:
        self.federations = {f.prefix: (f.name, f.parent_prefix) for f in session.execute(select(Federation)).scalars()}
        self.by_federation: dict[str, list[FeeSchedule]] = {}
        for schedule in session.execute(select(FeeSchedule).order_by(FeeSchedule.id)).scalars():
            self.by_federation.setdefault(schedule.federation_prefix, []).append(schedule)

    def in_force(self, prefix: str | None, day: date) -> FeeSchedule | None:
        seen: set[str] = set()
        current = prefix
        while current is not None and current not in seen:
            seen.add(current)  # a broken tree never loops
            for schedule in self.by_federation.get(current, ()):
                # schedules of one federation never overlap: at most one covers the day
                if schedule.valid_from <= day and (schedule.valid_until is None or schedule.valid_until >= day):
                    return schedule
            current = self.federations[current][1] if current in self.federations else None
        return None

    def name(self, prefix: str | None) -> str | None:
        return None if prefix is None or prefix not in self.federations else self.federations[prefix][0]


def drafts_at_once(session: Session, record_ids: Sequence[int]) -> list[Draft]:
    """The drafts of the evaluated versions of ``record_ids``, in their order."""
    schedules = _Schedules(session)
    facts = _read_facts(session, record_ids)
    drafts = []
    for tid in record_ids:
        if tid in facts:
            prefix, end = facts[tid].federation_prefix, facts[tid].end_date
            drafts.append(_draft(session, facts[tid], schedules.in_force(prefix, end), schedules.name(prefix)))
    return drafts


def draft_fees(session: Session, record: TournamentRecord, version: int) -> Draft:
    """The fees of ``version`` of a tournament as they would be booked now."""
    head = session.get(TournamentVersion, (record.id, version))
    assert head is not None, "an evaluated version exists"
    p, g = Participation, GameRow
    players, non_members = session.execute(
        select(func.count(), func.count().filter(p.member.is_(False))).where(
            p.tournament_id == record.id, p.version == version
        )
    ).one()
    games = session.execute(
        select(func.count()).where(g.tournament_id == record.id, g.version == version, g.result.in_(RATED))
    ).scalar_one()
    announcement = session.execute(select(Announcement).where(Announcement.tournament_id == record.id)).scalar()
    registration = (
        None
        if announcement is None
        else session.execute(
            select(FideRegistration).where(FideRegistration.announcement_id == announcement.id)
        ).scalar()
    )
    facts = _Facts(
        record.id,
        version,
        results_sent_on(record),
        head.start_date,
        head.end_date,
        head.federation_prefix,
        players,
        non_members,
        games,
        None if announcement is None else announcement.organiser,
        None if registration is None else registration.system,
        None if registration is None else registration.category,
    )
    federation = None if head.federation_prefix is None else session.get(Federation, head.federation_prefix)
    schedule = schedule_in_force(session, head.federation_prefix, head.end_date)
    return _draft(session, facts, schedule, None if federation is None else federation.name)
