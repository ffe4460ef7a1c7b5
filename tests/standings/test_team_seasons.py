"""Team seasons: TRF team files against their own figures (the real Armstrong Cup 2010-11 team
round robin, FIDE's Grandmommy's Cup sample), a stored season found again in its games, and
hand-computed match points, board points and Berliner Wertung (seed 002)."""

from __future__ import annotations

import json
from collections import defaultdict
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.conftest import SHARED
from tests.standings.round_robins import circle_rounds
from zdb.cli import main
from zdb.formats.trf import TrfDocument, parse_trf
from zdb.formats.trf.finished import is_unfinished
from zdb.rating import InvalidInputError, ResultCode
from zdb.standings import (
    CellKind,
    MatchPoints,
    TeamMatch,
    TeamSeason,
    board_scores,
    dump_team,
    standings_document_from_trf,
    team_grid,
    team_season_from_rows,
    team_season_from_trf,
    team_standings,
)

TRF = SHARED / "data" / "trf"
ARMSTRONG = TRF / "icu-armstrong-cup-2011-team-league-160p.trf"
GRANDMOMMY = TRF / "fide-tec-grandmommys-cup-trf25-249p-team-crlf.trf"
HALF = Fraction(1, 2)

# --- the Armstrong Cup: a real team round robin ----------------------------------------------------

#: points of a cell as the file writes them (TRF16: 1, =, 0; + and - for forfeits)
_CELL_POINTS = {"1": Fraction(1), "=": HALF, "0": Fraction(0), "+": Fraction(1), "-": Fraction(0)}


def _read(path: Path) -> TrfDocument:
    doc = parse_trf(path.read_bytes())
    # A file of a league still running is "not finished" for a submission; its standings are
    # those so far, and no other error may stand.
    assert [p for p in doc.errors if not is_unfinished(p)] == []
    return doc


def _matches_from_cells(doc: TrfDocument) -> dict[tuple[int, frozenset[str]], dict[str, Fraction]]:
    """An independent reading of the raw cells: in each round, the points each team's players
    scored against the players of one other team (a board won without opponent, ``0000 - +``,
    goes to the match the team played that round)."""
    team = {member: t.name for t in doc.teams for member in t.members}
    matches: dict[tuple[int, frozenset[str]], dict[str, Fraction]] = defaultdict(dict)
    opponents: dict[tuple[int, str], str] = {}
    for player in doc.players:
        for cell in player.cells:
            if cell.opponent is not None:
                own, other = team[player.start_no], team[cell.opponent]
                opponents[cell.round, own] = other
                key = (cell.round, frozenset((own, other)))
                matches[key][own] = matches[key].get(own, Fraction(0)) + _CELL_POINTS[cell.result or ""]
    for player in doc.players:
        for cell in player.cells:
            if cell.opponent is None and cell.result == "+":
                own = team[player.start_no]
                key = (cell.round, frozenset((own, opponents[cell.round, own])))
                matches[key][own] = matches[key].get(own, Fraction(0)) + 1
    return matches


def test_armstrong_cup_is_a_team_round_robin_with_the_files_points() -> None:
    doc = _read(ARMSTRONG)
    season = standings_document_from_trf(doc)
    assert isinstance(season, TeamSeason)
    standings = team_standings(season)
    # SOURCES.md: 12 teams, 11 rounds, each team pair meets once
    assert len(standings.rows) == 12 and standings.rounds == 11
    assert len(standings.matches) == 66
    assert len({frozenset((r.match.home, r.match.away)) for r in standings.matches}) == 66
    assert team_grid(standings).cycles == 1
    # every match's board points as the cells say
    expected = _matches_from_cells(doc)
    found = {
        (r.match.round, frozenset((r.match.home, r.match.away))): {
            r.match.home: r.board_points[0],
            r.match.away: r.board_points[1],
        }
        for r in standings.matches
    }
    assert {key: {t: v for t, v in value.items() if v} for key, value in found.items()} == {
        key: {t: v for t, v in value.items() if v} for key, value in expected.items()
    }
    # each team's board points are its players' points column; match points 2-1-0 from the matches
    points = {player.start_no: Fraction(player.points or 0) for player in doc.players}
    match_points: dict[str, int] = defaultdict(int)
    for scores in expected.values():
        assert len(scores) == 2  # every match had a game
        a, b = scores
        match_points[a] += 2 if scores[a] > scores[b] else 1 if scores[a] == scores[b] else 0
        match_points[b] += 2 if scores[b] > scores[a] else 1 if scores[a] == scores[b] else 0
    for t in doc.teams:
        row = standings.row(t.name)
        assert row.board_points == sum((points[m] for m in t.members), Fraction(0)), t.name
        assert row.match_points == match_points[t.name], t.name


