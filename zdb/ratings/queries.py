"""All SQL of the rating read side: top lists, the club software's member list and change feed,
the recalculation's status, and the explanation of one rating change.

The explanation re-runs the rating engine (``zdb.rating.explain``) on exactly what the stored
evaluation used: the tournament's evaluated version and every participant's state before it,
as the history recorded them; it is shown beside the stored figures.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime
from functools import cache, lru_cache
from typing import Any

from sqlalchemy import ColumnElement, DateTime, Select, String, and_, bindparam, exists, func, join, select
from sqlalchemy.orm import Session, aliased

from zdb.auth.principal import Principal
from zdb.common.like import like_pattern
from zdb.common.utc import as_utc
from zdb.editions.sources import ListSource
from zdb.errors import ConflictError, NotFoundError
from zdb.federations.models import Club
from zdb.players.models import Membership, Player
from zdb.players.privacy import WITHHELD, public_name_column
from zdb.rating.explain import ClassicTerms, Explanation, GameTerm, Wo2026Terms, explain
from zdb.ratings.evaluation_report import FIGURE_COLUMNS, engine_figures, evaluation_figures
from zdb.ratings.player_queries import current_clubs, rating_index
from zdb.ratings.schemas import (
    ClassicTermsOut,
    ClubMemberRating,
    DirtyPosition,
    ExplainedGame,
    ExplanationOut,
    LastRun,
    RatingChange,
    RecalcProgress,
    RecalcStatus,
    TopListEntry,
    Wo2026TermsOut,
)
from zdb.timeline.models import Evaluation, HistoryRow, PlayerRating
from zdb.timeline.run_records import RunChange
from zdb.timeline.state import RESULTS_STAMP_COLUMNS, current_run, read_state
from zdb.timeline.stored_state import state_from_columns
from zdb.tournaments.engine_view import load_tournaments
from zdb.tournaments.models import GameRow, TournamentRecord
from zdb.tournaments.schemas import EvaluationFigures

__all__ = [
    "club_page_fields",
    "club_params",
    "club_ratings",
    "club_statements",
    "explain_rating_change",
    "rating_changes",
    "recalc_status",
    "results_stamp",
    "results_stamp_of",
    "top_list",
]


def _second(since: datetime) -> datetime:
    """A moment in UTC to the second (a naive one is UTC)."""
    return (since.astimezone(UTC) if since.tzinfo else since.replace(tzinfo=UTC)).replace(microsecond=0)


def _changed_since(session: Session, since: datetime) -> ColumnElement[bool]:
    """``changed_at >= since``, inclusive and to the second: a duplicate in a feed is harmless, a
    missed change is not. SQLite keeps the server's timestamps as text to the second."""
    moment = _second(since)
    if session.get_bind().dialect.name == "sqlite":
        text = moment.strftime("%Y-%m-%d %H:%M:%S")
        return PlayerRating.changed_at >= bindparam("changed_since", text, type_=String)
    return PlayerRating.changed_at >= moment


