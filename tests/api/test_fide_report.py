"""FIDE's report file of a stored tournament: the synthetic federation's tournaments, stored in
the database, are downloaded as TRF16 and as TRF-2026 and read back by ZDB's own reader; what it
reads equals the stored rows (players with their FIDE ids and start ratings, every game with its
round, colours and result, a round without a game as a zero-point bye, the dates; in TRF26 also
the rounds in 142, an individual tournament's byes in the 240 section, a team season's teams in
310 with game points that are their players' points, and not a warning). Without a version the
tournament gets the one it needs (TRF26 from 2025-09-01, FIDE's date, and for every team
season). Only the referee of the tournament's region and staff may download it."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date

import httpx
import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from tests.databases import database_copy
from zdb.app import create_app
from zdb.auth.service import create_token
from zdb.cli import main
from zdb.config import Settings
from zdb.db import engine_for, unit_of_work
from zdb.formats.trf import ByeKind, TrfDocument, iter_byes, iter_games, parse_trf
from zdb.players.models import Player
from zdb.rating import ResultCode
from zdb.tournaments.models import GameRow, Participation, TournamentRecord, TournamentVersion
from zdb.tournaments.standings_queries import stored_games


@dataclass
class Federation:
    url: str
    client: TestClient
    tokens: dict[str, str]

    def report(self, tournament_id: int, token: str | None = "admin", version: str | None = None) -> httpx.Response:
        headers = {} if token is None else {"Authorization": f"Bearer {self.tokens[token]}"}
        params = {} if version is None else {"version": version}
        return self.client.get(f"/api/v1/tournaments/{tournament_id}/fide-report.trf", headers=headers, params=params)


@pytest.fixture(scope="module")
def federation(postgres_server: str, postgres_template: str) -> Iterator[Federation]:
    """The synthetic federation at a small scale, stored (not evaluated: the report needs none)."""
    with database_copy(postgres_server, postgres_template, "zdb_fide") as url:
        result = CliRunner().invoke(main, ["synth", "--scale", "0.003", "--no-recalc", "--database-url", url])
        assert result.exit_code == 0, result.output
        with unit_of_work(engine_for(url)) as session:
            # the region of the first tournament: its referee's scope
            region = session.execute(
                select(TournamentVersion.federation_prefix)
                .where(TournamentVersion.federation_prefix.is_not(None))
                .order_by(TournamentVersion.tournament_id)
                .limit(1)
            ).scalar_one()
            tokens = {
                "admin": create_token(session, "admin", None, label="admin").secret,
                "inside": create_token(session, "referee", region, label="inside").secret,
                "outside": create_token(session, "referee", "X", label="outside").secret,
            }
        with TestClient(create_app(Settings(database_url=url), recalculation=False)) as client:
            yield Federation(url, client, tokens)
        engine_for(url).dispose()


def _stored(url: str, tournament_id: int) -> tuple[TournamentVersion, list[object], list[object]]:
    with unit_of_work(engine_for(url)) as session:
        record = session.get(TournamentRecord, tournament_id)
        assert record is not None
        head = session.get(TournamentVersion, (tournament_id, record.current_version))
        assert head is not None
        session.expunge(head)
        players = session.execute(
            select(Participation.position, Participation.player_pkz, Participation.fide_rating, Player.fide_id)
            .join(Player, Player.pkz == Participation.player_pkz)
            .where(Participation.tournament_id == tournament_id, Participation.version == record.current_version)
            .order_by(Participation.position)
        ).all()
        games = session.execute(
            select(GameRow.round, GameRow.white_pkz, GameRow.black_pkz, GameRow.result).where(
                GameRow.tournament_id == tournament_id, GameRow.version == record.current_version
            )
        ).all()
    return head, list(players), list(games)


def _first_with_federation(url: str) -> int:
    with unit_of_work(engine_for(url)) as session:
        return session.execute(
            select(TournamentVersion.tournament_id)
            .where(TournamentVersion.federation_prefix.is_not(None))
            .order_by(TournamentVersion.tournament_id)
            .limit(1)
        ).scalar_one()


def _tournament_ids(url: str) -> list[int]:
    with unit_of_work(engine_for(url)) as session:
        return list(session.execute(select(TournamentRecord.id).order_by(TournamentRecord.id)).scalars())


@pytest.mark.parametrize("version", ["trf16", "trf26"])
def test_every_synthetic_tournament_reads_back_as_stored(federation: Federation, version: str) -> None:
    ids = _tournament_ids(federation.url)
    assert ids, "the synthetic federation has tournaments"
    seen: Counter[str] = Counter()
    for tournament_id in ids:
        answer = federation.report(tournament_id, version=version)
        assert answer.status_code == 200, answer.text
        doc = parse_trf(answer.content)
        assert doc.ok, (tournament_id, doc.errors)
        head, players, games = _stored(federation.url, tournament_id)
        start_no = {row.player_pkz: row.position + 1 for row in players}
        # the players in start order, with their FIDE ids and the FIDE ratings they started with
        assert [(p.start_no, p.fide_id, p.rating) for p in doc.players] == [
            (row.position + 1, row.fide_id, row.fide_rating or None) for row in players
        ]
        # every game once, by round, colours and result as stored
        assert sorted((g.round, g.white, g.black, g.result.value) for g in iter_games(doc)) == sorted(
            (g.round, start_no[g.white_pkz], start_no[g.black_pkz], g.result) for g in games
        )
        # every round a player has no game in is a zero-point bye
        rounds = max(g.round for g in games)
        played = {(g.round, start_no[pkz]) for g in games for pkz in (g.white_pkz, g.black_pkz)}
        expected_byes = sorted((r, n) for r in range(1, rounds + 1) for n in start_no.values() if (r, n) not in played)
        byes = list(iter_byes(doc))
        seen["byes"] += len(byes)
        seen["forfeits"] += sum(1 for g in games if g.result in ("+-", "-+", "--"))
        seen["games"] += len(games)
        seen[head.kind] += 1
        seen["fide ids"] += sum(1 for p in doc.players if p.fide_id)
        seen["fide ratings"] += sum(1 for p in doc.players if p.rating)
        assert sorted((b.round, b.start_no) for b in byes) == expected_byes
        assert {b.kind for b in byes} <= {ByeKind.ZERO_POINT}
        # points: the stored results, forfeits included
        points: dict[int, float] = defaultdict(float)
        for g in games:
            code = ResultCode(g.result)
            points[start_no[g.white_pkz]] += code.white_points
            points[start_no[g.black_pkz]] += code.black_points
        assert {p.start_no: p.points for p in doc.players} == {n: points[n] for n in start_no.values()}
        # ranked by points first (the tie-breaks only order equal points), from rank 1
        ranked = sorted(doc.players, key=lambda p: p.rank or 0)
        assert ranked[0].rank == 1 and all(p.rank for p in ranked)
        assert [p.points for p in ranked] == sorted((p.points or 0.0 for p in ranked), reverse=True)
        if version == "trf26":
            _trf26_records(doc, rounds, expected_byes, head.kind, seen)
        if head.kind == "team_season" and version == "trf16":
            # the teams are the clubs the league table names (013 holds 32 characters of a name),
            # every player of a club in its team
            with unit_of_work(engine_for(federation.url)) as session:
                clubs = {pkz: name[:32] for pkz, name in stored_games(session, tournament_id)[1].clubs.items()}
            assert sorted(t.name for t in doc.teams) == sorted(set(clubs.values()))
            assert {n: t.name for t in doc.teams for n in t.members} == {
                start_no[int(pkz)]: club for pkz, club in clubs.items()
            }
            seen["teams"] += len(doc.teams)
        elif head.kind != "team_season":
            assert not doc.teams
        assert doc.start_date == head.start_date and doc.end_date == head.end_date
        assert doc.rounds == rounds
        if head.round_dates:
            assert list(doc.round_dates) == [date.fromisoformat(d) for d in head.round_dates[:rounds]]
    # the tournaments tried hold what the report has to carry
    assert seen["byes"] and seen["forfeits"] and seen["fide ids"] and seen["fide ratings"]
    assert seen["individual"] and seen["team_season"] and seen["teams"]
    if version == "trf26":
        assert 0 < seen["240 byes"] < seen["byes"]  # the individual tournaments' byes


def _trf26_records(doc: TrfDocument, rounds: int, byes: list[tuple[int, int]], kind: str, seen: Counter[str]) -> None:
    """What TRF26 adds, against the stored rows: the rounds, the byes listed round by round,
    the initial colour of round 1, the teams of a team season with their points."""
    assert doc.declared_rounds == rounds and doc.header["142"] == (str(rounds),)
    # the file reads without a warning (a 240 id that is no player, or no team, would be one)
    assert not doc.warnings, doc.warnings
    if kind == "team_season":
        assert not doc.bye_records  # a team season's 240 would name teams
    else:
        assert sorted((r.round, n) for r in doc.bye_records for n in r.ids) == byes
        assert {r.kind for r in doc.bye_records} <= {"Z"}
        seen["240 byes"] += len(byes)
    first = min((p for p in doc.players if p.cell(1) and p.cell(1).opponent), key=lambda p: p.start_no)
    assert doc.header["152"] == ((first.cell(1).colour or "").upper(),)
    if kind != "team_season":
        assert not doc.teams and "192" not in doc.header  # the synthetic tournaments are not registered
        return
    assert doc.header["192"] == ("FIDE_TEAM_ROUNDROBIN",)
    assert [t.source for t in doc.teams] == ["310"] * len(doc.teams)
    # every player who played is in one team; a team's game points are its players' points, and
    # the match points of a 2-1-0 league add up to twice the matches
    members = [n for t in doc.teams for n in t.members]
    assert len(members) == len(set(members))
    assert set(members) == {p.start_no for p in doc.players if any(c.opponent for c in p.cells)}
    by_no = {p.start_no: p for p in doc.players}
    for team in doc.teams:
        assert team.game_points == sum(by_no[n].points or 0.0 for n in team.members)
    # ranked by match points, ties by game points
    ranked = sorted(doc.teams, key=lambda t: t.rank or 0)
    assert ranked[0].rank == 1
    assert [t.match_points for t in ranked] == sorted((t.match_points or 0.0 for t in ranked), reverse=True)
    seen["teams"] += len(doc.teams)


def test_each_tournament_gets_the_version_it_needs(federation: Federation) -> None:
    # FIDE applies TRF-2026 from 2025-09-01; a team season needs its 310 records whatever its dates
    chosen: Counter[tuple[str, str]] = Counter()
    for tournament_id in _tournament_ids(federation.url):
        head, _, _ = _stored(federation.url, tournament_id)
        text = federation.report(tournament_id).text
        version = "trf26" if "\r\n142 " in text else "trf16"
        expected = "trf26" if head.kind == "team_season" or head.end_date >= date(2025, 9, 1) else "trf16"
        assert version == expected, (tournament_id, head.kind, head.end_date)
        chosen[head.kind, version] += 1
    assert chosen["individual", "trf16"] and chosen["team_season", "trf26"], chosen
    assert federation.report(_first_with_federation(federation.url), version="trf17").status_code == 422


def test_only_the_region_s_referee_and_staff_download_it(federation: Federation) -> None:
    tournament_id = _first_with_federation(federation.url)
    assert federation.report(tournament_id, None).status_code == 401
    assert federation.report(tournament_id, "outside").status_code == 403
    answer = federation.report(tournament_id, "inside")
    assert answer.status_code == 200
    assert answer.headers["content-disposition"] == f'attachment; filename="zdb-{tournament_id}-fide.trf"'
    assert federation.report(987654321).status_code == 404


def test_games_without_rounds_are_refused_with_a_reason(federation: Federation) -> None:
    tournament_id = _tournament_ids(federation.url)[-1]
    with unit_of_work(engine_for(federation.url)) as session:
        session.execute(update(GameRow).where(GameRow.tournament_id == tournament_id).values(round=None))
    answer = federation.report(tournament_id)
    assert answer.status_code == 422
    assert "no round" in answer.text


def test_two_games_of_a_player_in_one_round_are_refused(federation: Federation) -> None:
    tournament_id = _tournament_ids(federation.url)[-2]
    with unit_of_work(engine_for(federation.url)) as session:
        session.execute(update(GameRow).where(GameRow.tournament_id == tournament_id).values(round=1))
    answer = federation.report(tournament_id)
    assert answer.status_code == 422
    assert "has two games in round 1" in answer.text


def test_a_dated_round_without_games_is_not_reported(federation: Federation) -> None:
    tournament_id = _tournament_ids(federation.url)[-3]
    head, _, games = _stored(federation.url, tournament_id)
    played = max(g.round for g in games)
    dates = [*(head.round_dates or [head.end_date.isoformat()] * played)[:played], head.end_date.isoformat()]
    with unit_of_work(engine_for(federation.url)) as session:
        session.execute(
            update(TournamentVersion)
            .where(TournamentVersion.tournament_id == tournament_id, TournamentVersion.version == head.version)
            .values(round_dates=dates)
        )
    doc = parse_trf(federation.report(tournament_id).content)
    # a round of byes only would read as an unfinished tournament
    assert doc.ok, doc.errors
    assert doc.rounds == played and len(doc.round_dates) == played
