"""The tables ``zdb standings`` prints: the standings, a round robin's n×n crosstable or every
round's cells, and a team season's table, matches, team crosstable and player boards.

Why a module of its own: the command reads files in several formats; what it prints is the same
for all of them. Cells use the referees' notation (``zdb.standings.cells.GERMAN``): "spielfrei"
for a bye, "+" and "−" for forfeits, "5w1" for a game; the federation's referees write them so
whatever the language of the rest of the output.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from zdb.cli.tables import format_table
from zdb.standings import (
    GERMAN,
    IndividualStandings,
    IndividualTournament,
    PairingSystem,
    TeamStandings,
    TieBreak,
    board_scores,
    round_cells,
    round_robin_grid,
    team_grid,
)

__all__ = ["individual_table", "team_table"]

_PAIRING_NAMES = {PairingSystem.ROUND_ROBIN: "round robin", PairingSystem.SWISS: "Swiss"}


def _number(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


def individual_table(
    standings: IndividualStandings,
    names: Mapping[str, str] | None = None,
    tournament: IndividualTournament | None = None,
) -> str:
    """The standings; with ``names`` (TRF: start number -> name) a Name column follows; with the
    ``tournament`` the n×n crosstable of a round robin or the round cells of a Swiss one."""
    tie_breaks = list(TieBreak)
    named = ["Name"] if names else []
    header = ["Rank", "Player", *named, "Points", "Games", *(tie_break.value for tie_break in tie_breaks)]
    rows = []
    previous = None
    for row in standings.rows:
        rank = "" if row.rank == previous else str(row.rank)  # a shared rank is printed once
        previous = row.rank
        values = [_number(row.value(tie_break)) for tie_break in tie_breaks]
        name = [names.get(row.player, "")] if names else []
        rows.append([rank, row.player, *name, _number(row.points), str(row.games), *values])
    right = [True, False, *(False for _ in named), True, True, *(True for _ in tie_breaks)]
    title = (
        f"Standings: {_PAIRING_NAMES[standings.pairing_system]}, {len(standings.rows)} players, "
        f"{standings.rounds} rounds; ranked by points, then {', '.join(t.value for t in standings.order) or 'nothing'}"
    )
    text = title + "\n\n" + format_table(header, rows, right)
    if tournament is None:
        return text
    if standings.pairing_system is PairingSystem.ROUND_ROBIN:
        return text + "\n\nCrosstable\n\n" + _grid(tournament, standings)
    return text + "\n\nRounds\n\n" + _rounds(tournament, standings)


def _grid(tournament: IndividualTournament, standings: IndividualStandings) -> str:
    """The n×n table: row player against column player (columns numbered by rank order)."""
    grid = round_robin_grid(tournament, standings)
    header = ["No.", "Player", *(str(k) for k in range(1, len(grid.players) + 1)), "Points"]
    rows = []
    for k, (player, line) in enumerate(zip(grid.players, grid.cells, strict=True), start=1):
        cells = ["×" if j == k - 1 else "".join(GERMAN.score(cell) for cell in games) for j, games in enumerate(line)]
        rows.append([str(k), player, *cells, _number(standings.row(player).points)])
    return format_table(header, rows, [True, False, *(True for _ in grid.players), True])


def _rounds(tournament: IndividualTournament, standings: IndividualStandings) -> str:
    cells = round_cells(tournament)
    header = ["Player", *(str(k) for k in range(1, len(tournament.rounds) + 1)), "Points"]
    rows = [
        [row.player, *(GERMAN.text(cell) for cell in cells[row.player]), _number(row.points)] for row in standings.rows
    ]
    return format_table(header, rows, [False, *(True for _ in tournament.rounds), True])


def team_table(standings: TeamStandings, names: Mapping[str, str] | None = None) -> str:
    """The league table (MP, BP, BW), every match, the team crosstable and each player's boards
    (with ``names``: TRF start number -> name)."""
    header = ["Rank", "Team", "Matches", "W", "D", "L", "MP", "BP", "BW"]
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
                _number(row.berliner_wertung),
            ]
        )
    table = format_table(header, rows, [True, False, True, True, True, True, True, True, True])
    title = (
        f"Season: {len(standings.rows)} teams, {len(standings.matches)} "
        f"{'match' if len(standings.matches) == 1 else 'matches'}; "
        "ranked by match points, then board points; BW: Berliner Wertung"
    )
    parts = [title, table, "Crosstable", _team_grid(standings), "Matches", _matches(standings)]
    players = _players(standings, names or {})
    if players:
        parts += ["Players", players]
    return "\n\n".join(parts)


def _matches(standings: TeamStandings) -> str:
    rows = [
        [
            str(report.match.round),
            report.match.home,
            report.match.away,
            ":".join(_number(value) for value in report.board_points),
            ":".join(_number(value) for value in report.berliner_wertung),
            ":".join(str(value) for value in report.match_points),
            GERMAN.forfeit if report.match.forfeited else "",
        ]
        for report in standings.matches
    ]
    for row in standings.rows:
        rows += [[str(number), row.team, GERMAN.bye, "", "", "", ""] for number in standings.byes(row.team)]
    rows.sort(key=lambda row: int(row[0]))
    return format_table(
        ["Round", "Home", "Away", "Boards", "Berliner Wertung", "MP", ""],
        rows,
        [True, False, False, True, True, True, False],
    )


def _team_grid(standings: TeamStandings) -> str:
    """Teams against teams, each cell the row team's board points ("/" between two matches)."""
    grid = team_grid(standings)
    header = ["No.", "Team", *(str(k) for k in range(1, len(grid.teams) + 1)), "MP", "BP"]
    rows = []
    for k, (team, line) in enumerate(zip(grid.teams, grid.cells, strict=True), start=1):
        cells = [
            "×" if j == k - 1 else "/".join(_number(cell.own) for cell in matches) for j, matches in enumerate(line)
        ]
        row = standings.row(team)
        rows.append([str(k), team, *cells, str(row.match_points), _number(row.board_points)])
    return format_table(header, rows, [True, False, *(True for _ in grid.teams), True, True])


def _players(standings: TeamStandings, names: Mapping[str, str]) -> str:
    scores = board_scores(standings)
    if not scores:
        return ""
    rounds = standings.rounds
    header = ["Team", "Board", "Player", "Name", *(str(k) for k in range(1, rounds + 1)), "Points", "Games"]
    rows = []
    for score in scores:
        by_round = {cell.round: cell for cell in score.cells}
        cells = []
        for number in range(1, rounds + 1):
            cell = by_round.get(number)
            cells.append("" if cell is None else _board_cell(cell.board, cell.kind.value, cell.points))
        rows.append(
            [
                score.team,
                str(score.main_board),
                score.player,
                names.get(score.player, ""),
                *cells,
                _number(score.points),
                str(score.games),
            ]
        )
    return format_table(header, rows, [False, True, False, False, *(True for _ in range(rounds)), True, True])


def _board_cell(board: int, kind: str, points: Fraction) -> str:
    """ "3:1" (board 3, won); forfeits "3:+" / "3:−" (kampflos)."""
    if kind == "forfeit-win":
        return f"{board}:{GERMAN.forfeit_win}"
    if kind == "forfeit-loss":
        return f"{board}:{GERMAN.forfeit_loss}"
    return f"{board}:{ {Fraction(1): '1', Fraction(1, 2): '½', Fraction(0): '0'}[points] }"
