"""All SQL of the tournament read side: the list (period, federation subtree, text, status),
one tournament with its versions and its crosstable (its evaluation report is on the ratings
side, ``zdb.ratings.evaluation_report``).

A tournament's status as the API shows it adds "evaluating" to the stored ones: a tournament
that waits for the recalculation while a run is in progress.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import ColumnElement, Select, and_, false, func, or_, select
from sqlalchemy.orm import Session

from zdb.common.like import like_pattern
from zdb.errors import NotFoundError
from zdb.players.models import Player
from zdb.players.privacy import public_name_column
from zdb.rating import ResultCode
from zdb.timeline.models import Evaluation
from zdb.timeline.state import recalc_running
from zdb.tournaments.models import GameRow, Participation, TournamentRecord, TournamentVersion
from zdb.tournaments.schemas import (
    Crosstable,
    CrosstableGame,
    CrosstableRow,
    TournamentDetail,
    TournamentStatus,
    TournamentSummary,
    VersionOut,
)

__all__ = [
    "crosstable",
    "list_tournaments",
    "summary_of",
    "tournament_detail",
]

_RESULTS = {code.value: code for code in ResultCode}


def _status(stored: str, running: bool) -> TournamentStatus:
    if stored == "received":
        return "evaluating" if running else "received"
    return "withdrawn" if stored == "withdrawn" else "evaluated"


_PLAYERS = (
    select(func.count())
    .where(
        Participation.tournament_id == TournamentRecord.id, Participation.version == TournamentRecord.current_version
    )
    .correlate(TournamentRecord)
    .scalar_subquery()
)


def _summary_query() -> Select[*tuple[Any, ...]]:
    t, v = TournamentRecord, TournamentVersion
    return select(
        t.id,
        t.current_version,
        t.status,
        t.evaluated_version,
        v.acronym,
        v.name,
        v.federation_prefix,
        v.start_date,
        v.end_date,
        v.kind,
        v.time_control,
        v.submitted_at,
        _PLAYERS.label("players"),
    ).join(v, and_(v.tournament_id == t.id, v.version == t.current_version))


def _summary(row: Any, running: bool) -> TournamentSummary:
    return TournamentSummary(
        id=row.id,
        version=row.current_version,
        acronym=row.acronym,
        name=row.name,
        federation_prefix=row.federation_prefix,
        start_date=row.start_date,
        end_date=row.end_date,
        kind=row.kind,
        time_control=row.time_control,
        status=_status(row.status, running),
        evaluated_version=row.evaluated_version,
        players=row.players,
        submitted_at=row.submitted_at,
    )


def list_tournaments(
    session: Session,
    *,
    period_from: date | None,
    period_to: date | None,
    federation: str | None,
    text: str | None,
    status: TournamentStatus | None,
    limit: int,
    offset: int,
) -> tuple[list[TournamentSummary], int, datetime | None]:
    """A page of tournaments (current versions), latest end date first; the total and the time
    of the latest submission or withdrawal among them."""
    t, v = TournamentRecord, TournamentVersion
    running = recalc_running(session)
    conditions: list[ColumnElement[bool]] = []
    if period_from is not None:
        conditions.append(v.end_date >= period_from)
    if period_to is not None:
        conditions.append(v.end_date <= period_to)
    if federation:
        conditions.append(v.federation_prefix.like(like_pattern(federation, prefix_only=True), escape="\\"))
    if text:
        conditions.append(
            or_(
                func.lower(v.name).like(like_pattern(text.lower()), escape="\\"),
                func.upper(v.acronym) == text.upper(),
            )
        )
    if status is not None:
        stored = {"evaluating": "received"}.get(status, status)
        conditions.append(t.status == stored)
        if status in ("received", "evaluating") and running != (status == "evaluating"):
            conditions.append(false())  # the stored status shows as the other one now
    join_on = and_(v.tournament_id == t.id, v.version == t.current_version)
    total, submitted, withdrawn = session.execute(
        select(func.count(), func.max(v.submitted_at), func.max(t.withdrawn_at))
        .select_from(t)
        .join(v, join_on)
        .where(*conditions)
    ).one()
    rows = session.execute(
        _summary_query().where(*conditions).order_by(v.end_date.desc(), v.acronym, t.id).limit(limit).offset(offset)
    ).all()
    stamps = [s for s in (submitted, withdrawn) if s is not None]
    return [_summary(row, running) for row in rows], total, max(stamps, default=None)


def summary_of(session: Session, tournament_id: int) -> tuple[Any, TournamentSummary]:
    row = session.execute(_summary_query().where(TournamentRecord.id == tournament_id)).first()
    if row is None:
        raise NotFoundError(f"tournament {tournament_id} does not exist")
    return row, _summary(row, recalc_running(session))


def tournament_detail(session: Session, tournament_id: int) -> TournamentDetail:
    _, summary = summary_of(session, tournament_id)
    record = session.get(TournamentRecord, tournament_id)
    assert record is not None
    v = TournamentVersion
    versions = session.execute(
        select(v.version, v.acronym, v.end_date, v.submitted_at, v.submitted_by, v.round_dates)
        .where(v.tournament_id == tournament_id)
        .order_by(v.version)
    ).all()
    current = versions[-1]
    return TournamentDetail(
        **summary.model_dump(),
        round_dates=None if current.round_dates is None else [date.fromisoformat(d) for d in current.round_dates],
        created_at=record.created_at,
        withdrawn_at=record.withdrawn_at,
        versions=[
            VersionOut(
                version=r.version,
                acronym=r.acronym,
                end_date=r.end_date,
                submitted_at=r.submitted_at,
                submitted_by=r.submitted_by,
            )
            for r in versions
        ],
    )


def crosstable(session: Session, tournament_id: int) -> Crosstable:
    """The current version's participants in start-number order, each with his games."""
    head, summary = summary_of(session, tournament_id)
    version = head.current_version
    p, pl, e, g = Participation, Player, Evaluation, GameRow
    participants = session.execute(
        select(
            p.position,
            p.player_pkz,
            p.birth_year,
            # a person who objected to publication is named on no public page (zdb.players.privacy)
            public_name_column(pl.surname).label("surname"),
            public_name_column(pl.given_name, given=True).label("given_name"),
            e.r0,
        )
        .join(pl, pl.pkz == p.player_pkz)
        .outerjoin(e, and_(e.tournament_id == p.tournament_id, e.version == p.version, e.player_pkz == p.player_pkz))
        .where(p.tournament_id == tournament_id, p.version == version)
        .order_by(p.position)
    ).all()
    start_no = {r.player_pkz: r.position + 1 for r in participants}
    games: dict[int, list[CrosstableGame]] = {pkz: [] for pkz in start_no}
    for game in session.execute(
        select(g.seq, g.round, g.board, g.white_pkz, g.black_pkz, g.result)
        .where(g.tournament_id == tournament_id, g.version == version)
        .order_by(g.seq)
    ):
        code = _RESULTS[game.result]
        for own, other, white in ((game.white_pkz, game.black_pkz, True), (game.black_pkz, game.white_pkz, False)):
            games[own].append(
                CrosstableGame(
                    round=game.round,
                    board=game.board,
                    opponent=start_no[other],
                    color="white" if white else "black",
                    result=game.result,
                    points=code.white_points if white else code.black_points,
                    rated=code.rated,
                )
            )
    rows = [
        CrosstableRow(
            start_no=r.position + 1,
            pkz=r.player_pkz,
            surname=r.surname,
            given_name=r.given_name,
            birth_year=r.birth_year,
            rating=r.r0,
            points=sum(x.points for x in games[r.player_pkz]),
            games=games[r.player_pkz],
        )
        for r in participants
    ]
    return Crosstable(tournament=summary, version=version, rows=rows)
