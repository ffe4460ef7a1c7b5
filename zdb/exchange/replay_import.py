"""``zdb import``: a time line in the vectors' replay input format (initial states and events
in submission order) taken in as submissions. Players are created from the file's ids, which
they keep as their external id, so that ``zdb export`` can name them as the file did."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from zdb.errors import ConflictError, DomainError, NotFoundError, ValidationError, ValidationProblem
from zdb.formats.rating_json import load_replay_request
from zdb.players.service import NewPlayer, create_players, pkz_by_external_id
from zdb.rating import StartRating, Tournament, Withdrawal
from zdb.ratings.service import set_initial_states, set_start_rating
from zdb.tournaments.service import (
    SubmittedGame,
    SubmittedPlayer,
    TournamentSubmission,
    submit_tournaments,
    withdraw_tournament,
)

__all__ = ["import_replay_document"]


def import_replay_document(session: Session, document: Any, *, by: str) -> dict[str, int]:
    """Take in a replay document; returns counts of what was stored."""
    states, events = load_replay_request(document)
    birth_years: dict[str, int | None] = dict.fromkeys(states)
    for event in events:
        if isinstance(event, Tournament):
            for p in event.players:
                if birth_years.get(p.pid) is None:
                    birth_years[p.pid] = p.birth_year
        elif isinstance(event, StartRating):
            birth_years.setdefault(event.pid, None)
    known = pkz_by_external_id(session, list(birth_years))
    new = [pid for pid in birth_years if pid not in known]
    numbers = create_players(
        session, [NewPlayer(surname=pid, birth_year=birth_years[pid], external_id=pid) for pid in new]
    )
    pkz = {**known, **dict(zip(new, numbers, strict=True))}
    set_initial_states(session, {pkz[pid]: state for pid, state in states.items()})
    # Initial states replace those stored for the same players (and move their whole history).
    counts = {"players": len(new), "initial_states": len(states), "tournaments": 0, "withdrawals": 0}
    counts["start_ratings"] = 0
    for k, event in enumerate(events):
        try:
            _take(session, event, pkz, by, counts)
        except DomainError as error:
            raise _at(error, f"events[{k}]") from None
    return counts


def _take(
    session: Session, event: Tournament | Withdrawal | StartRating, pkz: dict[str, int], by: str, counts: dict[str, int]
) -> None:
    if isinstance(event, Tournament):
        submission = TournamentSubmission(
            acronym=event.acronym,
            end_date=event.end_date,
            players=tuple(SubmittedPlayer(pkz[p.pid], p.birth_year, p.member, p.fide_rating) for p in event.players),
            games=tuple(SubmittedGame(pkz[g.white], pkz[g.black], g.result.value) for g in event.games),
            tournament_id=event.id,
        )
        submit_tournaments(session, [submission], by=by)
        counts["tournaments"] += 1
    elif isinstance(event, Withdrawal):
        withdraw_tournament(session, event.tournament, by=by)
        counts["withdrawals"] += 1
    else:
        set_start_rating(session, pkz[event.pid], event.date, event.rating, event.index, by=by)
        counts["start_ratings"] += 1


def _at(error: DomainError, place: str) -> DomainError:
    """The same error, naming the event of the file it arose at."""
    if isinstance(error, ValidationError):
        return ValidationError([ValidationProblem(f"{place}.{p.place}", p.text) for p in error.problems])
    if type(error) in (NotFoundError, ConflictError, DomainError):
        return type(error)(f"{place}: {error}")
    return error
