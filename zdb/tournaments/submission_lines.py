"""A submission's participants and games as COPY text-format lines (``zdb.bulk.copy_text``).

A bulk submission (``zdb synth``, ``zdb import``, a federation's history) writes millions of
games: a line formatted as one f-string costs a fraction of a tuple handed to the driver.
Every value here is a number, a flag or a result code checked against the codes of spec §3
before anything is written: none contains a tab, a newline, a backslash or the word ``None``.
``None`` left by the formatting is replaced by ``\\N`` (NULL) once per tournament; flags are
written ``1``/``0``, which PostgreSQL reads as booleans and SQLite stores as its booleans.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Protocol

__all__ = ["GAME_COLUMNS", "PARTICIPANT_COLUMNS", "game_lines", "participant_lines"]

PARTICIPANT_COLUMNS: Final = (
    "tournament_id",
    "version",
    "player_pkz",
    "position",
    "birth_year",
    "member",
    "fide_rating",
)
GAME_COLUMNS: Final = ("tournament_id", "version", "seq", "round", "board", "white_pkz", "black_pkz", "result")


class _Player(Protocol):
    @property
    def pkz(self) -> int: ...
    @property
    def birth_year(self) -> int | None: ...
    @property
    def member(self) -> bool: ...
    @property
    def fide_rating(self) -> int | None: ...


class _Game(Protocol):
    @property
    def white(self) -> int: ...
    @property
    def black(self) -> int: ...
    @property
    def result(self) -> str: ...
    @property
    def round(self) -> int | None: ...
    @property
    def board(self) -> int | None: ...


def participant_lines(tournament_id: int, version: int, players: Sequence[_Player]) -> str:
    """One line per player, in the order of ``PARTICIPANT_COLUMNS``; his position is his place
    in ``players``."""
    head = f"{tournament_id}\t{version}\t"
    lines = [f"{head}{p.pkz}\t{k}\t{p.birth_year}\t{p.member:d}\t{p.fide_rating}\n" for k, p in enumerate(players)]
    return "".join(lines).replace("None", "\\N")


def game_lines(tournament_id: int, version: int, games: Sequence[_Game]) -> str:
    """One line per game, in the order of ``GAME_COLUMNS``; its sequence number is its place
    in ``games``."""
    head = f"{tournament_id}\t{version}\t"
    lines = [f"{head}{k}\t{g.round}\t{g.board}\t{g.white}\t{g.black}\t{g.result}\n" for k, g in enumerate(games)]
    return "".join(lines).replace("None", "\\N")
