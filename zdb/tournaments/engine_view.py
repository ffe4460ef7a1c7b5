"""The engine's view of stored tournaments, read in bulk for the recalculation.

Participants and games come as integer columns packed per tournament version
(``zdb.grouped_columns``): a from-scratch run reads millions of games with no Python code per
value and no per-tournament queries. Each tournament hands its slices of them to the engine
as they are (``zdb.rating.entries``), each game's players as positions among its participants,
found for all games at once: no tuple per participant or game is built. Player ids are person
numbers as text, one string per person shared by all his tournaments.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
from numpy.typing import NDArray
from sqlalchemy import Integer, and_, case, cast, func, select, tuple_
from sqlalchemy.orm import Session

from zdb.bulk import keys_table
from zdb.db import is_postgres
from zdb.grouped_columns import GroupedColumns, read_grouped_columns
from zdb.rating import Tournament
from zdb.rating.entries import RESULT_ORDER, ColumnarTournament, EntryColumns
from zdb.tournaments.models import GameRow, Participation, TournamentRecord, TournamentVersion

__all__ = ["load_tournaments"]

Ints = NDArray[np.int64]

#: a result's code on the wire is its place in the engine's order
_RESULT_CODE = case(*((GameRow.result == code.value, k) for k, code in enumerate(RESULT_ORDER)), else_=-1)
_ABSENT = -1  # stands for NULL in a packed column (no birth year, no FIDE rating)


def load_tournaments(
    session: Session, versions: Iterable[tuple[int, int]] | None = None
) -> dict[int, tuple[Tournament, int]]:
    """The engine's tournaments for the given (id, version) pairs, or for every tournament
    that is not withdrawn (its current version) when ``versions`` is None."""
    v, p, g, t = TournamentVersion, Participation, GameRow, TournamentRecord
    heads = select(v.tournament_id, v.version, v.acronym, v.end_date)
    participants = select(
        p.tournament_id,
        p.version,
        p.position,
        p.player_pkz,
        func.coalesce(p.birth_year, _ABSENT),
        cast(p.member, Integer),
        func.coalesce(p.fide_rating, _ABSENT),
    )
    games = select(g.tournament_id, g.version, g.seq, g.white_pkz, g.black_pkz, _RESULT_CODE)
    if versions is None:
        # Every current version. Participants and games of all versions are read in primary
        # key order (an index scan in the order the rows were stored, no join) and the groups
        # of older versions are skipped below.
        current = select(t.id, t.current_version).where(t.status != "withdrawn").subquery()
        heads = heads.join(current, and_(v.tournament_id == current.c.id, v.version == current.c.current_version))
    else:
        pairs = sorted(set(versions))
        if not pairs:
            return {}
        if is_postgres(session):
            # The pairs as two arrays, joined to each primary key: one index range per pair.
            chosen = keys_table([v.__table__.c.tournament_id, v.__table__.c.version], pairs)
            chosen_id, chosen_version = chosen.c.tournament_id, chosen.c.version
            heads = heads.join(chosen, and_(v.tournament_id == chosen_id, v.version == chosen_version))
            participants = participants.join(chosen, and_(p.tournament_id == chosen_id, p.version == chosen_version))
            games = games.join(chosen, and_(g.tournament_id == chosen_id, g.version == chosen_version))
        else:  # each pair its own primary-key range (a bitmap OR of index scans)
            heads = heads.where(tuple_(v.tournament_id, v.version).in_(pairs))
            participants = participants.where(tuple_(p.tournament_id, p.version).in_(pairs))
            games = games.where(tuple_(g.tournament_id, g.version).in_(pairs))
    head_rows = session.execute(heads).all()
    wanted = {(row[0], row[1]) for row in head_rows}
    if not wanted:
        return {}
    listed = read_grouped_columns(session, participants, 2, ("int32", "int64", "int32", "int16", "int32"))
    played = read_grouped_columns(session, games, 2, ("int32", "int64", "int64", "int16"))
    _, pkz, birth_year, member, fide_rating = listed.columns
    _, white, black, result = played.columns
    if (result < 0).any():
        raise ValueError("a stored game has a result the engine does not know")
    # A player appears in many tournaments: one id string per person number.
    person_numbers, rank = np.unique(pkz, return_inverse=True)
    pids = list(map(str, person_numbers.tolist()))
    participant_ids = list(map(pids.__getitem__, rank.tolist()))
    listed_at = {key: g for g, key in enumerate(listed.keys)}
    white_at, black_at = _positions(listed, listed_at, played, person_numbers, rank, white=white, black=black)
    has_birth_year, has_fide_rating, is_member = birth_year != _ABSENT, fide_rating != _ABSENT, member != 0
    birth_year, fide_rating, result = birth_year.astype(np.int64), fide_rating.astype(np.int64), result.astype(np.int64)
    played_at = {key: g for g, key in enumerate(played.keys)}
    listed_starts, played_starts = listed.starts.tolist(), played.starts.tolist()
    loaded: dict[int, tuple[Tournament, int]] = {}
    for tid, version, acronym, end_date in head_rows:
        group, games_group = listed_at.get((tid, version)), played_at.get((tid, version))
        a, b = (listed_starts[group], listed_starts[group + 1]) if group is not None else (0, 0)
        c, d = (played_starts[games_group], played_starts[games_group + 1]) if games_group is not None else (0, 0)
        # The schema holds what construction checks: participants' primary key, the games'
        # foreign keys to them and ck_games_not_self.
        entries = EntryColumns(
            tuple(participant_ids[a:b]),
            birth_year[a:b],
            has_birth_year[a:b],
            is_member[a:b],
            fide_rating[a:b],
            has_fide_rating[a:b],
            white_at[c:d],
            black_at[c:d],
            result[c:d],
        )
        loaded[tid] = (ColumnarTournament(tid, acronym, end_date, entries), version)
    return loaded


def _positions(
    listed: GroupedColumns,
    listed_at: dict[tuple[Any, ...], int],
    played: GroupedColumns,
    person_numbers: Ints,
    rank: Ints,
    *,
    white: Ints,
    black: Ints,
) -> tuple[Ints, Ints]:
    """Each game's players as positions among its tournament's participants, found for all
    games by one sorted search: a participant's key is (his group, his person number's rank)."""
    if not len(white):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    groups, people = len(listed.keys), len(person_numbers)
    game_groups = np.array([listed_at.get(key, -1) for key in played.keys], dtype=np.int64)
    if not people or (game_groups < 0).any():
        raise ValueError("a stored game's tournament has no participants")
    keys = np.repeat(np.arange(groups, dtype=np.int64), np.diff(listed.starts)) * people + rank
    order = np.argsort(keys, kind="stable")
    sorted_keys = keys[order]
    group_of_game = np.repeat(game_groups, np.diff(played.starts))
    positions = []
    for player in (white, black):
        ranks = np.minimum(np.searchsorted(person_numbers, player), people - 1)
        wanted = group_of_game * people + ranks
        found = np.minimum(np.searchsorted(sorted_keys, wanted), len(sorted_keys) - 1)
        if not ((person_numbers[ranks] == player) & (sorted_keys[found] == wanted)).all():
            raise ValueError("a stored game names a player who is not its tournament's participant")
        positions.append(order[found] - listed.starts[group_of_game])
    return positions[0], positions[1]