def top_list(
    session: Session,
    *,
    federation: str | None,
    age_min: int | None,
    age_max: int | None,
    sex: str | None,
    active: bool | None,
    year: int,
    limit: int,
    offset: int,
    source: ListSource | None = None,
) -> tuple[list[TopListEntry], int, datetime | None]:
    """Rated players (guests never), best first; equal ratings share a rank. Age is ``year``
    minus birth year: an age filter leaves out players whose birth year is unknown. Federation
    and ``active`` look at current memberships (in a club of the subtree, when given); with a
    ``source``, its ratings and the memberships of its day (``at=``, ``edition=``)."""
    source = source or ListSource(PlayerRating)
    p, r, m = Player, source.ratings, Membership
    conditions: list[ColumnElement[bool]] = [r.rating.is_not(None), p.guest.is_(False)]
    if sex is not None:
        conditions.append(p.sex == sex)
    if age_min is not None:
        conditions.append(p.birth_year <= year - age_min)
    if age_max is not None:
        conditions.append(p.birth_year >= year - age_max)
    membership: list[ColumnElement[bool]] = [m.player_pkz == p.pkz, *source.member_on_day()]
    if federation:
        membership.append(m.club_code.like(like_pattern(federation, prefix_only=True), escape="\\"))
    if active is True:
        conditions.append(exists().where(*membership, m.status == "active"))
    elif active is False:
        conditions.append(exists().where(*membership))
        conditions.append(~exists().where(*membership, m.status == "active"))
    elif federation:
        conditions.append(exists().where(*membership))
    total, changed = session.execute(
        select(func.count(), func.max(r.changed_at)).select_from(p).join(r, r.player_pkz == p.pkz).where(*conditions)
    ).one()
    ranked = (
        select(
            p.pkz,
            public_name_column(p.surname).label("surname"),
            public_name_column(p.given_name, given=True).label("given_name"),
            p.sex,
            p.birth_year,
            p.fide_id,
            p.nation,
            r.rating,
            r.rating_index,
            func.rank().over(order_by=r.rating.desc()).label("rank"),
        )
        .join(r, r.player_pkz == p.pkz)
        .where(*conditions)
        .subquery()
    )
    rows = session.execute(
        select(ranked).order_by(ranked.c.rank, ranked.c.surname, ranked.c.pkz).limit(limit).offset(offset)
    ).all()
    clubs = current_clubs(session, [row.pkz for row in rows])
    items = [
        TopListEntry(
            rank=row.rank,
            pkz=row.pkz,
            surname=row.surname,
            given_name=row.given_name,
            sex=row.sex,
            birth_year=row.birth_year,
            fide_id=row.fide_id,
            nation=row.nation,
            rating=row.rating,
            rating_index=row.rating_index,
            clubs=clubs[row.pkz],
        )
        for row in rows
    ]
    return items, total, changed


@cache
def club_statements(dialect: str, *, changed_since: bool) -> tuple[Select[*tuple[Any, ...]], ...]:
    """The club list's statements for a database ``dialect``; their parameters are
    ``club_params``.

    The first gives the page of members, each row with the total and the latest rating change of
    all members matching; a club without members matching gives one row without a member, a club
    that does not exist (or a page beyond the last member) no row. Then, and only then, the
    second says whether the club exists, with that total and latest change."""
    m, p, r, h = Membership, Player, PlayerRating, HistoryRow
    matching: list[ColumnElement[bool]] = [m.valid_until.is_(None)]
    if changed_since:
        kind = String() if dialect == "sqlite" else DateTime(timezone=True)
        matching.append(r.changed_at >= bindparam("changed_since", type_=kind))
    members = join(m, p, p.pkz == m.player_pkz).outerjoin(r, r.player_pkz == p.pkz)
    last_evaluation = (
        select(func.max(h.event_date))
        .where(h.player_pkz == p.pkz, h.event_phase == 1, h.evaluated.is_(True))
        .correlate(p)
        .scalar_subquery()
    )
    rows = (
        select(
            m.member_no,
            m.status,
            p.pkz,
            p.surname,
            p.given_name,
            p.objects_to_publication,
            p.sex,
            p.birth_year,
            p.birth_date,
            p.fide_id,
            p.nation,
            r.rating,
            r.rating_index,
            r.changed_at,
            last_evaluation.label("last_evaluation"),
            func.count(p.pkz).over().label("total"),
            func.max(r.changed_at).over().label("changed"),
        )
        .select_from(Club)
        .outerjoin(members, and_(m.club_code == Club.code, *matching))
        .where(Club.code == bindparam("code"))
        .order_by(m.member_no.is_(None), m.member_no, p.pkz)
        .limit(bindparam("limit"))
        .offset(bindparam("offset"))
    )
    beyond = (
        select(
            func.count().label("total"),
            func.max(r.changed_at).label("changed"),
            exists().where(Club.code == bindparam("code")).label("club_exists"),
        )
        .select_from(members)
        .where(m.club_code == bindparam("code"), *matching)
    )
    return rows, beyond


