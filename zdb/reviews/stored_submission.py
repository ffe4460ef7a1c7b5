"""A checked submission kept as JSON while it waits in review, and read back whole.

Why: a submission waiting in review is no tournament yet (nothing of it may reach the time line
before approval), so its checked players and games are kept in the review's row, together with
what the preview shows (the names, the warnings) and the birth years the records learn from it
on approval. Persons are kept by their numbers: newcomers were created when it arrived.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from zdb.errors import ValidationProblem
from zdb.submissions.intake import Intake
from zdb.tournaments.service import SubmittedGame, SubmittedPlayer, TournamentSubmission

__all__ = ["intake_from_json", "intake_to_json"]


def intake_to_json(intake: Intake) -> dict[str, Any]:
    s = intake.submission
    return {
        "acronym": s.acronym,
        "name": s.name,
        "federation": s.federation_prefix,
        "kind": s.kind,
        "start_date": None if s.start_date is None else s.start_date.isoformat(),
        "end_date": s.end_date.isoformat(),
        "round_dates": [d.isoformat() for d in s.round_dates],
        "time_control": s.time_control,
        "tournament_id": s.tournament_id,
        "players": [[p.pkz, p.birth_year, p.member, p.fide_rating] for p in s.players],
        "games": [[g.white, g.black, g.result, g.round, g.board] for g in s.games],
        "created": list(intake.created),
        "names": list(intake.names),
        "names_in_file": list(intake.names_in_file),
        "warnings": [[w.place, w.message] for w in intake.warnings],
        # JSON keys are texts: the person numbers are read back as numbers
        "learned": {str(pkz): year for pkz, year in intake.learned.items()},
    }


def _day(value: str | None) -> date | None:
    return None if value is None else date.fromisoformat(value)


def intake_from_json(stored: dict[str, Any]) -> Intake:
    end = _day(stored["end_date"])
    assert end is not None
    submission = TournamentSubmission(
        acronym=stored["acronym"],
        end_date=end,
        players=tuple(SubmittedPlayer(*p) for p in stored["players"]),
        games=tuple(SubmittedGame(*g) for g in stored["games"]),
        name=stored["name"],
        start_date=_day(stored["start_date"]),
        round_dates=tuple(date.fromisoformat(d) for d in stored["round_dates"]),
        time_control=stored["time_control"],
        kind=stored["kind"],
        federation_prefix=stored["federation"],
        tournament_id=stored["tournament_id"],
    )
    return Intake(
        submission,
        tuple(stored["created"]),
        tuple(stored["names"]),
        tuple(stored["names_in_file"]),
        tuple(ValidationProblem(place, message) for place, message in stored["warnings"]),
        {int(pkz): year for pkz, year in stored["learned"].items()},
    )
