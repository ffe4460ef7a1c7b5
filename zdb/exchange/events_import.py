"""``zdb import``: an events file (the initial states and the events in submission order, in
the format of the spec's vectors' replay input) taken in as submissions. Players are created
from the file's ids, which they keep as their external id, so that ``zdb export`` can name them
as the file did."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import Any

from sqlalchemy.orm import Session

from zdb.bulk import foreign_keys_checked_at_end
from zdb.common.collector import collector_paused
from zdb.errors import DomainError
from zdb.formats.rating_json import load_replay_request
from zdb.players.service import NewPlayer, create_players, pkz_by_external_id
from zdb.rating import StartRating, Tournament, Withdrawal
from zdb.timeline.start_states import set_initial_states, set_start_rating
from zdb.tournaments.models import GameRow, Participation
from zdb.tournaments.service import (
    SubmittedGame,
    SubmittedPlayer,
    TournamentSubmission,
    refused_at,
    submit_tournaments,
    withdraw_tournament,
)

__all__ = ["import_events"]


def import_events(session: Session, document: Any, *, by: str) -> dict[str, int]:
    """Take in an events file (initial states and events); returns counts of what was stored."""
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
    games = sum(len(event.games) for event in events if isinstance(event, Tournament))
    tables = [Participation.__table__, GameRow.__table__]
    owned: AbstractContextManager[None] = (
        foreign_keys_checked_at_end(session, tables)  # type: ignore[arg-type]
        if games >= OWN_TABLES_FROM
        else nullcontext()
    )
    with collector_paused(), owned:
        _take_events(session, events, pkz, by, counts)
    return counts


#: games from which an import owns the tables it writes (``foreign_keys_checked_at_end``): a
#: federation's history (millions of games) has its keys checked once, at the end, instead of
#: by a trigger per row (which took half the import of a synthetic federation's 244,000 games);
#: meanwhile the service cannot read its tournaments, which is right while a federation moves
#: in and wrong for a season's file taken in beside a running service.
OWN_TABLES_FROM = 100_000


def _take_events(
    session: Session,
    events: Sequence[Tournament | Withdrawal | StartRating],
    pkz: dict[str, int],
    by: str,
    counts: dict[str, int],
) -> None:
    # Consecutive tournaments are submitted together (one lock, one COPY per table for up to
    # ``_BATCH`` of them); a withdrawal or a start rating is taken where it stands, after them.
    batch: list[tuple[str, TournamentSubmission]] = []
    for k, event in enumerate(events):
        if isinstance(event, Tournament):
            batch.append((f"events[{k}]", _submission(event, pkz)))
            if len(batch) == _BATCH:
                _submit(session, batch, by)
                batch = []
            counts["tournaments"] += 1
            continue
        _submit(session, batch, by)
        batch = []
        try:
            _take(session, event, pkz, by, counts)
        except DomainError as error:
            raise refused_at(error, f"events[{k}]") from None
    _submit(session, batch, by)


#: tournaments submitted together at most
_BATCH = 1000


def _submission(event: Tournament, pkz: dict[str, int]) -> TournamentSubmission:
    return TournamentSubmission(
        acronym=event.acronym,
        end_date=event.end_date,
        players=tuple(SubmittedPlayer(pkz[p.pid], p.birth_year, p.member, p.fide_rating) for p in event.players),
        games=tuple(SubmittedGame(pkz[g.white], pkz[g.black], g.result.value) for g in event.games),
        tournament_id=event.id,
    )


def _submit(session: Session, batch: list[tuple[str, TournamentSubmission]], by: str) -> None:
    if batch:
        places, submissions = zip(*batch, strict=True)
        submit_tournaments(session, submissions, by=by, places=places)


def _take(
    session: Session, event: Withdrawal | StartRating, pkz: dict[str, int], by: str, counts: dict[str, int]
) -> None:
    if isinstance(event, Withdrawal):
        withdraw_tournament(session, event.tournament, by=by)
        counts["withdrawals"] += 1
    else:
        set_start_rating(session, pkz[event.pid], event.date, event.rating, event.index, by=by)
        counts["start_ratings"] += 1
