"""Reading a time control as referees and pairing programs write it: text in, periods out.

Why a module of its own: the time control arrives as free text (record 122 of a TRF file, a form
field, an API parameter) in many notations, while the rating rule (``zdb.tournaments.validation``,
spec §3) needs base times, increments and moves. Reading is pure and never raises: text that
cannot be read gives ``None`` and the caller says what it accepts.

Notations read (case does not matter):

* PGN ``TimeControl``: periods separated by ``:``, each ``moves/time``, ``time`` or
  ``time+increment`` (``40/5400+30:1800+30``); the increment is always seconds per move.
* Numbers without a unit (PGN, ``90+30``, ``40/120``): a number up to 240 is minutes, one of 600
  or more is seconds (PGN); 241-599 could be either and is not read. So ``90+30`` is 90 minutes
  plus 30 s per move and ``5400+30`` the same in seconds. A PGN blitz control in seconds below
  241 (``180+2``) is read as minutes: rated games need at least an hour, and classical controls
  written in minutes are far more common in referees' files than seconds below four minutes.
* Written out: ``90 min + 30 s``, ``90'+30''``, ``1:30 + 10 from move 1`` (hours:minutes),
  ``2 h``, ``40 moves / 90 min, 30 min + 30 s``, ``90 min/40 moves + 30 min + 30 s``,
  ``90'/40 + 30' + 30''``; German ``Min.``, ``Sek.``, ``Std.``, ``Züge``, ``pro Zug``, ``ab Zug 1``.
* US Chess: ``G/90+30`` (game in 90 minutes, 30 s per move), ``40/120+30/G`` and
  ``40/120, SD/30`` (120 minutes for 40 moves, then 30 minutes for the rest of the game).

A period's increment belongs to that period, except when the text says it applies from move 1
(``from move 1``, ``ab Zug 1``): then every period has it, as in the FIDE standard control
``90 min/40 moves + 30 min + 30 s from move 1``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

__all__ = ["Period", "encoded_time_control", "parse_time_control", "time_control_minutes"]

#: numbers without a unit: up to this many are minutes, from ``_FIRST_SECONDS`` on seconds
_LAST_MINUTES, _FIRST_SECONDS = 240, 600

_PGN_PERIOD = re.compile(r"(?:(\d+)/)?(\d+)(?:\+(\d+))?")
_HOURS_MINUTES = re.compile(r"(?<![\d/])\d{1,2}:[0-5]\d(?!\d)")
_FROM_MOVE_ONE = re.compile(r"\s*(?:from|starting (?:from|at)|ab)\s+(?:the\s+|dem\s+)?(?:move|zug)\s*(?:1|one)\b\.?")
_FILLER = re.compile(
    r"\s*(?:(?:per|pro|je|a|/)\s*(?:move|zug)\b\.?|for the rest(?: of the game)?|rest of the game"
    r"|f(?:ue|ü)r den rest(?: der partie)?|bis (?:zum )?(?:partie)?ende|increment|inkrement|bonus)"
)
_TIME = (
    r"(?P<h>\d{1,2}):(?P<mm>[0-5]\d)\s*(?:h|std)?\.?"
    r"|(?P<hours>\d+)\s*(?:h|std|stunden?|hours?)\b\.?"
    r"|(?P<min>\d+)\s*(?:minuten|minutes?|mins?|min|')\.?"
    r"|(?:g|sd)\s*/\s*(?P<game>\d+)"
    r"|(?P<game2>\d+)\s*/\s*(?:g|sd)\b"
    r"|(?P<bare>\d+)"
)
_MOVES_WORD = r"(?:\s*(?:moves?|z(?:ue|ü)ge?)\b)?"
_SECONDS_WORD = r"\s*(?:seconds?|secs?|sec|sekunden|sek|s|\")?\.?"
_PERIOD = re.compile(
    rf"(?:(?P<moves>\d+){_MOVES_WORD}\s*(?:/|in)\s*)?(?:{_TIME})"
    rf"(?:\s*/\s*(?P<moves2>\d+){_MOVES_WORD})?(?:\s*\+\s*(?P<inc>\d+){_SECONDS_WORD})?"
)
_INCREMENT_ONLY = re.compile(r"\+?\s*(?P<inc>\d+)\s*(?:seconds?|secs?|sec|sekunden|sek|s|\")\.?")
# A "+" starts a new period when a time follows it (not when an increment in seconds does).
_SPLIT = re.compile(
    r"\s*[,;]\s*|\s+(?:and|und|then|dann)\s+"
    r"|\s*\+\s*(?=\d+\s*(?:minuten|minutes?|mins?|min|'|h\b|std|stunden?|hours?)|\d{1,2}:[0-5]\d|\d+\s*/\s*(?:g|sd)\b"
    r"|(?:g|sd)\s*/|\d+\s*(?:moves?|z(?:ue|ü)ge?)\b)"
)


@dataclass(frozen=True, slots=True)
class Period:
    """One period of a time control: base time and increment in seconds, its number of moves
    (None: the rest of the game)."""

    seconds: int
    increment: int = 0
    moves: int | None = None


def parse_time_control(text: str) -> tuple[Period, ...] | None:
    """The periods of ``text`` in any of the module's notations; None when it cannot be read."""
    normal = _normalise(text)
    if not normal:
        return None
    if not _HOURS_MINUTES.search(normal):
        pgn = _pgn(normal)
        if pgn is not None:
            return pgn
    return _written(normal)


