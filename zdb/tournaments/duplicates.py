"""No tournament twice: whether a submission is a tournament already stored, whatever file
format or door it came through.

Why a module of its own: the same tournament reaches ZDB as TRF, as a Swiss-Chess file and as
JSON, through the API and the referee pages; once its players are matched, all of them are the
same facts. A submission is compared with the stored tournaments as those facts:

* **equal** — the same participants, the same start and end dates and the same games
  (person, person, result, round; colours do not matter): refused (409), naming the stored one;
* **sharing most of its games** — at least half of the smaller tournament's games (the same
  two people, the same result, any round) with a stored tournament whose dates overlap: a
  warning naming it, and stored only when the referee confirms (``confirm_duplicate``). Two
  tournaments of one weekend rarely share half their games by chance; a second submission of
  one tournament with a player matched differently or a round missing does.

The canonical content of every tournament stored through a referee's door is kept as a hash
(``tournament_fingerprints``): the equal case is one indexed lookup, and the hash's unique key
keeps two equal submissions sent at the same moment from both being stored (the caller also
holds the tournament-id lock while it checks, so the second waits and is refused by name).
Tournaments taken in by ``zdb import`` or ``zdb synth`` (a history as it is) get no hash; they
are still found by the comparison of games below, which reads the stored games themselves.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date

from sqlalchemy import and_, delete, func, select
from sqlalchemy.orm import Session

from zdb.errors import ConflictError, ValidationProblem
from zdb.messages import Message
from zdb.tournaments.models import GameRow, Participation, TournamentFingerprint, TournamentRecord, TournamentVersion
from zdb.tournaments.service import SubmittedGame, TournamentSubmission

__all__ = [
    "DuplicateNotes",
    "DuplicateTournamentError",
    "StoredTournament",
    "check_duplicates",
    "duplicate_notes",
    "fingerprint",
    "remember_fingerprint",
]

#: a stored tournament sharing at least this share of the smaller one's games is a near duplicate
SHARED_GAMES = 0.5
#: at most this many stored tournaments (those sharing the most players) are compared game by game
CANDIDATES = 10

#: the same game seen from the other side: black's result first
_FLIPPED = {
    "1-0": "0-1",
    "0-1": "1-0",
    "1/2-1/2": "1/2-1/2",
    "+-": "-+",
    "-+": "+-",
    "--": "--",
    "0-0": "0-0",
    "1/2-0": "0-1/2",
    "0-1/2": "1/2-0",
}

_Pairing = tuple[int, int, str]  # lower person number, higher, the lower one's result


class DuplicateTournamentError(ConflictError):
    """A submission refused because it is (or may be) a stored tournament; ``tournament_id``
    names the stored one."""

    def __init__(self, text: Message, tournament_id: int) -> None:
        super().__init__(text)
        self.tournament_id = tournament_id


@dataclass(frozen=True, slots=True)
class StoredTournament:
    """A stored tournament a submission was compared with, and what the two share."""

    id: int
    acronym: str
    name: str
    start_date: date | None
    end_date: date
    shared_games: int
    games: int
    equal: bool

    def label(self) -> Message:
        start = (self.start_date or self.end_date).isoformat()
        return Message(
            "tournament {id} ({acronym} {name!r}, {start} to {end})",
            id=self.id,
            acronym=self.acronym,
            name=self.name,
            start=start,
            end=self.end_date.isoformat(),
        )


def _pairing(white: int, black: int, result: str) -> _Pairing:
    if white < black:
        return (white, black, result)
    return (black, white, _FLIPPED.get(result, result))


def _content(
    players: Iterable[int], start: date | None, end: date, games: Iterable[tuple[int, int, str, int | None]]
) -> tuple[object, ...]:
    """The facts two submissions of one tournament share whatever their format: the people,
    the dates (a missing start date is the end date: a one-day tournament) and the games as
    (person, person, result, round), sorted."""
    rounds = sorted((*_pairing(w, b, r), n or 0) for w, b, r, n in games)
    return (sorted(players), (start or end).isoformat(), end.isoformat(), rounds)


def fingerprint(submission: TournamentSubmission) -> str:
    """The hash of a submission's canonical content (``_content``)."""
    content = _content(
        (p.pkz for p in submission.players),
        submission.start_date,
        submission.end_date,
        ((g.white, g.black, g.result, g.round) for g in submission.games),
    )
    return hashlib.sha256(json.dumps(content, separators=(",", ":")).encode()).hexdigest()