def club_params(dialect: str, code: str, *, changed_since: datetime | None, limit: int, offset: int) -> dict[str, Any]:
    """The parameters of ``club_statements``: ``changed_since`` inclusive and to the second (a
    duplicate in a feed is harmless, a missed change is not); SQLite keeps the server's
    timestamps as text to the second."""
    params: dict[str, Any] = {"code": code, "limit": limit, "offset": offset}
    if changed_since is not None:
        moment = _second(changed_since)
        params["changed_since"] = moment.strftime("%Y-%m-%d %H:%M:%S") if dialect == "sqlite" else moment
    return params


def club_page_fields(
    code: str, rows: Sequence[Mapping[Any, Any]], beyond: Mapping[Any, Any] | None, viewer: Principal
) -> tuple[list[dict[str, Any]], int, datetime | None]:
    """The club list from the rows of ``club_statements`` (``beyond``: the second's row, asked
    for only when the first gave none): the members as plain values in the order of
    ``ClubMemberRating``'s fields, the total and the latest rating change of all members
    matching. Non-public fields only for a caller whose scope covers the club."""
    if beyond is not None:
        if not beyond["club_exists"]:
            raise NotFoundError(f"no club has the code {code!r}")
        return [], beyond["total"], beyond["changed"]
    visible = viewer.sees_private([code])
    first = rows[0]
    return [_member(row, visible) for row in rows if row["pkz"] is not None], first["total"], first["changed"]


def club_ratings(
    session: Session,
    code: str,
    viewer: Principal,
    *,
    changed_since: datetime | None,
    limit: int,
    offset: int,
) -> tuple[list[ClubMemberRating], int, datetime | None]:
    """Every current member of a club with his rating, index, last evaluation and FIDE data,
    in one query; by membership number. Non-public fields only for a caller whose scope covers
    the club."""
    dialect = session.get_bind().dialect.name
    rows_sql, beyond_sql = club_statements(dialect, changed_since=changed_since is not None)
    params = club_params(dialect, code, changed_since=changed_since, limit=limit, offset=offset)
    rows = session.execute(rows_sql, params).mappings().all()
    beyond = None if rows else session.execute(beyond_sql, params).mappings().one()
    items, total, changed = club_page_fields(code, rows, beyond, viewer)
    return [ClubMemberRating.model_validate(item) for item in items], total, changed


# The club list converts every member's dates; a club's members share few distinct ones.
@lru_cache(maxsize=4096)
def _year_week(day: date | None) -> str | None:
    if day is None:
        return None
    year, week, _ = day.isocalendar()
    return f"{year}-W{week:02d}"


def _member(row: Mapping[Any, Any], visible: bool) -> dict[str, Any]:
    withheld = bool(row["objects_to_publication"]) and not visible  # his club and the staff still see him
    return {
        "pkz": row["pkz"],
        "member_no": row["member_no"],
        "status": row["status"],
        "surname": WITHHELD if withheld else row["surname"],
        "given_name": "" if withheld else row["given_name"],
        "sex": row["sex"],
        "birth_year": row["birth_year"],
        "birth_date": row["birth_date"] if visible else None,
        "private_fields_visible": visible,
        "fide_id": row["fide_id"],
        "nation": row["nation"],
        "rating": row["rating"],
        "rating_index": rating_index(row["rating"], row["rating_index"]),
        "last_evaluation": _year_week(row["last_evaluation"]),
        "last_evaluation_end_date": row["last_evaluation"],
        "rating_changed_at": None if row["changed_at"] is None else _utc(row["changed_at"]),
    }


