"""Use cases on tournaments: submit (a new id, or a correction of a known one), withdraw.

Every change moves the time line's dirty position back to the tournament's place (its old
place too, when a correction moves it) in the caller's transaction. Flushes, never commits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from operator import attrgetter, eq
from typing import NamedTuple

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from zdb.bulk import copy_rows, copy_text
from zdb.errors import ConflictError, DomainError, NotFoundError, ValidationError, ValidationProblem
from zdb.locks import TOURNAMENT_IDS, hold
from zdb.messages import Message
from zdb.rating import Game, InvalidInputError, OrderKey, Participant, ResultCode, Tournament
from zdb.timeline.dirty import mark_dirty
from zdb.tournaments.models import (
    GameRow,
    Participation,
    TournamentFingerprint,
    TournamentRecord,
    TournamentVersion,
)
from zdb.tournaments.submission_lines import GAME_COLUMNS, PARTICIPANT_COLUMNS, game_lines, participant_lines

__all__ = [
    "SubmittedGame",
    "SubmittedPlayer",
    "TournamentSubmission",
    "refused_at",
    "submit_tournaments",
    "withdraw_tournament",
]


@dataclass(frozen=True, slots=True)
class SubmittedPlayer:
    pkz: int
    birth_year: int | None
    member: bool = True
    fide_rating: int | None = None


class SubmittedGame(NamedTuple):
    """A named tuple: a bulk submission builds millions of them (``zdb.exchange.synthetic``
    builds them at C level, with ``tuple.__new__``)."""

    white: int
    black: int
    result: str
    round: int | None = None
    board: int | None = None


@dataclass(frozen=True, slots=True)
class TournamentSubmission:
    acronym: str
    end_date: date
    players: tuple[SubmittedPlayer, ...]
    games: tuple[SubmittedGame, ...]
    name: str = ""
    start_date: date | None = None
    round_dates: tuple[date, ...] = ()
    time_control: str | None = None
    kind: str = "individual"
    federation_prefix: str | None = None
    #: the id to keep: a known id makes this a correction; None gives the next free id
    tournament_id: int | None = None
    extra: dict[str, str] = field(default_factory=dict)

    def engine_view(self, tournament_id: int) -> Tournament:
        """The engine's tournament; raises ``InvalidInputError`` on a duplicate player, an
        unknown player in a game, or a player paired with himself (spec §2)."""
        try:
            results = [ResultCode(g.result) for g in self.games]
        except ValueError as error:
            raise InvalidInputError("games", str(error)) from None
        return Tournament(
            tournament_id,
            self.acronym,
            self.end_date,
            tuple(Participant(str(p.pkz), p.birth_year, p.member, p.fide_rating) for p in self.players),
            tuple(Game(str(g.white), str(g.black), r) for g, r in zip(self.games, results, strict=True)),
        )


def _key(end_date: date, acronym: str, tournament_id: int) -> OrderKey:
    return (end_date, 1, acronym, tournament_id)


_PKZ = attrgetter("pkz")
_WHITE, _BLACK, _RESULT = attrgetter("white"), attrgetter("black"), attrgetter("result")
_RESULTS = frozenset(code.value for code in ResultCode)


def _plainly_valid(submission: TournamentSubmission) -> bool:
    """Whether the players and games are free of every problem ``engine_view`` names (a player
    listed twice, a game naming an unknown player or pairing one with himself, an unknown
    result): checked as sets over columns, a fraction of building the engine's tournament. Where
    this says no, ``engine_view`` finds the problem and names its place."""
    players = set(map(_PKZ, submission.players))
    whites = list(map(_WHITE, submission.games))
    blacks = list(map(_BLACK, submission.games))
    return (
        len(players) == len(submission.players)
        and players.issuperset(whites)
        and players.issuperset(blacks)
        and not any(map(eq, whites, blacks))
        and _RESULTS.issuperset(map(_RESULT, submission.games))
    )


def _validate(submission: TournamentSubmission, tournament_id: int) -> None:
    problems = []
    if len(submission.acronym) != 3:
        problems.append(
            ValidationProblem("acronym", Message("must have 3 characters, got {acronym!r}", acronym=submission.acronym))
        )
    if submission.start_date is not None and submission.start_date > submission.end_date:
        problems.append(ValidationProblem("start_date", Message("lies after the end date")))
    if not _plainly_valid(submission):
        try:
            submission.engine_view(tournament_id)
        except InvalidInputError as error:
            problems.append(ValidationProblem(error.place, error.problem))
    if problems:
        raise ValidationError(problems)


def submit_tournaments(
    session: Session,
    submissions: Sequence[TournamentSubmission],
    *,
    by: str,
    places: Sequence[str] | None = None,
) -> list[tuple[int, int]]:
    """Store submissions (new tournaments or corrections); returns (id, version) of each.

    Validation runs before anything is written: one bad submission refuses the whole batch.
    ``places`` names each submission in its file (``events[7]``): a refusal then names the one
    refused (``refused_at``).
    """
    hold(session, TOURNAMENT_IDS)  # concurrent submitters must not read the same highest id
    # Read under the lock, and lock the corrected tournaments' rows: a correction or a
    # withdrawal committed meanwhile is seen (the next version number, the withdrawn status),
    # never overwritten with what this request read before (a lost update).
    records = {
        r.id: r
        for r in session.execute(
            select(TournamentRecord)
            .where(TournamentRecord.id.in_([s.tournament_id for s in submissions if s.tournament_id is not None]))
            .with_for_update()
            .execution_options(populate_existing=True)
        ).scalars()
    }
    _forget_fingerprints(session, list(records))
    next_id = (session.execute(select(func.max(TournamentRecord.id))).scalar() or 0) + 1
    now = datetime.now(UTC)
    assigned: list[tuple[int, int]] = []
    dirty: list[OrderKey] = []
    created: dict[int, int] = {}  # tournaments new in this batch: their current version
    versions, stored = [], []
    for position, submission in enumerate(submissions):
        tid = submission.tournament_id
        if tid is None:
            tid, next_id = next_id, next_id + 1
        next_id = max(next_id, tid + 1)
        record = records.get(tid)
        try:
            _validate(submission, tid)
            if record is None:
                version = created[tid] = created.get(tid, 0) + 1
            else:
                version = _correct(session, record, dirty)
        except DomainError as error:
            if places is None:
                raise
            raise refused_at(error, places[position]) from None
        assigned.append((tid, version))
        dirty.append(_key(submission.end_date, submission.acronym, tid))
        versions.append(
            (
                tid,
                version,
                submission.acronym,
                submission.name,
                submission.federation_prefix,
                submission.start_date,
                submission.end_date,
                [d.isoformat() for d in submission.round_dates] or None,
                submission.time_control,
                submission.kind,
                by,
                now,
            )
        )
        stored.append((tid, version, submission))
    session.flush()  # the corrected tournaments' records
    copy_rows(
        session,
        TournamentRecord.__table__,  # type: ignore[arg-type]
        ("id", "current_version", "status", "created_by"),
        ((tid, version, "received", by) for tid, version in created.items()),
    )
    copy_rows(
        session,
        TournamentVersion.__table__,  # type: ignore[arg-type]
        (
            "tournament_id",
            "version",
            "acronym",
            "name",
            "federation_prefix",
            "start_date",
            "end_date",
            "round_dates",
            "time_control",
            "kind",
            "submitted_by",
            "submitted_at",
        ),
        versions,
    )
    # Participants before games: outside a bulk load, a game's keys are checked as it is written.
    # Each tournament's lines are sent as soon as they are made: the server stores them while
    # the next are made.
    with copy_text(session, Participation.__tablename__, PARTICIPANT_COLUMNS) as write:
        for tid, version, submission in stored:
            if submission.players:
                write(participant_lines(tid, version, submission.players))
    with copy_text(session, GameRow.__tablename__, GAME_COLUMNS) as write:
        for tid, version, submission in stored:
            if submission.games:
                write(game_lines(tid, version, submission.games))
    mark_dirty(session, dirty)
    return assigned


def refused_at(error: DomainError, place: str) -> DomainError:
    """The same refusal, naming the part of a file it arose at (``events[7]``)."""
    if isinstance(error, ValidationError):
        return ValidationError([ValidationProblem(f"{place}.{p.place}", p.text) for p in error.problems])
    if type(error) in (NotFoundError, ConflictError, DomainError):
        return type(error)(f"{place}: {error}")
    return error


def _correct(session: Session, record: TournamentRecord, dirty: list[OrderKey]) -> int:
    """A known tournament takes a new version (received again); its evaluated version's place
    joins ``dirty``. Returns the new version's number."""
    if record.status == "withdrawn":
        raise ConflictError(f"tournament {record.id} was withdrawn; its id is never reused")
    if record.evaluated_version is not None:
        old = session.get(TournamentVersion, (record.id, record.evaluated_version))
        assert old is not None
        dirty.append(_key(old.end_date, old.acronym, record.id))
    record.current_version += 1
    record.status = "received"
    return record.current_version


