"""All SQL about stored tournaments: their versions, participants and games, and the engine's
view of them (``zdb.rating.Tournament`` with player ids = person numbers as text)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from sqlalchemy import and_, or_, select, tuple_
from sqlalchemy.orm import Session

from zdb.rating import Game, Participant, ResultCode, Tournament
from zdb.tournaments.models import GameRow, Participation, TournamentRecord, TournamentVersion

__all__ = ["PendingTournament", "evaluated_versions_from", "load_tournaments", "pending_tournaments", "version_keys"]

_RESULTS = {code.value: code for code in ResultCode}


@dataclass(frozen=True, slots=True)
class PendingTournament:
    """A tournament whose stored evaluation does not match what was submitted."""

    id: int
    current_version: int
    withdrawn: bool
    evaluated_version: int | None


def pending_tournaments(session: Session) -> list[PendingTournament]:
    """Tournaments not evaluated in their current version, or withdrawn but still evaluated."""
    t = TournamentRecord
    rows = session.execute(
        select(t.id, t.current_version, t.status, t.evaluated_version).where(
            or_(
                and_(
                    t.status != "withdrawn",
                    or_(t.evaluated_version.is_(None), t.evaluated_version != t.current_version),
                ),
                and_(t.status == "withdrawn", t.evaluated_version.is_not(None)),
            )
        )
    ).all()
    return [PendingTournament(r.id, r.current_version, r.status == "withdrawn", r.evaluated_version) for r in rows]


def evaluated_versions_from(session: Session, start: tuple[date, int, str, int]) -> list[tuple[int, int]]:
    """(id, evaluated version) of the evaluated tournaments from the order key ``start`` on,
    in order (what the stored time line holds there)."""
    v, t = TournamentVersion, TournamentRecord
    rows = session.execute(
        select(t.id, t.evaluated_version)
        .join(v, and_(v.tournament_id == t.id, v.version == t.evaluated_version))
        .where(tuple_(v.end_date, v.acronym, v.tournament_id) >= (start[0], start[2], start[3]))
        .order_by(v.end_date, v.acronym, v.tournament_id)
    ).all()
    return [(r.id, r.evaluated_version) for r in rows]


def version_keys(session: Session, versions: Iterable[tuple[int, int]]) -> dict[tuple[int, int], tuple[date, str]]:
    """(end_date, acronym) of the given (tournament id, version) pairs."""
    wanted = list(versions)
    if not wanted:
        return {}
    v = TournamentVersion
    rows = session.execute(
        select(v.tournament_id, v.version, v.end_date, v.acronym).where(tuple_(v.tournament_id, v.version).in_(wanted))
    ).all()
    return {(r.tournament_id, r.version): (r.end_date, r.acronym) for r in rows}


def load_tournaments(
    session: Session, versions: Iterable[tuple[int, int]] | None = None
) -> dict[int, tuple[Tournament, int]]:
    """The engine's tournaments for the given (id, version) pairs, or for every tournament
    that is not withdrawn (its current version) when ``versions`` is None."""
    v, p, g, t = TournamentVersion, Participation, GameRow, TournamentRecord
    if versions is None:
        current = select(t.id, t.current_version).where(t.status != "withdrawn").subquery()
        join_on = and_(v.tournament_id == current.c.id, v.version == current.c.current_version)
        heads = session.execute(select(v.tournament_id, v.version, v.acronym, v.end_date).join(current, join_on)).all()
    else:
        wanted = list(versions)
        if not wanted:
            return {}
        heads = session.execute(
            select(v.tournament_id, v.version, v.acronym, v.end_date).where(
                tuple_(v.tournament_id, v.version).in_(wanted)
            )
        ).all()
    chosen = {(h.tournament_id, h.version) for h in heads}
    participant_query = select(p.tournament_id, p.player_pkz, p.birth_year, p.member, p.fide_rating).order_by(
        p.tournament_id, p.version, p.position
    )
    game_query = select(g.tournament_id, g.white_pkz, g.black_pkz, g.result).order_by(g.tournament_id, g.version, g.seq)
    if versions is None:  # every current version: filtered by a join, not row by row here
        participant_query = participant_query.join(
            current, and_(p.tournament_id == current.c.id, p.version == current.c.current_version)
        )
        game_query = game_query.join(
            current, and_(g.tournament_id == current.c.id, g.version == current.c.current_version)
        )
    elif len(chosen) == 1:  # the incremental replay loads one at a time: plain primary-key prefixes
        ((tid, version),) = chosen
        participant_query = participant_query.where(p.tournament_id == tid, p.version == version)
        game_query = game_query.where(g.tournament_id == tid, g.version == version)
    else:
        participant_query = participant_query.where(tuple_(p.tournament_id, p.version).in_(chosen))
        game_query = game_query.where(tuple_(g.tournament_id, g.version).in_(chosen))
    # A player appears in many tournaments: one id string per person number.
    ids: dict[int, str] = {}
    players: dict[int, list[Participant]] = defaultdict(list)
    for tid, pkz, birth_year, member, fide_rating in session.execute(participant_query):
        pid = ids.setdefault(pkz, str(pkz))
        players[tid].append(Participant(pid, birth_year, member, fide_rating))
    games: dict[int, list[Game]] = defaultdict(list)
    results = _RESULTS
    if versions is None:  # millions of rows: streamed from a server-side cursor
        game_query = game_query.execution_options(yield_per=100_000)
    for tid, white, black, result in session.execute(game_query):
        games[tid].append(Game(ids[white], ids[black], results[result]))
    return {
        h.tournament_id: (
            Tournament(
                h.tournament_id, h.acronym, h.end_date, tuple(players[h.tournament_id]), tuple(games[h.tournament_id])
            ),
            h.version,
        )
        for h in heads
    }
