"""The engine's view of stored tournaments, read in bulk for the recalculation.

Participants and games come as integer columns packed per tournament version
(``zdb.grouped_columns``): a from-scratch run reads millions of games with no Python code per
value and no per-tournament queries. The engine's tuples are then built by C-level maps over
whole columns. Player ids are person numbers as text, one string per person shared by all his
tournaments.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import repeat
from typing import Any

import numpy as np
from numpy.typing import NDArray
from sqlalchemy import Integer, and_, case, cast, func, select, tuple_
from sqlalchemy.orm import Session

from zdb.bulk import keys_table
from zdb.grouped_columns import read_grouped_columns
from zdb.rating import Game, Participant, ResultCode, Tournament
from zdb.tournaments.models import GameRow, Participation, TournamentRecord, TournamentVersion

__all__ = ["load_tournaments"]

_RESULTS = list(ResultCode)  # a result's code on the wire is its place here
_RESULT_CODE = case(*((GameRow.result == code.value, k) for k, code in enumerate(_RESULTS)), else_=-1)
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
        if session.get_bind().dialect.name == "postgresql":
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
    person_numbers = np.unique(pkz).tolist()
    pid_of = dict(zip(person_numbers, map(str, person_numbers), strict=True)).__getitem__
    people = list(
        map(
            tuple.__new__,
            repeat(Participant),
            zip(
                map(pid_of, pkz.tolist()),
                _with_none(birth_year),
                (member != 0).tolist(),
                _with_none(fide_rating),
                strict=True,
            ),
        )
    )
    pairings = list(
        map(
            tuple.__new__,
            repeat(Game),
            zip(
                map(pid_of, white.tolist()),
                map(pid_of, black.tolist()),
                map(_RESULTS.__getitem__, result.tolist()),
                strict=True,
            ),
        )
    )
    players_of = _slices(listed.keys, listed.starts.tolist(), people, wanted)
    games_of = _slices(played.keys, played.starts.tolist(), pairings, wanted)
    loaded: dict[int, tuple[Tournament, int]] = {}
    for tid, version, acronym, end_date in head_rows:
        key = (tid, version)
        # The schema holds what construction checks: participants' primary key, the games'
        # foreign keys to them and ck_games_not_self.
        tournament = Tournament.checked_before(tid, acronym, end_date, players_of.get(key, ()), games_of.get(key, ()))
        loaded[tid] = (tournament, version)
    return loaded


def _with_none(column: NDArray[Any]) -> list[int | None]:
    values: list[int | None] = column.tolist()
    for k in np.flatnonzero(column == _ABSENT).tolist():
        values[k] = None
    return values


def _slices(
    keys: list[tuple[Any, ...]], starts: list[int], items: list[Any], wanted: set[tuple[int, int]]
) -> dict[tuple[int, int], tuple[Any, ...]]:
    """Each wanted group's items as a tuple."""
    return {(key[0], key[1]): tuple(items[starts[g] : starts[g + 1]]) for g, key in enumerate(keys) if key in wanted}