def remember_fingerprint(session: Session, tournament_id: int, submission: TournamentSubmission) -> None:
    """Keep the stored version's fingerprint (a correction replaces the earlier one's)."""
    session.execute(delete(TournamentFingerprint).where(TournamentFingerprint.tournament_id == tournament_id))
    session.add(TournamentFingerprint(tournament_id=tournament_id, fingerprint=fingerprint(submission)))
    session.flush()


def _candidates(session: Session, submission: TournamentSubmission, exclude: int | None) -> list[int]:
    """Live stored tournaments whose dates overlap the submission's and that share at least two
    of its players (one game's worth), those sharing the most first."""
    known = sorted({p.pkz for p in submission.players if p.pkz > 0})
    if len(known) < 2:
        return []
    t, v, p = TournamentRecord, TournamentVersion, Participation
    start = submission.start_date or submission.end_date
    shared = func.count()
    rows = session.execute(
        select(t.id, shared)
        .join(v, and_(v.tournament_id == t.id, v.version == t.current_version))
        .join(p, and_(p.tournament_id == t.id, p.version == t.current_version))
        .where(
            p.player_pkz.in_(known),
            t.status != "withdrawn",
            func.coalesce(v.start_date, v.end_date) <= submission.end_date,
            v.end_date >= start,
            t.id != (exclude or 0),  # ids start at 1
        )
        .group_by(t.id)
        .having(shared >= 2)
        .order_by(shared.desc(), t.id)
        .limit(CANDIDATES)
    ).all()
    return [row.id for row in rows]


def _by_fingerprint(session: Session, submission: TournamentSubmission, exclude: int | None) -> int | None:
    t, f = TournamentRecord, TournamentFingerprint
    return session.execute(
        select(t.id)
        .join(f, f.tournament_id == t.id)
        .where(f.fingerprint == fingerprint(submission), t.status != "withdrawn", t.id != (exclude or 0))
    ).scalar()


def _compare(session: Session, submission: TournamentSubmission, ids: Sequence[int]) -> list[StoredTournament]:
    """Each stored tournament of ``ids`` compared with the submission, game by game."""
    if not ids:
        return []
    t, v, g, p = TournamentRecord, TournamentVersion, GameRow, Participation
    heads = session.execute(
        select(t.id, v.acronym, v.name, v.start_date, v.end_date)
        .join(v, and_(v.tournament_id == t.id, v.version == t.current_version))
        .where(t.id.in_(ids))
    ).all()
    games: dict[int, list[tuple[int, int, str, int | None]]] = {tid: [] for tid in ids}
    for row in session.execute(
        select(g.tournament_id, g.white_pkz, g.black_pkz, g.result, g.round)
        .join(t, and_(t.id == g.tournament_id, t.current_version == g.version))
        .where(g.tournament_id.in_(ids))
    ):
        games[row.tournament_id].append((row.white_pkz, row.black_pkz, row.result, row.round))
    players: dict[int, list[int]] = {tid: [] for tid in ids}
    for person in session.execute(
        select(p.tournament_id, p.player_pkz)
        .join(t, and_(t.id == p.tournament_id, t.current_version == p.version))
        .where(p.tournament_id.in_(ids))
    ):
        players[person.tournament_id].append(person.player_pkz)
    own_games = [(w, b, r, n) for w, b, r, n, _ in map(_game, submission.games)]
    own = _content((q.pkz for q in submission.players), submission.start_date, submission.end_date, own_games)
    own_pairings = Counter(_pairing(w, b, r) for w, b, r, _ in own_games)
    found = []
    for head in heads:
        stored = games[head.id]
        shared = sum((own_pairings & Counter(_pairing(w, b, r) for w, b, r, _ in stored)).values())
        equal = _content(players[head.id], head.start_date, head.end_date, stored) == own
        found.append(
            StoredTournament(
                head.id, head.acronym, head.name, head.start_date, head.end_date, shared, len(stored), equal
            )
        )
    return sorted(found, key=lambda s: (not s.equal, -s.shared_games, s.id))


