"""The tournament page as the tournament was played: a round robin's n×n table (tournament 4 of
the replay vector is a complete round robin of 8) and a stored team season's league table, team
crosstable and individual results, with "spielfrei" / "bye" and "+" / "−" as referees write them."""

from __future__ import annotations

import re
from datetime import date

from fastapi.testclient import TestClient

from tests.api.world import REPLAY, World
from tests.standings.test_team_seasons import STORED
from tests.web.html_text import rows_of as _rows
from zdb.app import create_app
from zdb.config import Settings
from zdb.db import engine_for, unit_of_work
from zdb.players.service import NewPlayer, create_players
from zdb.tournaments.service import SubmittedGame, SubmittedPlayer, TournamentSubmission, submit_tournaments

_OWN = {"1-0": ("1", "0"), "0-1": ("0", "1"), "1/2-1/2": ("½", "½"), "+-": ("+", "−"), "-+": ("−", "+")}


def test_round_robin_page_shows_the_square_table(world: World, pages: TestClient) -> None:
    (event,) = (e for e in REPLAY["events"] if e.get("id") == 4)
    expected: dict[tuple[str, str], str] = {}
    for game in event["games"]:
        white, black = _OWN[game["result"]]
        expected[game["white"], game["black"]] = white
        expected[game["black"], game["white"]] = black
    assert world.get("/tournaments/4/standings").json()["pairing_system"] == "round-robin"  # from the pairings
    html = pages.get("/tournaments/4", params={"lang": "en"}).text
    assert '<option value="round-robin" selected>' in html
    table = html[html.index('id="grid-heading"') :]
    pkzs = re.findall(r'<th scope="row"><a href="/players/(\d+)"', table[: table.index("</tbody>")])
    players = [world.pid[int(pkz)] for pkz in pkzs]
    rows = _rows(html, "grid-heading")
    assert len(rows) == len(players) == 8
    for i, row in enumerate(rows):
        cells = row[2:10]
        assert cells[i] == ""  # the diagonal
        assert [c for j, c in enumerate(cells) if j != i] == [
            expected[players[i], players[j]] for j in range(8) if j != i
        ]


def _submit_season(url: str) -> dict[str, int]:
    names = sorted({p for game in STORED for p in game[2:4]})
    with unit_of_work(engine_for(url)) as session:
        numbers = create_players(session, [NewPlayer(surname=name, given_name="X", birth_year=1980) for name in names])
        pkz = dict(zip(names, numbers, strict=True))
        submission = TournamentSubmission(
            acronym="LIG",
            end_date=date(2026, 3, 1),
            players=tuple(SubmittedPlayer(pkz[name], 1980) for name in names),
            games=tuple(SubmittedGame(pkz[w], pkz[b], result, round=r, board=bd) for r, bd, w, b, result in STORED),
            name="Liga",
            time_control="90 min + 30 s",
            kind="team_season",
            tournament_id=900,
        )
        submit_tournaments(session, [submission], by="test")
    return pkz


def test_team_season_page_and_standings(sqlite_url: str) -> None:
    pkz = _submit_season(sqlite_url)
    client = TestClient(create_app(Settings(database_url=sqlite_url), recalculation=False))
    document = client.get("/api/v1/tournaments/900/standings").json()
    assert document["type"] == "team-season"
    # hand-computed in tests/standings/test_team_seasons.py: no clubs, so teams are numbered
    assert [
        (r["team"], r["match_points"], r["board_points"], r["berliner_wertung"], r["byes"]) for r in document["rows"]
    ] == [
        ("Team 1", 4, 3.0, 4.5, [2]),
        ("Team 3", 2, 2.5, 4.0, [1]),
        ("Team 2", 0, 0.5, 0.5, [3]),
    ]
    german = client.get("/tournaments/900").text
    league = _rows(german, "league-heading")
    assert [(row[1], row[6], row[7], row[8], row[9]) for row in league] == [
        ("Team 1", "4", "3", "4½", "2"),
        ("Team 3", "2", "2½", "4", "1"),
        ("Team 2", "0", "½", "½", "3"),
    ]
    matches = _rows(german, "matches-heading")
    assert ["1", "Team 3", "spielfrei", "", "", "", ""] in matches
    assert ["1", "Team 1", "Team 2", "1½:½", "2½:½", "2:0", ""] in matches
    boards = {row[2]: row for row in _rows(german, "boards-heading")}
    assert boards["a1, X"][1] == "1" and boards["a1, X"][3:6] == ["1:1", "spielfrei", "1:½"]
    assert 'class="data crosstable"' not in german  # no individual crosstable for a league
    english = client.get("/tournaments/900", params={"lang": "en"}).text
    assert ["1", "Team 3", "bye", "", "", "", ""] in _rows(english, "matches-heading")
    assert f'href="/players/{pkz["a1"]}"' in english