def encoded_time_control(periods: Sequence[Period]) -> str:
    """The periods as TRF26 record ``222`` encodes them: ``M/S+I`` per period (``M/`` without a
    move count, ``+I`` without an increment), periods joined by ``:``; ``90 min/40 moves + 30 min
    + 30 s from move 1`` is ``40/5400+30:1800+30``."""
    return ":".join(
        ("" if p.moves is None else f"{p.moves}/") + str(p.seconds) + (f"+{p.increment}" if p.increment else "")
        for p in periods
    )


def time_control_minutes(periods: Sequence[Period]) -> float:
    """spec §3: the sum of all periods' base times + 60 × the per-move increment (the first
    period's increment, the one in force at move 60 in every usual control), in minutes."""
    return sum(p.seconds for p in periods) / 60 + periods[0].increment


def _normalise(text: str) -> str:
    normal = text.strip().lower()
    for quote in "’‘′´`":
        normal = normal.replace(quote, "'")
    return re.sub(r"\s+", " ", normal.replace("″", '"').replace("''", '"'))


def _bare(number: int) -> int | None:
    """Seconds of a number written without a unit (see the module docstring)."""
    if number <= _LAST_MINUTES:
        return number * 60
    if number >= _FIRST_SECONDS:
        return number
    return None


def _moves_first_unclear(moves: str | None, time: str) -> bool:
    """``120/40`` (both without a unit): 120 moves in 40 minutes, or 120 minutes for 40 moves as
    some referees write it? Not read; ``40/120`` (moves first, fewer moves than minutes) is."""
    return moves is not None and int(moves) > int(time)


def _pgn(text: str) -> tuple[Period, ...] | None:
    periods = []
    for part in text.split(":"):
        match = _PGN_PERIOD.fullmatch(part.strip())
        if match is None:
            return None
        seconds = _bare(int(match[2]))
        if seconds is None or seconds == 0 or _moves_first_unclear(match[1], match[2]):
            return None
        periods.append(Period(seconds, int(match[3] or 0), None if match[1] is None else int(match[1])))
    return tuple(periods)


def _written(text: str) -> tuple[Period, ...] | None:
    text, from_move_one = _FROM_MOVE_ONE.subn("", text)
    text = _FILLER.sub("", text).strip(" .")
    periods: list[Period] = []
    for raw in _SPLIT.split(text):
        part = raw.strip(" .")
        if not part:
            continue
        only = _INCREMENT_ONLY.fullmatch(part)
        if only is not None and periods:
            periods[-1] = replace(periods[-1], increment=int(only["inc"]))
            continue
        period = _period(part)
        if period is None:
            return None
        periods.append(period)
    if not periods:
        return None
    if from_move_one:
        increment = max(p.increment for p in periods)
        periods = [replace(p, increment=increment) for p in periods]
    return tuple(periods)


def _period(text: str) -> Period | None:
    match = _PERIOD.fullmatch(text)
    if match is None or (match["moves"] and match["moves2"]):
        return None
    if match["h"] is not None:
        seconds: int | None = (int(match["h"]) * 60 + int(match["mm"])) * 60
    elif match["hours"] is not None:
        seconds = int(match["hours"]) * 3600
    elif match["min"] is not None:
        seconds = int(match["min"]) * 60
    elif match["game"] is not None or match["game2"] is not None:
        seconds = int(match["game"] or match["game2"]) * 60
    else:
        seconds = _bare(int(match["bare"]))
        if _moves_first_unclear(match["moves"], match["bare"]):
            return None
    if not seconds:
        return None
    moves = match["moves"] or match["moves2"]
    if moves is not None and (match["game"] is not None or match["game2"] is not None):
        return None  # "40/G/90": a game period has no number of moves
    return Period(seconds, int(match["inc"] or 0), None if moves is None else int(moves))
