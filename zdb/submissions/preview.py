"""The evaluation a submitted tournament would get now, before it is stored: the referee's
preview. It reads each participant's stored state just before the tournament's place; nothing
is written but the audit entry of the preview (a read of other people's ratings)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from zdb.audit.writer import record_entry
from zdb.auth.principal import Principal
from zdb.rating import EMPTY_STATE, PlayerState, evaluate_tournament
from zdb.ratings.evaluation_report import engine_figures
from zdb.submissions.intake import PREVIEW_ID, Intake
from zdb.submissions.schemas import PreviewOut, PreviewRowOut, WarningOut
from zdb.timeline.models import InitialState
from zdb.timeline.stored_state import state_before, state_from_columns
from zdb.tournaments.service import TournamentSubmission

__all__ = ["preview", "record_preview"]


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


def record_preview(session: Session, caller: Principal, intake: Intake) -> None:
    """A preview is a read of other people's ratings: it is audited like a write, with the
    persons it matched, so that the rating office can see who looked up whom. Only a preview
    that was answered is recorded; a refused one rolls back with its request and showed the
    file's problems alone."""
    submission = intake.submission
    target = "tournament (new)" if submission.tournament_id is None else f"tournament {submission.tournament_id}"
    matched = [p.pkz for p, new in zip(submission.players, intake.created, strict=True) if p.pkz > 0 and not new]
    record_entry(
        session,
        caller.token_id,
        "tournament.preview",
        target,
        acronym=submission.acronym,
        federation=submission.federation_prefix,
        players=len(submission.players),
        matched_players=matched,
    )
