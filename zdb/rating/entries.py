"""A tournament's players and games as columns: what the evaluation reads of them.

The evaluation works on arrays (``tournament``): one element per participant, two entries per
game. A tournament submitted by a referee holds ``Participant`` and ``Game`` tuples, and their
columns are made from them when it is evaluated (``EntryColumns.of``). A tournament read back
in bulk from a database arrives as columns already: ``ColumnarTournament`` carries them, so
that the loader and the evaluation never build a tuple per participant and per game; its
``players`` and ``games`` are made from the columns only when someone asks for them (an
explanation, a test), and equal those of the same tournament built from tuples.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from itertools import chain, repeat
from operator import itemgetter
from typing import Final

import numpy as np
from numpy.typing import NDArray

from zdb.rating.columns import read_only, with_gaps
from zdb.rating.model import Game, Participant, PlayerId, ResultCode, Tournament

__all__ = ["RESULT_ORDER", "ColumnarTournament", "EntryColumns", "entries_of", "participant_ids"]

Ints = NDArray[np.int64]
Flags = NDArray[np.bool_]

#: the results in the order of their codes in ``EntryColumns.result``
RESULT_ORDER: Final = tuple(ResultCode)
_RESULT_CODE: Final = {code: k for k, code in enumerate(RESULT_ORDER)}
_PID, _BIRTH_YEAR, _MEMBER, _FIDE_RATING = map(itemgetter, range(4))  # Participant's fields


@dataclass(frozen=True, slots=True, eq=False)
class EntryColumns:
    """Participant ``k`` is ``pids[k]`` with ``birth_year[k]`` (where ``has_birth_year``),
    ``member[k]`` and ``fide_rating[k]`` (where ``has_fide_rating``); game ``g`` is played by
    the participants at ``white[g]`` and ``black[g]`` with the result
    ``RESULT_ORDER[result[g]]``. The arrays are read-only."""

    pids: tuple[PlayerId, ...]
    birth_year: Ints
    has_birth_year: Flags
    member: Flags
    fide_rating: Ints
    has_fide_rating: Flags
    white: Ints
    black: Ints
    result: Ints

    def __post_init__(self) -> None:
        read_only(self)

    @classmethod
    def of(cls, tournament: Tournament) -> EntryColumns:
        """The columns of a tournament's tuples (C-level maps: once per participant and game)."""
        players, games = tournament.players, tournament.games
        size, count = len(players), len(games)
        pids = tuple(map(_PID, players))
        births = np.array(list(map(_BIRTH_YEAR, players)), dtype=float).reshape(size)  # None -> nan
        fide = np.array(list(map(_FIDE_RATING, players)), dtype=float).reshape(size)
        has_birth, has_fide = ~np.isnan(births), ~np.isnan(fide)
        position = dict(zip(pids, range(size), strict=True))
        whites, blacks, results = zip(*games, strict=True) if count else ((), (), ())
        ends = np.fromiter(map(position.__getitem__, chain(whites, blacks)), dtype=np.int64, count=2 * count)
        return cls(
            pids,
            np.where(has_birth, births, 0).astype(np.int64),
            has_birth,
            np.fromiter(map(_MEMBER, players), dtype=bool, count=size),
            np.where(has_fide, fide, 0).astype(np.int64),
            has_fide,
            ends[:count],
            ends[count:],
            np.fromiter(map(_RESULT_CODE.__getitem__, results), dtype=np.int64, count=count),
        )

    def players(self) -> tuple[Participant, ...]:
        columns = zip(
            self.pids,
            with_gaps(self.birth_year, self.has_birth_year),
            self.member.tolist(),
            with_gaps(self.fide_rating, self.has_fide_rating),
            strict=True,
        )
        return tuple(map(tuple.__new__, repeat(Participant), columns))

    def games(self) -> tuple[Game, ...]:
        pids = self.pids
        columns = zip(
            map(pids.__getitem__, self.white.tolist()),
            map(pids.__getitem__, self.black.tolist()),
            map(RESULT_ORDER.__getitem__, self.result.tolist()),
            strict=True,
        )
        return tuple(map(tuple.__new__, repeat(Game), columns))


class ColumnarTournament(Tournament):
    """A tournament whose players and games are ``entries``: read back from a database whose
    constraints hold what ``Tournament``'s construction checks (a player once, games between
    two distinct listed players), so it is not checked again. It equals and hashes as the
    same tournament built from tuples. ``dataclasses.replace`` does not apply to it."""

    __slots__ = ("_games", "_players", "entries")

    entries: EntryColumns
    _players: tuple[Participant, ...] | None
    _games: tuple[Game, ...] | None

    def __init__(self, id: int, acronym: str, end_date: date, entries: EntryColumns) -> None:
        fields = {"id": id, "acronym": acronym, "end_date": end_date, "entries": entries, "_players": None}
        for name, value in {**fields, "_games": None}.items():
            object.__setattr__(self, name, value)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tournament):
            return NotImplemented
        return _fields(self) == _fields(other)

    def __hash__(self) -> int:
        return hash(_fields(self))

    @property  # read-only, as the frozen field it stands for
    def players(self) -> tuple[Participant, ...]:
        players = self._players
        if players is None:
            players = self.entries.players()
            object.__setattr__(self, "_players", players)  # a cache of what the columns hold
        return players

    @property
    def games(self) -> tuple[Game, ...]:
        games = self._games
        if games is None:
            games = self.entries.games()
            object.__setattr__(self, "_games", games)
        return games


def _fields(tournament: Tournament) -> tuple[object, ...]:
    return (tournament.id, tournament.acronym, tournament.end_date, tournament.players, tournament.games)


def entries_of(tournament: Tournament) -> EntryColumns:
    """A tournament's players and games as columns."""
    if isinstance(tournament, ColumnarTournament):
        return tournament.entries
    return EntryColumns.of(tournament)


def participant_ids(tournament: Tournament) -> tuple[PlayerId, ...]:
    """A tournament's players' ids, in its order (no tuples made for a columnar one)."""
    if isinstance(tournament, ColumnarTournament):
        return tournament.entries.pids
    return tuple(map(_PID, tournament.players))
