"""The evaluation a submitted tournament would get now, before it is stored: the referee's
preview. It reads each participant's stored state just before the tournament's place, so it
belongs to the ratings side; nothing is written."""

from __future__ import annotations

from sqlalchemy.orm import Session

from zdb.rating import EMPTY_STATE, PlayerState, evaluate_tournament
from zdb.ratings.evaluation_report import engine_figures
from zdb.timeline.models import InitialState
from zdb.timeline.stored_state import state_before, state_from_columns
from zdb.tournaments.intake import PREVIEW_ID, Intake
from zdb.tournaments.service import TournamentSubmission
from zdb.tournaments.submission_schemas import PreviewOut, PreviewRowOut, WarningOut

__all__ = ["preview"]


def _states(session: Session, submission: TournamentSubmission) -> dict[str, PlayerState]:
    """Each participant's stored state just before the tournament's place. A correction takes
    its own place (its id) and never counts the stored version it replaces."""
    known = [p.pkz for p in submission.players if p.pkz > 0]
    initial = {
        str(r.player_pkz): state_from_columns(r.rating, r.rating_index, r.leftover)
        for r in session.query(InitialState).filter(InitialState.player_pkz.in_(known))
    }
    corrected = submission.tournament_id
    key = (submission.end_date, 1, submission.acronym, corrected or PREVIEW_ID)
    states = {str(pkz): state_before(session, initial, str(pkz), key, skip_tournament=corrected) for pkz in known}
    states.update({str(p.pkz): EMPTY_STATE for p in submission.players if p.pkz < 0})
    return states


def preview(session: Session, intake: Intake) -> PreviewOut:
    """The evaluation the tournament would get now (spec §1's rule set of its end date), from
    each participant's stored state just before it; nothing is written."""
    submission = intake.submission
    evaluation = evaluate_tournament(
        submission.engine_view(submission.tournament_id or PREVIEW_ID), _states(session, submission)
    )
    rows = []
    for k, (row, player) in enumerate(zip(evaluation.rows, submission.players, strict=True)):
        rows.append(
            PreviewRowOut(
                start_no=k + 1,
                pkz=player.pkz if player.pkz > 0 else None,
                name=intake.names[k],
                name_in_file=intake.names_in_file[k] if intake.names_in_file else None,
                **engine_figures(evaluation.rule_set, row).model_dump(),
            )
        )
    warnings = [WarningOut(place=w.place, message=w.message) for w in intake.warnings]
    return PreviewOut(rule_set=evaluation.rule_set, rows=rows, warnings=warnings)