def rating_changes(
    session: Session, *, since: datetime, federation: str | None, limit: int, offset: int
) -> tuple[list[RatingChange], int, datetime | None, datetime]:
    """Players whose current rating was written at or after ``since`` (oldest change first);
    returns the page, the total, the latest change among them and where the next poll starts.

    The next poll starts at the latest change visible now: runs are serialised and a run's rows
    become visible only when it commits, so a change that is still being written will carry a
    later time than every visible one. Polls are inclusive, so nothing falls between two.
    """
    p, r, m = Player, PlayerRating, Membership
    conditions = [_changed_since(session, since)]
    if federation:
        member = exists().where(
            m.player_pkz == p.pkz,
            m.valid_until.is_(None),
            m.club_code.like(like_pattern(federation, prefix_only=True), escape="\\"),
        )
        conditions.append(member)
    total, changed = session.execute(
        select(func.count(), func.max(r.changed_at)).select_from(r).join(p, p.pkz == r.player_pkz).where(*conditions)
    ).one()
    # The values before: those the last recalculation run that changed the player recorded.
    c, last = aliased(RunChange), aliased(RunChange)
    before = (
        select(last.run_id).where(last.player_pkz == p.pkz).order_by(last.run_id.desc()).limit(1).correlate(p)
    ).scalar_subquery()
    old = and_(c.player_pkz == p.pkz, c.run_id == before)
    rows = session.execute(
        select(
            p.pkz,
            public_name_column(p.surname).label("surname"),
            public_name_column(p.given_name, given=True).label("given_name"),
            p.fide_id,
            r.rating,
            r.rating_index,
            r.changed_at,
            select(c.old_rating).where(old).correlate(p).scalar_subquery().label("old_rating"),
            select(c.old_index).where(old).correlate(p).scalar_subquery().label("old_index"),
        )
        .join(p, p.pkz == r.player_pkz)
        .where(*conditions)
        .order_by(r.changed_at, p.pkz)
        .limit(limit)
        .offset(offset)
    ).all()
    latest = session.execute(select(func.max(r.changed_at))).scalar()
    items = [
        RatingChange(
            pkz=row.pkz,
            surname=row.surname,
            given_name=row.given_name,
            fide_id=row.fide_id,
            rating=row.rating,
            rating_index=rating_index(row.rating, row.rating_index),
            changed_at=row.changed_at,
            old_rating=row.old_rating,
            old_index=row.old_index,
        )
        for row in rows
    ]
    return items, total, changed, since if latest is None else max(_utc(latest), _utc(since))


#: many rows share a moment (one run's writes): converted once each
_utc = lru_cache(maxsize=4096)(as_utc)


def recalc_status(session: Session) -> RecalcStatus:
    s = read_state(session)
    dirty = None
    if s.dirty_date is not None:
        assert s.dirty_phase is not None and s.dirty_text is not None and s.dirty_id is not None
        dirty = DirtyPosition(date=s.dirty_date, phase=s.dirty_phase, text=s.dirty_text, id=s.dirty_id)
    run = current_run(session)
    last = None
    if s.last_finished_at is not None or s.last_error is not None:
        last = LastRun(
            started_at=s.last_started_at,
            finished_at=s.last_finished_at,
            generation=s.last_generation,
            evaluated=s.last_evaluated,
            changed_players=s.last_changed_players,
            duration_ms=s.last_duration_ms,
            error=s.last_error,
        )
    return RecalcStatus(
        state="running" if run else "pending" if dirty is not None else "idle",
        generation=s.generation,
        dirty_position=dirty,
        dirty_since=s.dirty_since if dirty is not None else None,
        running_since=run[0] if run else None,
        progress=RecalcProgress(done=run[1], total=run[2]) if run else None,
        last_run=last,
    )


def results_stamp_of(row: Mapping[Any, Any]) -> datetime | None:
    stamps = (row[column.key] for column in RESULTS_STAMP_COLUMNS)
    return max((_utc(t) for t in stamps if t is not None), default=None)


def results_stamp(session: Session) -> datetime | None:
    """When the stored results last changed or began to: the recalculation's latest moment."""
    return results_stamp_of(session.execute(select(*RESULTS_STAMP_COLUMNS)).mappings().one())


