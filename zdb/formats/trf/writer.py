"""Writes a ``TrfDocument`` as FIDE's Tournament Report File, the report a referee sends FIDE
for a rated tournament: TRF16 or TRF-2026 (TRF26).

Why a writer beside the reader: ZDB holds the tournaments a referee submitted, and FIDE wants
them in its own fixed-column file. Writing from the reader's own document type means that what
``parse_trf`` reads, this module can write again, and the round trip can be checked on every file.

Layout (FIDE TRF16, FIDE Handbook C.04 Annex 2; columns 1-based, counted in characters):

* header records ``012`` name, ``022`` city, ``032`` federation, ``042``/``052`` start and end
  (``YYYY/MM/DD``), ``062`` players, ``072`` rated players, ``082`` teams (team events only),
  ``092`` type, ``102`` chief arbiter, ``112`` one line per deputy, ``122`` rate of play,
  ``132`` round dates (``YY/MM/DD`` at columns 92, 102, ...);
* ``001`` player lines: 5-8 start number, 10 sex, 11-13 title (right-aligned), 15-47 name
  ("Surname, Given"), 49-52 FIDE rating, 54-56 federation, 58-68 FIDE id, 70-79 birth date,
  81-84 points, 86-89 rank, and from column 92 ten columns per round: 92-95 opponent
  (``0000`` for none), 97 colour (``w``/``b``/``-``), 99 result;
* ``013`` team lines (name at 5-36, then the members' start numbers, five columns each).

TRF26 keeps all of this (the same header records and player lines, the result codes
``H F U Z`` in the cells) and adds the records of ``writer26.py``: ``142`` to ``362`` in the
header, National Rating Support lines, the ``240`` bye section, ``310`` teams instead of
``013``, ``320`` and ``330`` for the teams' byes and forfeited matches.

Choices: a cell without an opponent whose result is blank is written as the zero-point bye
``0000 - Z`` that the reader takes it for; a completely blank cell (the player was not in the
round) stays blank. In TRF16, ``XXR`` (JaVaFo's round count, ignored by FIDE's programs) is
written only when the document announces more rounds than its cells show, so that an unfinished
event is not read back as a finished one; TRF26 says it with ``142``. Fields longer than their
columns are cut to fit: FIDE's columns are fixed. TRF16 has no place for the National Rating
Support lines and the other TRF26 records, and leaves them out; lines the reader did not
understand are written in neither version.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import Literal, get_args

from zdb.formats.trf.columns import fit, long_date, number, points, static_part
from zdb.formats.trf.model import TrfDocument, TrfPlayer, TrfRoundCell, TrfTeam
from zdb.formats.trf.players import CELL_WIDTH, ROUND_START
from zdb.formats.trf.writer26 import header_26, records_26

__all__ = ["TRF_VERSIONS", "TrfVersion", "write_trf"]

#: the versions of FIDE's report file the writer writes
TrfVersion = Literal["trf16", "trf26"]
TRF_VERSIONS: tuple[TrfVersion, ...] = get_args(TrfVersion)


def write_trf(doc: TrfDocument, version: TrfVersion = "trf16") -> str:
    """The document as TRF16 or TRF26 text, one record a line, each line ended by CR LF (FIDE's
    programs and Windows pairing programs expect it; the reader takes any line ending)."""
    players = [_player_line(p, doc.rounds) for p in doc.players]
    if version == "trf26":
        lines = [*_header(doc), *header_26(doc), *players, *records_26(doc)]
    else:
        lines = [*_header(doc), *players, *_team_lines(doc.teams)]
        if doc.declared_rounds is not None and doc.declared_rounds > doc.rounds:
            lines.append(f"XXR {doc.declared_rounds}")
    return "".join(line.rstrip() + "\r\n" for line in lines)


def _record(code: str, value: str | None) -> list[str]:
    return [f"{code} {value}"] if value else []


def _header(doc: TrfDocument) -> list[str]:
    rated = sum(1 for p in doc.players if p.rating)
    lines = [
        *_record("012", doc.name),
        *_record("022", doc.city),
        *_record("032", doc.federation),
        *_record("042", long_date(doc.start_date)),
        *_record("052", long_date(doc.end_date)),
        f"062 {len(doc.players)}",
        f"072 {rated}",
    ]
    if doc.teams:
        lines.append(f"082 {len(doc.teams)}")
    lines += _record("092", doc.tournament_type)
    lines += _record("102", doc.chief_arbiter)
    lines += [f"112 {deputy}" for deputy in doc.deputy_arbiters]
    lines += _record("122", doc.time_control)
    if any(d is not None for d in doc.round_dates):
        lines.append(_round_dates(doc.round_dates))
    return lines


def _round_dates(dates: Iterable[date | None]) -> str:
    """``132``: each round's date as ``YY/MM/DD`` in its round's columns, unknown dates blank."""
    line = "132".ljust(ROUND_START - 1)
    for value in dates:
        text = "" if value is None else f"{value.year % 100:02d}/{value.month:02d}/{value.day:02d}"
        line += text.ljust(CELL_WIDTH)
    return line


def _birth(player: TrfPlayer) -> str:
    if player.birth_date is not None:
        return long_date(player.birth_date) or ""
    return "" if player.birth_year is None else f"{player.birth_year:04d}"


def _player_line(player: TrfPlayer, rounds: int) -> str:
    static = (
        static_part(
            "001",
            player.start_no,
            sex=player.sex,
            title=player.title,
            name=player.name,
            rating=player.rating,
            origin=player.federation,
            identifier="" if player.fide_id is None else str(player.fide_id),
            birth=_birth(player),
        )
        + " "
        + points(player.points)
        + " "
        + number(player.rank, 4)
    )
    assert len(static) == ROUND_START - 3, "the static part ends at column 89"
    cells = [_cell(player.cell(k)) for k in range(1, rounds + 1)]
    return static + "  " + "".join(cells)


def _cell(cell: TrfRoundCell | None) -> str:
    """One round: ``NNNN c r`` and two blanks."""
    if cell is None or cell.blank:
        return " " * CELL_WIDTH
    if cell.opponent is None:
        # no opponent: a bye, a forfeit without opponent or an absence the referee wrote down
        return f"0000 - {cell.result or 'Z'}  "
    return f"{cell.opponent:4d} {cell.colour or ' '} {cell.result or ' '}  "


def _team_lines(teams: Iterable[TrfTeam]) -> list[str]:
    return ["013 " + fit(team.name, 32) + "".join(f"{m:5d}" for m in team.members) for team in teams]