def test_armstrong_cup_boards_are_the_players_results() -> None:
    doc = _read(ARMSTRONG)
    standings = team_standings(team_season_from_trf(doc))
    scores = {score.player: score for score in board_scores(standings)}
    for player in doc.players:
        played = [cell for cell in player.cells if cell.opponent is not None or cell.result == "+"]
        score = scores.get(str(player.start_no))
        if not played:
            assert score is None
            continue
        assert score is not None
        assert score.points == Fraction(player.points or 0), player.name
        assert [cell.round for cell in score.cells] == [cell.round for cell in played]
        assert score.games == sum(1 for cell in played if cell.result in ("1", "=", "0"))
    # 0000 - + (six in the file): boards won without an opponent, "kampflos"
    won = [c for s in scores.values() for c in s.cells if c.kind is CellKind.FORFEIT_WIN and c.opponent is None]
    assert len(won) == 6


def test_grandmommys_cup_match_and_game_points_are_the_files() -> None:
    # FIDE TEC's sample: 310 records give every team's match points and game points, with 320 and
    # 240 team byes and 330 forfeited matches ("--": a loss for both).
    doc = _read(GRANDMOMMY)
    standings = team_standings(team_season_from_trf(doc))
    assert len(doc.teams) == 50
    for team in doc.teams:
        row = standings.row(team.name)
        assert (row.match_points, row.board_points) == (team.match_points, Fraction(team.game_points or 0))


def test_team_file_of_teammates_paired_is_refused() -> None:
    # echecsjs' hand-made file puts both players, who play each other, into one team
    with pytest.raises(InvalidInputError, match="same team"):
        team_season_from_trf(_read(TRF / "echecsjs-trf26-team-minimal-2p.trf"))


# --- a stored season, hand-computed ------------------------------------------------------------------

#: Three teams of two boards, one round each free. Home has white on board 1, black on board 2.
#: R1 Alpha-Beta: a1-b1 1-0, b2-a2 ½ (Alpha 1½:½; BW board 1 worth 2, board 2 worth 1: 2½:½).
#: R2 Beta-Gamma: b1-c1 0-1, c2-b2 1-0 (Beta 0:2; BW 0:3).
#: R3 Gamma-Alpha: c1-a1 ½, a2-c2 1-0 (Gamma ½:1½; BW 1:2).
STORED = [
    (1, 1, "a1", "b1", "1-0"),
    (1, 2, "b2", "a2", "1/2-1/2"),
    (2, 1, "b1", "c1", "0-1"),
    (2, 2, "c2", "b2", "1-0"),
    (3, 1, "c1", "a1", "1/2-1/2"),
    (3, 2, "a2", "c2", "1-0"),
]
CLUBS = {"a1": "SK Alpha", "a2": "SK Alpha", "b1": "SC Beta", "b2": "SC Beta", "c1": "SF Gamma"}


def test_stored_season_is_found_again() -> None:
    season = team_season_from_rows(STORED, CLUBS)
    assert season is not None
    standings = team_standings(season)
    rows = [
        (r.rank, r.team, r.matches, r.wins, r.draws, r.losses, r.match_points, r.board_points, r.berliner_wertung)
        for r in standings.rows
    ]
    assert rows == [
        (1, "SK Alpha", 2, 2, 0, 0, 4, Fraction(3), Fraction(9, 2)),
        (2, "SF Gamma", 2, 1, 0, 1, 2, Fraction(5, 2), Fraction(4)),
        (3, "SC Beta", 2, 0, 0, 2, 0, Fraction(1, 2), Fraction(1, 2)),
    ]
    assert [standings.byes(team) for team in ("SK Alpha", "SF Gamma", "SC Beta")] == [(2,), (1,), (3,)]
    assert standings.matches[0].match.lineup == (("a1", "b1"), ("a2", "b2"))
    grid = team_grid(standings)
    own = [[[cell.own for cell in cells] for cells in line] for line in grid.cells]
    assert own == [[[], [HALF * 3], [Fraction(3, 2)]], [[HALF], [], [Fraction(2)]], [[HALF], [Fraction(0)], []]]
    scores = {score.player: (score.main_board, score.points, score.games) for score in board_scores(standings)}
    assert scores == {
        "a1": (1, Fraction(3, 2), 2),
        "a2": (2, Fraction(3, 2), 2),
        "b1": (1, Fraction(0), 2),
        "b2": (2, HALF, 2),
        "c1": (1, Fraction(3, 2), 2),
        "c2": (2, Fraction(1), 2),
    }


