"""The explanation of one rating change.

The explanation re-runs the rating engine (``zdb.rating.explain``) on exactly what the stored
evaluation used: the tournament's evaluated version and every participant's state before it,
as the history recorded them; it is shown beside the stored figures.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from zdb.errors import ConflictError, NotFoundError
from zdb.players.models import Player
from zdb.players.privacy import public_name_column
from zdb.rating.explain import ClassicTerms, Explanation, GameTerm, Wo2026Terms, explain
from zdb.ratings.evaluation_report import FIGURE_COLUMNS, engine_figures, evaluation_figures
from zdb.ratings.schemas import (
    ClassicTermsOut,
    ExplainedGame,
    ExplanationOut,
    Wo2026TermsOut,
)
from zdb.timeline.models import Evaluation, HistoryRow
from zdb.timeline.stored_state import state_from_columns
from zdb.tournaments.engine_view import load_tournaments
from zdb.tournaments.models import GameRow, TournamentRecord
from zdb.tournaments.schemas import EvaluationFigures

__all__ = ["explain_rating_change"]


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