def explain_rating_change(session: Session, tournament_id: int, pkz: int) -> ExplanationOut:
    """Every term of player ``pkz``'s evaluation in the tournament's evaluated version, beside
    the stored figures. A tournament never evaluated is a ``ConflictError``."""
    record = session.get(TournamentRecord, tournament_id)
    if record is None:
        raise NotFoundError(f"tournament {tournament_id} does not exist")
    version = record.evaluated_version
    if version is None:
        raise ConflictError(f"tournament {tournament_id} has not been evaluated yet")
    e = Evaluation
    stored = session.execute(
        select(*FIGURE_COLUMNS).where(e.tournament_id == tournament_id, e.version == version, e.player_pkz == pkz)
    ).first()
    if stored is None:
        raise NotFoundError(f"player {pkz} was not evaluated in tournament {tournament_id}")
    figures = evaluation_figures(stored._mapping)
    tournament, _ = load_tournaments(session, [(tournament_id, version)])[tournament_id]
    h = HistoryRow
    states = {
        str(row.player_pkz): state_from_columns(row.old_rating, row.old_index, row.old_leftover)
        for row in session.execute(
            select(h.player_pkz, h.old_rating, h.old_index, h.old_leftover).where(
                h.tournament_id == tournament_id, h.tournament_version == version, h.event_phase == 1
            )
        )
    }
    explanation = explain(tournament, states, str(pkz))
    names = {
        row.pkz: f"{row.given_name} {row.surname}".strip()
        for row in session.execute(
            select(
                Player.pkz,
                public_name_column(Player.given_name, given=True).label("given_name"),
                public_name_column(Player.surname).label("surname"),
            ).where(Player.pkz.in_([int(p.pid) for p in tournament.players]))
        )
    }
    g = GameRow
    rounds = {
        r.seq: r.round
        for r in session.execute(select(g.seq, g.round).where(g.tournament_id == tournament_id, g.version == version))
    }
    row = explanation.row
    games = [_explained_game(t, names[int(t.opponent)], rounds.get(t.game)) for t in explanation.games]
    return ExplanationOut(
        tournament_id=tournament_id,
        tournament_version=version,
        acronym=tournament.acronym,
        end_date=tournament.end_date,
        pkz=pkz,
        name=names[pkz],
        rule_set=explanation.rule_set,
        stage=row.stage.value,
        age=explanation.age,
        age_known=explanation.age_known,
        r0=row.r0,
        i0=row.i0,
        index_used=explanation.index_used,
        w=row.w,
        n=row.n,
        we_exact=explanation.we_exact,
        we=row.we,
        at_least_expected=explanation.at_least_expected,
        games=games,
        classic=None if explanation.classic is None else _classic_out(explanation.classic),
        wo2026=None if explanation.wo2026 is None else _wo2026_out(explanation.wo2026),
        rh=row.rh,
        rn=row.rn,
        i_new=row.i_new,
        stored=row.stored,
        figures=figures,
        matches_stored=_figures(explanation) == figures,
    )


def _figures(explanation: Explanation) -> EvaluationFigures:
    return engine_figures(explanation.rule_set, explanation.row)


def _classic_out(c: ClassicTerms) -> ClassicTermsOut:
    return ClassicTermsOut(
        j=c.j,
        e0=float(c.e0),
        fb=float(c.fb),
        sbr=c.sbr,
        e_unbounded=c.e_unbounded,
        e_min=c.e_min,
        cap=c.cap,
        cap_rule=c.cap_rule,
        e=c.e,
        rn_exact=c.rn_exact,
        rn=c.rn,
    )


def _wo2026_out(k: Wo2026Terms) -> Wo2026TermsOut:
    return Wo2026TermsOut(
        row=k.row,
        k0=k.k0,
        a=float(k.a),
        b=float(k.b),
        k_exact=float(k.k_exact),
        k_rounded=float(k.k_rounded),
        k_max=k.k_max,
        k=float(k.k),
        rn_exact=k.rn_exact,
        floor=k.floor,
        rn=k.rn,
    )


def _explained_game(t: GameTerm, opponent_name: str, round_no: int | None) -> ExplainedGame:
    return ExplainedGame(
        game=t.game,
        round=round_no,
        opponent_pkz=int(t.opponent),
        opponent_name=opponent_name,
        color="white" if t.white else "black",
        result=t.result,
        points=t.points,
        rated=t.rated,
        unrated_reason=t.unrated_reason,
        opponent_rating=t.opponent_rating,
        opponent_basis=t.opponent_basis,
        difference=t.difference,
        expected=t.expected,
    )