def _game(game: SubmittedGame) -> tuple[int, int, str, int | None, int | None]:
    return (game.white, game.black, game.result, game.round, game.board)


def _near(found: StoredTournament, games: int) -> bool:
    smaller = min(found.games, games)
    return smaller > 0 and found.shared_games >= SHARED_GAMES * smaller


def _stored_like(session: Session, submission: TournamentSubmission) -> list[StoredTournament]:
    """The stored tournaments equal to the submission or sharing most of its games, the equal
    one first. A correction is never compared with the tournament it corrects."""
    exclude = submission.tournament_id
    ids = _candidates(session, submission, exclude)
    by_hash = _by_fingerprint(session, submission, exclude)
    if by_hash is not None and by_hash not in ids:
        ids.append(by_hash)
    return [s for s in _compare(session, submission, ids) if s.equal or _near(s, len(submission.games))]


def _equal_message(found: StoredTournament) -> Message:
    return Message(
        "{tournament} holds the same players, dates and results: this tournament is stored already",
        tournament=found.label(),
    )


def _near_message(found: StoredTournament, games: int) -> Message:
    return Message(
        "shares {shared} of {games} games with {tournament}, whose dates overlap: is it the same tournament?",
        shared=found.shared_games,
        games=min(games, found.games),
        tournament=found.label(),
    )


def check_duplicates(
    session: Session, submission: TournamentSubmission, *, confirmed: bool
) -> tuple[ValidationProblem, ...]:
    """Refuse a submission equal to a stored tournament, and one sharing most of its games with
    a stored tournament unless ``confirmed``; the warnings a confirmed one is stored with.

    The caller holds the tournament-id lock (``zdb.locks.TOURNAMENT_IDS``), so that a
    submission committed meanwhile is seen here."""
    found = _stored_like(session, submission)
    if not found:
        return ()
    first = found[0]
    if first.equal:
        raise DuplicateTournamentError(
            Message("{problem}; nothing was stored", problem=_equal_message(first)), first.id
        )
    games = len(submission.games)
    if not confirmed:
        raise DuplicateTournamentError(
            Message(
                "{problem} Nothing was stored: if it is another tournament, send it again with "
                "confirm_duplicate=true (on the referee page: tick 'store anyway')",
                problem=_near_message(first, games),
            ),
            first.id,
        )
    return tuple(
        ValidationProblem(
            "confirm_duplicate",
            Message("{problem} Stored as confirmed", problem=_near_message(s, games)),
        )
        for s in found
    )


@dataclass(frozen=True, slots=True)
class DuplicateNotes:
    """What a preview says of the stored tournaments its submission equals or resembles, and
    whether its submission may be confirmed (none equal, some resembling)."""

    warnings: tuple[ValidationProblem, ...]
    confirmable: bool


def duplicate_notes(session: Session, submission: TournamentSubmission) -> DuplicateNotes:
    """What a preview says of the stored tournaments the submission equals or resembles: what
    its submission would be answered with."""
    games = len(submission.games)
    found = _stored_like(session, submission)
    warnings = tuple(
        ValidationProblem(
            "tournament",
            Message("{problem}; its submission would be refused", problem=_equal_message(s))
            if s.equal
            else Message("{problem} Its submission would need confirm_duplicate=true", problem=_near_message(s, games)),
        )
        for s in found
    )
    return DuplicateNotes(warnings, bool(found) and not any(s.equal for s in found))
