"""The engine's view of stored tournaments, read in bulk for the recalculation.

Participants and games are streamed in primary-key order and grouped as they come, so a
from-scratch run reads millions of games as plain tuples (``zdb.bulk.stream_rows``) with no
ORM rows and no per-tournament lookups. Player ids are person numbers as text, one string
per person shared by all his tournaments.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import groupby, repeat
from operator import itemgetter
from typing import Any

from sqlalchemy import and_, select, tuple_
from sqlalchemy.orm import Session

from zdb.bulk import stream_rows
from zdb.rating import Game, Participant, ResultCode, Tournament
from zdb.tournaments.models import GameRow, Participation, TournamentRecord, TournamentVersion

__all__ = ["load_tournaments"]

_RESULTS = {code.value: code for code in ResultCode}
_WHITE, _BLACK, _RESULT = itemgetter(2), itemgetter(3), itemgetter(4)  # columns of a game row


def load_tournaments(
    session: Session, versions: Iterable[tuple[int, int]] | None = None
) -> dict[int, tuple[Tournament, int]]:
    """The engine's tournaments for the given (id, version) pairs, or for every tournament
    that is not withdrawn (its current version) when ``versions`` is None."""
    v, p, g, t = TournamentVersion, Participation, GameRow, TournamentRecord
    heads = select(v.tournament_id, v.version, v.acronym, v.end_date)
    participants = select(p.tournament_id, p.version, p.player_pkz, p.birth_year, p.member, p.fide_rating)
    games = select(g.tournament_id, g.version, g.white_pkz, g.black_pkz, g.result)
    if versions is None:
        # Every current version. Participants and games of all versions are read in primary
        # key order (an index scan in the order the rows were stored, no join, no sort) and
        # the few rows of older versions are skipped below.
        current = select(t.id, t.current_version).where(t.status != "withdrawn").subquery()
        heads = heads.join(current, and_(v.tournament_id == current.c.id, v.version == current.c.current_version))
    else:
        # Each pair is its own primary-key range (a bitmap OR of index scans). Filtering on
        # the ids alone is planned as a sequential scan once the list is a few dozen long and
        # no statistics tell the planner how few rows each id has.
        pairs = sorted(set(versions))
        if not pairs:
            return {}
        heads = heads.where(tuple_(v.tournament_id, v.version).in_(pairs))
        participants = participants.where(tuple_(p.tournament_id, p.version).in_(pairs))
        games = games.where(tuple_(g.tournament_id, g.version).in_(pairs))
    head_rows = list(stream_rows(session, heads, server_side=False))
    wanted = {(row[0], row[1]) for row in head_rows}
    streamed = versions is None  # millions of rows; a few tournaments come in one round trip

    ids: dict[int, str] = {}  # a player appears in many tournaments: one id string per person
    players: dict[tuple[int, int], list[Participant]] = {}
    participant_rows = stream_rows(
        session, participants.order_by(p.tournament_id, p.version, p.position), server_side=streamed
    )
    for key, rows in _grouped(participant_rows):
        if key not in wanted:
            continue
        listed = players[key] = []
        for _, _, pkz, birth_year, member, fide_rating in rows:
            pid = ids.get(pkz)
            if pid is None:
                pid = ids[pkz] = str(pkz)
            listed.append(Participant(pid, birth_year, bool(member), fide_rating))
    played: dict[tuple[int, int], tuple[Game, ...]] = {}
    pid_of, result_of = ids.__getitem__, _RESULTS.__getitem__
    game_rows = stream_rows(session, games.order_by(g.tournament_id, g.version, g.seq), server_side=streamed)
    for key, rows in _grouped(game_rows):
        if key in wanted:
            # Millions of games: built by C-level maps, no Python code per game.
            chunk = list(rows)
            whites, blacks = map(pid_of, map(_WHITE, chunk)), map(pid_of, map(_BLACK, chunk))
            results = map(result_of, map(_RESULT, chunk))
            played[key] = tuple(map(tuple.__new__, repeat(Game), zip(whites, blacks, results, strict=True)))
    loaded: dict[int, tuple[Tournament, int]] = {}
    for tid, version, acronym, end_date in head_rows:
        key = (tid, version)
        if key in wanted:
            # The schema holds what construction checks: participants' primary key, the games'
            # foreign keys to them and ck_games_not_self.
            tournament = Tournament.checked_before(
                tid, acronym, end_date, tuple(players.get(key, ())), played.get(key, ())
            )
            loaded[tid] = (tournament, version)
    return loaded


def _grouped(rows: Iterable[tuple[Any, ...]]) -> Iterator[tuple[tuple[int, int], Iterator[tuple[Any, ...]]]]:
    """Consecutive rows with the same (tournament id, version) as their first two columns."""
    return groupby(rows, itemgetter(0, 1))
