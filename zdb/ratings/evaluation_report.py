"""A tournament's stored evaluation as staff read it: every participant's figures, in the
submission's order, and the figure columns other read sides select with it."""

from __future__ import annotations

from sqlalchemy import RowMapping, select
from sqlalchemy.orm import Session

from zdb.players.models import Player
from zdb.players.privacy import public_name_column
from zdb.rating import ReportRow
from zdb.timeline.models import Evaluation
from zdb.tournaments.queries import summary_of
from zdb.tournaments.schemas import EvaluationFigures, EvaluationReport, ReportRowOut

__all__ = ["FIGURE_COLUMNS", "engine_figures", "evaluation_figures", "evaluation_report"]

#: the stored figures of an evaluation row, as selected for ``evaluation_figures``
FIGURE_COLUMNS = (
    Evaluation.rule_set,
    Evaluation.member,
    Evaluation.stage,
    Evaluation.fide_start,
    Evaluation.r0,
    Evaluation.i0,
    Evaluation.w,
    Evaluation.n,
    Evaluation.unrated_games,
    Evaluation.we,
    Evaluation.e,
    Evaluation.k,
    Evaluation.rh,
    Evaluation.sonder,
    Evaluation.rn,
    Evaluation.i_new,
    Evaluation.stored,
    Evaluation.leftover_used,
    Evaluation.leftover_stored,
)
_FIGURES = tuple(column.key for column in FIGURE_COLUMNS)


def evaluation_figures(row: RowMapping) -> EvaluationFigures:
    return EvaluationFigures(**{name: row[name] for name in _FIGURES})


def evaluation_report(session: Session, tournament_id: int, *, public: bool = True) -> EvaluationReport:
    """The stored evaluation: every participant's figures, in the submission's order. ``public``:
    an objector's name withheld; the referee who submitted the tournament sees the names."""
    row, summary = summary_of(session, tournament_id)
    version = row.evaluated_version
    rows: list[ReportRowOut] = []
    if version is not None:
        e, p = Evaluation, Player
        found = session.execute(
            select(
                e.position,
                e.player_pkz,
                (public_name_column(p.surname) if public else p.surname).label("surname"),
                (public_name_column(p.given_name, given=True) if public else p.given_name).label("given_name"),
                *FIGURE_COLUMNS,
            )
            .join(p, p.pkz == e.player_pkz)
            .where(e.tournament_id == tournament_id, e.version == version)
            .order_by(e.position)
        ).all()
        rows = [
            ReportRowOut(
                position=r.position,
                pkz=r.player_pkz,
                surname=r.surname,
                given_name=r.given_name,
                **evaluation_figures(r._mapping).model_dump(),
            )
            for r in found
        ]
    return EvaluationReport(
        tournament=summary,
        version=version,
        current=version == row.current_version and row.status == "evaluated",
        rule_set=rows[0].rule_set if rows else None,
        rows=rows,
    )


def engine_figures(rule_set: str, row: ReportRow) -> EvaluationFigures:
    """The figures of one participant as the engine reports them (a preview, an explanation)."""
    return EvaluationFigures(
        rule_set=rule_set,
        member=row.member,
        stage=row.stage.value,
        fide_start=row.fide_start,
        r0=row.r0,
        i0=row.i0,
        w=row.w,
        n=row.n,
        unrated_games=row.unrated_games,
        we=row.we,
        e=row.e,
        k=row.k,
        rh=row.rh,
        sonder=row.sonder,
        rn=row.rn,
        i_new=row.i_new,
        stored=row.stored,
        leftover_used=row.leftover_used,
        leftover_stored=row.leftover_stored,
    )
