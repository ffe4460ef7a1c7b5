"""Use cases on tournaments: submit (a new id, or a correction of a known one), withdraw.

Every change moves the time line's dirty position back to the tournament's place (its old
place too, when a correction moves it) in the caller's transaction. Flushes, never commits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from zdb.bulk import copy_rows
from zdb.errors import ConflictError, NotFoundError, ValidationError, ValidationProblem
from zdb.locks import TOURNAMENT_IDS, hold
from zdb.messages import Message
from zdb.rating import Game, InvalidInputError, OrderKey, Participant, ResultCode, Tournament
from zdb.ratings.recalculation.dirty import mark_dirty
from zdb.tournaments.models import GameRow, Participation, TournamentRecord, TournamentVersion

__all__ = ["SubmittedGame", "SubmittedPlayer", "TournamentSubmission", "submit_tournaments", "withdraw_tournament"]


@dataclass(frozen=True, slots=True)
class SubmittedPlayer:
    pkz: int
    birth_year: int | None
    member: bool = True
    fide_rating: int | None = None


@dataclass(frozen=True, slots=True)
class SubmittedGame:
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


def _validate(submission: TournamentSubmission, tournament_id: int) -> None:
    problems = []
    if len(submission.acronym) != 3:
        problems.append(
            ValidationProblem("acronym", Message("must have 3 characters, got {acronym!r}", acronym=submission.acronym))
        )
    if submission.start_date is not None and submission.start_date > submission.end_date:
        problems.append(ValidationProblem("start_date", Message("lies after the end date")))
    try:
        submission.engine_view(tournament_id)
    except InvalidInputError as error:
        problems.append(ValidationProblem(error.place, error.problem))
    if problems:
        raise ValidationError(problems)


def submit_tournaments(
    session: Session, submissions: Sequence[TournamentSubmission], *, by: str
) -> list[tuple[int, int]]:
    """Store submissions (new tournaments or corrections); returns (id, version) of each.

    Validation runs before anything is written: one bad submission refuses the whole batch.
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
    next_id = (session.execute(select(func.max(TournamentRecord.id))).scalar() or 0) + 1
    now = datetime.now(UTC)
    assigned: list[tuple[int, int]] = []
    dirty: list[OrderKey] = []
    versions, participants, games = [], [], []
    for submission in submissions:
        tid = submission.tournament_id
        if tid is None:
            tid, next_id = next_id, next_id + 1
        next_id = max(next_id, tid + 1)
        _validate(submission, tid)
        record = records.get(tid)
        if record is None:
            record = TournamentRecord(id=tid, current_version=1, status="received", created_by=by)
            session.add(record)
            records[tid] = record
        elif record.status == "withdrawn":
            raise ConflictError(f"tournament {tid} was withdrawn; its id is never reused")
        else:
            if record.evaluated_version is not None:
                old = session.get(TournamentVersion, (tid, record.evaluated_version))
                assert old is not None
                dirty.append(_key(old.end_date, old.acronym, tid))
            record.current_version += 1
            record.status = "received"
        version = record.current_version
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
        participants += [
            (tid, version, p.pkz, k, p.birth_year, p.member, p.fide_rating) for k, p in enumerate(submission.players)
        ]
        games += [
            (tid, version, k, g.round, g.board, g.white, g.black, g.result) for k, g in enumerate(submission.games)
        ]
    session.flush()  # tournament records first: the versions refer to them
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
    copy_rows(
        session,
        Participation.__table__,  # type: ignore[arg-type]
        ("tournament_id", "version", "player_pkz", "position", "birth_year", "member", "fide_rating"),
        participants,
    )
    copy_rows(
        session,
        GameRow.__table__,  # type: ignore[arg-type]
        ("tournament_id", "version", "seq", "round", "board", "white_pkz", "black_pkz", "result"),
        games,
    )
    mark_dirty(session, dirty)
    return assigned


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
    session.flush()
    mark_dirty(session, keys)
