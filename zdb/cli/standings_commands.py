"""``zdb standings FILE``: the standings a referee publishes beside the evaluation.

FILE is a tournament in the vectors' JSON format (optionally with rounds, byes and a tie-break
order, see ``zdb.standings.documents``), a team season (``{"season": ...}``), or a tournament as a
FIDE TRF file or a Swiss-Chess SWT, individual or team (``_trf_standings_input``, the one place
where they plug in: ``zdb.formats.tournament_file`` reads the bytes, ``zdb.standings.from_trf`` and
``from_trf_team`` convert). Tables by default (``standings_tables``), JSON with ``--json``; for TRF
and SWT both name the players beside their start numbers.
"""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import click

from zdb.cli.errors import fail, read_json, reported_input_errors
from zdb.cli.standings_tables import individual_table, team_table
from zdb.formats.tournament_file import is_swt, read_tournament_file
from zdb.formats.trf import TrfDocument
from zdb.rating import InvalidInputError
from zdb.standings import (
    IndividualRequest,
    TeamSeason,
    dump_individual,
    dump_team,
    individual_standings,
    load_document,
    standings_document_from_trf,
    team_standings,
)

__all__ = ["register"]

_FORMATS = ("auto", "json", "trf")


def _read_bytes(file: str, source: str) -> bytes:
    try:
        if file == "-":
            return sys.stdin.buffer.read()
        return Path(file).read_bytes()
    except OSError as error:
        fail(source, f"cannot read the file: {error.strerror or error}")


def _utf8(data: bytes, source: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        fail(source, f"not UTF-8 text ({error.reason} at byte {error.start})")


#: The records that open a TRF file: ``012`` (tournament name) and ``001`` (a player), TRF16 and
#: TRF26; column 4 is blank or the line ends there. No JSON document has such a line.
_TRF_OPENINGS = ("001", "012")


def _looks_like_trf(data: bytes) -> bool:
    """Content sniffing for ``--format auto``: some line starts with ``001`` or ``012``.

    Only ASCII is compared, so Latin-1 decoding reads any 8-bit encoding; UTF-16 (with its BOM)
    is decoded as such, and a UTF-8 BOM is dropped.
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = data.decode("utf-16", errors="replace")
    else:
        text = data.removeprefix(b"\xef\xbb\xbf").decode("latin-1")
    lines = text.lstrip("\ufeff").splitlines()
    return any(line.startswith(_TRF_OPENINGS) and line[3:4] in ("", " ") for line in lines)


def _trf_standings_input(data: bytes) -> tuple[IndividualRequest | TeamSeason, Mapping[str, str]]:
    """The one place where TRF input plugs in: the standings' input and each player's name by id.

    ``read_tournament_file`` decodes the bytes and never raises; ``standings_document_from_trf`` gives a team
    season for a team tournament (``013``/``310`` teams) and raises the readers'
    ``InvalidInputError`` for a document with errors or one the standings do not read (other
    scoring), which the command reports in one line.
    """
    document = read_tournament_file(data)  # TRF, or a Swiss-Chess SWT told by its content
    _refuse_swt(document)
    request = standings_document_from_trf(document)
    return request, {str(player.start_no): player.name for player in document.players}


def _refuse_swt(document: TrfDocument) -> None:
    """An SWT has no lines: its first error is named by record and field ("player 7, Geburtsdatum")."""
    if document.file_format != "SWT" or not document.errors:
        return
    first, more = document.errors[0], len(document.errors) - 1
    place = ", ".join(part for part in (first.place, first.field) if part)
    raise InvalidInputError(
        place, first.message + (f" (and {more} more error{'s' if more > 1 else ''})" if more else "")
    )


@click.command("standings")
@click.argument("file")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@click.option(
    "--format",
    "input_format",
    metavar="FORMAT",
    default="auto",
    help="Input format: auto (TRF for a .trf file or TRF content, SWT for Swiss-Chess content, else JSON), json or "
    "trf (TRF or SWT).",
)
def standings_command(file: str, as_json: bool, input_format: str) -> None:
    """Standings of the tournament or team season in FILE ('-' = stdin).

    A tournament in the vectors' JSON format (games without rounds are read as a round robin;
    give games[k].round, byes and "pairing" for a Swiss tournament; without "pairing" the pairings
    decide), {"season": ...} for a team season, or a tournament as FIDE TRF or Swiss-Chess SWT (team files too).
    Points, rank and the tie-breaks SB, BH, BH-C1, BH-C2, BH-M1 (median) and RBH (refined
    Buchholz), with the n×n crosstable of a round robin or every round's cells; for a season
    match points, board points, the Berliner Wertung, the team crosstable and each player's
    boards.
    """
    if input_format not in _FORMATS:
        fail("--format", f"expected one of {', '.join(_FORMATS)}, got {input_format!r}")
    source = "stdin" if file == "-" else file
    data = _read_bytes(file, source)
    trf = input_format == "trf" or (
        input_format == "auto" and (file.lower().endswith((".trf", ".swt")) or _looks_like_trf(data) or is_swt(data))
    )
    document: Any
    names: Mapping[str, str] = {}
    with reported_input_errors(source):
        loaded: IndividualRequest | TeamSeason
        if trf:
            loaded, names = _trf_standings_input(data)  # the reader decodes: TRF is not always UTF-8
        else:
            loaded = load_document(read_json(io.StringIO(_utf8(data, source)), source))
        if isinstance(loaded, IndividualRequest):
            standings = individual_standings(loaded.tournament, loaded.order)
            document = dump_individual(standings, loaded.tournament)
            if names:
                for row in document["rows"]:
                    row["name"] = names.get(row["player"], "")
            table = individual_table(standings, names, loaded.tournament)
        else:
            season = team_standings(loaded)
            document = dump_team(season)
            for player in document["players"] if names else ():
                player["name"] = names.get(player["player"], "")
            table = team_table(season, names)
    if as_json:
        click.echo(json.dumps(document, ensure_ascii=False, indent=2))
    else:
        click.echo(table)


def register(group: click.Group) -> None:
    group.add_command(standings_command)
