"""Games and byes of a parsed document, each pairing once, with results as engine codes.

Mapping of the TRF result codes (white's code, black's code) to ``zdb.rating.ResultCode``:

=========  =========  =====  =====================================================
white      black      code   note
=========  =========  =====  =====================================================
``1``      ``0``      1-0    rated
``0``      ``1``      0-1    rated
``=``      ``=``      ½-½    rated
``+``      ``-``      +-     forfeit, not rated
``-``      ``+``      -+     forfeit, not rated
``-``      ``-``      --     double forfeit, not rated
``W``      ``L``      +-     TRF "win, game lasted less than one move", not rated
``L``      ``W``      -+     as above
``D``      ``D``      ½-½    with ``rated=False``: the engine has no unrated draw code
``0``      ``0``      0-0    asymmetric, not rated (the parser warns)
``=``      ``0``      ½-0    asymmetric, not rated (the parser warns)
``0``      ``=``      0-½    asymmetric, not rated (the parser warns)
=========  =========  =====  =====================================================

Cells without an opponent are byes (``ByeKind``); ``0000 - +`` is the pairing-allocated bye of
older tools and, in team events, a board left empty by the other team.
"""

from __future__ import annotations

from collections.abc import Iterator

from zdb.formats.trf.model import ByeKind, TrfBye, TrfDocument, TrfGame, TrfPlayer, TrfRoundCell
from zdb.rating import ResultCode

__all__ = ["ASYMMETRIC", "RESULT_PAIRS", "bye_kind", "iter_byes", "iter_games", "white_and_black"]

RESULT_PAIRS: dict[tuple[str, str], tuple[ResultCode, bool]] = {
    ("1", "0"): (ResultCode.WHITE_WINS, True),
    ("0", "1"): (ResultCode.BLACK_WINS, True),
    ("=", "="): (ResultCode.DRAW, True),
    ("+", "-"): (ResultCode.WHITE_WINS_FORFEIT, False),
    ("-", "+"): (ResultCode.BLACK_WINS_FORFEIT, False),
    ("-", "-"): (ResultCode.DOUBLE_FORFEIT, False),
    ("W", "L"): (ResultCode.WHITE_WINS_FORFEIT, False),
    ("L", "W"): (ResultCode.BLACK_WINS_FORFEIT, False),
    ("D", "D"): (ResultCode.DRAW, False),
    ("0", "0"): (ResultCode.BOTH_LOSE, False),
    ("=", "0"): (ResultCode.WHITE_HALF_BLACK_ZERO, False),
    ("0", "="): (ResultCode.WHITE_ZERO_BLACK_HALF, False),
}
ASYMMETRIC = frozenset({("0", "0"), ("=", "0"), ("0", "=")})

_BYES = {
    "H": ByeKind.HALF_POINT,
    "F": ByeKind.FULL_POINT,
    "U": ByeKind.PAIRING_ALLOCATED,
    "Z": ByeKind.ZERO_POINT,
    "+": ByeKind.PAIRING_PLUS,
    "-": ByeKind.NOT_PAIRED,
    # Game results without an opponent: read by their points (the parser warns).
    "1": ByeKind.FULL_POINT,
    "W": ByeKind.FULL_POINT,
    "=": ByeKind.HALF_POINT,
    "D": ByeKind.HALF_POINT,
    "0": ByeKind.ZERO_POINT,
    "L": ByeKind.ZERO_POINT,
}


def bye_kind(cell: TrfRoundCell) -> ByeKind | None:
    """The kind of bye of a cell without an opponent; None for a cell that names an opponent."""
    if cell.opponent is not None:
        return None
    if cell.result is None:
        # A blank result is a zero-point bye (TRF26); a cell with nothing at all is an absence.
        return ByeKind.ABSENT if cell.blank else ByeKind.ZERO_POINT
    return _BYES.get(cell.result, ByeKind.ZERO_POINT)


def white_and_black(player: TrfPlayer, cell: TrfRoundCell, other: TrfRoundCell) -> tuple[bool, bool] | None:
    """(player has white, colours were given) for a consistent pair; None when both claim one colour."""
    mine = cell.colour if cell.colour in ("w", "b") else None
    theirs = other.colour if other.colour in ("w", "b") else None
    if mine and theirs:
        return (mine == "w", True) if mine != theirs else None
    if mine:
        return mine == "w", True
    if theirs:
        return theirs == "b", True
    return player.start_no < (cell.opponent or 0), False


def iter_games(doc: TrfDocument) -> Iterator[TrfGame]:
    """Every game once, round by round: pairings named consistently from both sides with a result.

    Pairings the parser reported as inconsistent (errors) and games without a result are left out.
    """
    by_no = {p.start_no: p for p in doc.players}
    for round_no in range(1, doc.rounds + 1):
        for player in doc.players:
            cell = player.cell(round_no)
            if cell is None or cell.opponent is None or cell.opponent <= player.start_no:
                continue
            opponent = by_no.get(cell.opponent)
            other = opponent.cell(round_no) if opponent else None
            if opponent is None or other is None or other.opponent != player.start_no:
                continue
            colours = white_and_black(player, cell, other)
            if colours is None or cell.result is None or other.result is None:
                continue
            has_white, known = colours
            white, black = (player, opponent) if has_white else (opponent, player)
            codes = (cell.result, other.result) if has_white else (other.result, cell.result)
            mapped = RESULT_PAIRS.get(codes)
            if mapped is None:
                continue
            yield TrfGame(round_no, white.start_no, black.start_no, mapped[0], mapped[1], codes, known)


def iter_byes(doc: TrfDocument) -> Iterator[TrfBye]:
    """Every round cell without an opponent, round by round (blank cells as ``ByeKind.ABSENT``)."""
    for round_no in range(1, doc.rounds + 1):
        for player in doc.players:
            cell = player.cell(round_no)
            if cell is None or not cell.readable:
                continue
            kind = bye_kind(cell)
            if kind is not None:
                yield TrfBye(round_no, player.start_no, kind, cell.result, player.line)
