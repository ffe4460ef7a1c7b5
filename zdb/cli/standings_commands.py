"""``zdb standings FILE``: the standings a referee publishes beside the evaluation.

FILE is a tournament in the vectors' JSON format (optionally with rounds, byes and a tie-break
order, see ``zdb.standings.documents``), a team season (``{"season": ...}``), or a TRF file
once a TRF reader exists (``_trf_standings_input``, the one place where it plugs in). A table
by default, JSON with ``--json``.
"""

from __future__ import annotations

import importlib
import io
import json
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import click

from zdb.cli.errors import fail, read_json, reported_input_errors
from zdb.cli.tables import format_table
from zdb.rating import Tournament
from zdb.standings import (
    IndividualRequest,
    IndividualStandings,
    IndividualTournament,
    PairingSystem,
    TeamSeason,
    TeamStandings,
    TieBreak,
    dump_individual,
    dump_team,
    from_engine_tournament,
    individual_standings,
    load_document,
    team_standings,
)

__all__ = ["register"]

_FORMATS = ("auto", "json", "trf")


def _read_text(file: str, source: str) -> str:
    try:
        if file == "-":
            return sys.stdin.read()
        return Path(file).read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        fail(source, f"not UTF-8 text ({error.reason} at byte {error.start})")
    except OSError as error:
        fail(source, f"cannot read the file: {error.strerror or error}")


def _trf_standings_input(text: str, source: str) -> IndividualRequest:
    """The one place where TRF input plugs in.

    It uses ``zdb.formats.trf.parse_trf(text)`` when that reader is installed: a result that is
    already the standings' input is taken as it is; an engine ``Tournament`` (no rounds) is read
    as a round robin like the JSON format without rounds. Nothing else here knows about TRF.
    """
    try:
        module = importlib.import_module("zdb.formats.trf")
    except ImportError:
        fail(source, "TRF input is not available yet (no TRF reader zdb.formats.trf is installed)")
    parse = getattr(module, "parse_trf", None)
    if not callable(parse):
        fail(source, "TRF input is not available yet (zdb.formats.trf has no parse_trf)")
    try:
        parsed = parse(text)
    except ValueError as error:  # the readers' InvalidInputError is a ValueError
        fail(source, str(error))
    if isinstance(parsed, IndividualRequest):
        return parsed
    if isinstance(parsed, IndividualTournament):
        return IndividualRequest(parsed)
    if isinstance(parsed, Tournament):
        return IndividualRequest(from_engine_tournament(parsed))
    fail(source, f"the TRF reader returned {type(parsed).__name__}, which the standings cannot use")


def _number(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


_PAIRING_NAMES = {PairingSystem.ROUND_ROBIN: "round robin", PairingSystem.SWISS: "Swiss"}


def individual_table(standings: IndividualStandings) -> str:
    tie_breaks = list(TieBreak)
    header = ["Rank", "Player", "Points", "Games", *(tie_break.value for tie_break in tie_breaks)]
    rows = []
    previous = None
    for row in standings.rows:
        rank = "" if row.rank == previous else str(row.rank)  # a shared rank is printed once
        previous = row.rank
        values = [_number(row.value(tie_break)) for tie_break in tie_breaks]
        rows.append([rank, row.player, _number(row.points), str(row.games), *values])
    right = [True, False, True, True, *(True for _ in tie_breaks)]
    title = (
        f"Standings: {_PAIRING_NAMES[standings.pairing_system]}, {len(standings.rows)} players, "
        f"{standings.rounds} rounds; ranked by points, then {', '.join(t.value for t in standings.order) or 'nothing'}"
    )
    return title + "\n\n" + format_table(header, rows, right)


def team_table(standings: TeamStandings) -> str:
    header = ["Rank", "Team", "Matches", "W", "D", "L", "MP", "BP"]
    rows = []
    previous = None
    for row in standings.rows:
        rank = "" if row.rank == previous else str(row.rank)
        previous = row.rank
        rows.append(
            [
                rank,
                row.team,
                str(row.matches),
                str(row.wins),
                str(row.draws),
                str(row.losses),
                str(row.match_points),
                _number(row.board_points),
            ]
        )
    table = format_table(header, rows, [True, False, True, True, True, True, True, True])
    match_rows = [
        [
            str(report.match.round),
            report.match.home,
            report.match.away,
            ":".join(_number(value) for value in report.board_points),
            ":".join(_number(value) for value in report.berliner_wertung),
            ":".join(str(value) for value in report.match_points),
        ]
        for report in standings.matches
    ]
    matches = format_table(
        ["Round", "Home", "Away", "Boards", "Berliner Wertung", "MP"],
        match_rows,
        [True, False, False, True, True, True],
    )
    title = (
        f"Season: {len(standings.rows)} teams, {len(standings.matches)} "
        f"{'match' if len(standings.matches) == 1 else 'matches'}; "
        "ranked by match points, then board points"
    )
    return f"{title}\n\n{table}\n\nMatches\n\n{matches}"


@click.command("standings")
@click.argument("file")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@click.option(
    "--format",
    "input_format",
    metavar="FORMAT",
    default="auto",
    help="Input format: auto (TRF for a .trf file, else JSON), json or trf.",
)
def standings_command(file: str, as_json: bool, input_format: str) -> None:
    """Standings of the tournament or team season in FILE ('-' = stdin).

    A tournament in the vectors' JSON format (games without rounds are read as a round robin;
    give games[k].round, byes and "pairing" for a Swiss tournament), {"season": ...} for a team
    season, or TRF. Points, rank and the tie-breaks SB, BH, BH-C1, BH-C2, BH-M1 (median) and RBH
    (refined Buchholz); for a season match points, board points and each match's Berliner Wertung.
    """
    if input_format not in _FORMATS:
        fail("--format", f"expected one of {', '.join(_FORMATS)}, got {input_format!r}")
    source = "stdin" if file == "-" else file
    text = _read_text(file, source)
    trf = input_format == "trf" or (input_format == "auto" and file.lower().endswith(".trf"))
    document: Any
    with reported_input_errors(source):
        if trf:
            loaded: IndividualRequest | TeamSeason = _trf_standings_input(text, source)
        else:
            loaded = load_document(read_json(io.StringIO(text), source))
        if isinstance(loaded, IndividualRequest):
            standings = individual_standings(loaded.tournament, loaded.order)
            document = dump_individual(standings)
            table = individual_table(standings)
        else:
            season = team_standings(loaded)
            document = dump_team(season)
            table = team_table(season)
    if as_json:
        click.echo(json.dumps(document, ensure_ascii=False, indent=2))
    else:
        click.echo(table)


def register(group: click.Group) -> None:
    group.add_command(standings_command)