def test_stored_games_that_are_no_team_matches() -> None:
    assert team_season_from_rows([(1, None, "a", "b", "1-0")]) is None  # no board
    assert team_season_from_rows([]) is None
    # round 2 puts a1 (black on board 2: home) beside b1 (white on board 1: home), his opponent of round 1
    crossed = [(1, 1, "a1", "b1", "1-0"), (2, 1, "b1", "x1", "1-0"), (2, 2, "x2", "a1", "1-0")]
    assert team_season_from_rows(crossed) is None


def test_unnamed_teams_are_numbered_and_a_clubs_second_team_too() -> None:
    season = team_season_from_rows(STORED, {"a1": "SK", "a2": "SK", "b1": "SK", "b2": "SK"})
    assert season is not None
    assert season.teams == ("SK", "SK 2", "Team 3")


# --- match points when a match is forfeited as a whole (TRF26 330) -----------------------------------


def test_a_double_forfeited_match_is_a_loss_for_both() -> None:
    forfeited = TeamMatch(1, "A", "B", (ResultCode.DOUBLE_FORFEIT,), forfeited=ResultCode.DOUBLE_FORFEIT)
    played = TeamMatch(2, "A", "B", (ResultCode.DRAW,))
    standings = team_standings(TeamSeason(("A", "B"), (forfeited, played), MatchPoints()))
    assert [(r.team, r.wins, r.draws, r.losses, r.match_points) for r in standings.rows] == [
        ("A", 0, 1, 1, 1),
        ("B", 0, 1, 1, 1),
    ]


# --- a generated double round robin season through the command ----------------------------------------


def _double_season(teams: int, boards: int) -> dict[str, Any]:
    """Each pair twice; the home team wins board 1, the rest are drawn: 1½ + ... boards."""
    names = [f"T{k + 1}" for k in range(teams)]
    schedule = circle_rounds(teams)
    schedule += [[(b, a) for a, b in pairs] for pairs in schedule]
    matches = [
        {
            "round": number,
            "home": names[home],
            "away": names[away],
            "boards": ["1-0", *(["1/2-1/2"] * (boards - 1))],
            "lineup": [[f"{names[home]}.{b}", f"{names[away]}.{b}"] for b in range(1, boards + 1)],
        }
        for number, pairs in enumerate(schedule, start=1)
        for home, away in pairs
    ]
    return {"season": {"teams": names, "matches": matches}}


def test_double_round_robin_season_through_the_command(tmp_path: Path) -> None:
    path = tmp_path / "season.json"
    path.write_text(json.dumps(_double_season(4, 4)), encoding="utf-8")
    document = json.loads(CliRunner().invoke(main, ["standings", str(path), "--json"]).output)
    # every team is home three times (won 2½:1½) and away three times (lost): 6 MP, 12 BP each;
    # Berliner Wertung of a home match: 4 + (3 + 2 + 1) / 2 = 7, of an away match 3: 30 each
    assert {(r["match_points"], r["board_points"], r["berliner_wertung"]) for r in document["rows"]} == {(6, 12, 30)}
    assert document["crosstable"]["cycles"] == 2
    cells = document["crosstable"]["cells"]
    for i in range(4):
        for j in range(4):
            if i != j:  # two matches per pair, one won at home and one lost away
                assert sorted(tuple(cell) for cell in cells[i][j]) == [(1.5, 2.5), (2.5, 1.5)]
    assert len(document["players"]) == 16
    assert all(p["board"] == int(p["player"].split(".")[1]) and p["games"] == 6 for p in document["players"])
    table = CliRunner().invoke(main, ["standings", str(path)]).output
    assert "Crosstable" in table and "Players" in table
    grid = table.split("Crosstable\n\n")[1].split("\n\n")[0].splitlines()[2:]
    assert all(line.split().count("2.5/1.5") + line.split().count("1.5/2.5") == 3 for line in grid)


def test_dump_names_the_free_rounds() -> None:
    season = team_season_from_rows(STORED, CLUBS)
    assert season is not None
    document = dump_team(team_standings(season))
    assert {row["team"]: row["byes"] for row in document["rows"]} == {"SK Alpha": [2], "SF Gamma": [1], "SC Beta": [3]}