def withdraw_tournament(session: Session, tournament_id: int, *, by: str) -> None:
    # Locked and read afresh (the request may have read it before): a correction committed
    # meanwhile is seen, and none can commit until this withdrawal does.
    record = session.get(TournamentRecord, tournament_id, with_for_update=True, populate_existing=True)
    if record is None:
        raise NotFoundError(f"tournament {tournament_id} does not exist")
    if record.status == "withdrawn":
        raise ConflictError(f"tournament {tournament_id} was already withdrawn")
    record.status = "withdrawn"
    record.withdrawn_at = datetime.now(UTC)
    record.withdrawn_by = by
    # The current version's place too: a run in progress may be storing its evaluation now.
    current = session.get(TournamentVersion, (tournament_id, record.current_version))
    assert current is not None
    keys = [_key(current.end_date, current.acronym, tournament_id)]
    if record.evaluated_version is not None:
        old = session.get(TournamentVersion, (tournament_id, record.evaluated_version))
        assert old is not None
        keys.append(_key(old.end_date, old.acronym, tournament_id))
    _forget_fingerprints(session, [tournament_id])
    session.flush()
    mark_dirty(session, keys)


def _forget_fingerprints(session: Session, tournament_ids: list[int]) -> None:
    """A corrected tournament's content changed and a withdrawn one is no longer compared: its
    fingerprint goes (``zdb.tournaments.duplicates``; the referee's door writes the corrected
    version's again), whichever path corrected or withdrew it."""
    if tournament_ids:
        session.execute(delete(TournamentFingerprint).where(TournamentFingerprint.tournament_id.in_(tournament_ids)))
