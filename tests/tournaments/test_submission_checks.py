"""A submission's players and games are checked before anything is written, and written as the
referee sent them: the set-based check refuses exactly what the engine's construction refuses
(spec §2: a player listed twice, a game naming an unknown player or pairing one with himself;
spec §3: an unknown result code), at the same place, and the rows written by COPY read back with
their empty fields empty."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import select

from zdb.db import engine_for, unit_of_work
from zdb.errors import ValidationError
from zdb.players.service import NewPlayer, create_players
from zdb.tournaments.models import GameRow, Participation
from zdb.tournaments.service import SubmittedGame, SubmittedPlayer, TournamentSubmission, submit_tournaments


def _submission(players: tuple[int, ...], games: tuple[SubmittedGame, ...]) -> TournamentSubmission:
    return TournamentSubmission(
        acronym="CHK",
        end_date=date(2026, 5, 1),
        players=tuple(SubmittedPlayer(pkz, None) for pkz in players),
        games=games,
    )


A, B, C = 10_000_001, 10_000_002, 10_000_003


@pytest.mark.parametrize(
    ("players", "games", "place", "text"),
    [
        ((A, B, A), (SubmittedGame(A, B, "1-0"),), "players[2].pid", f"player '{A}' is listed twice"),
        ((A, B), (SubmittedGame(A, B, "1-0"), SubmittedGame(C, B, "0-1")), "games[1].white", f"unknown player '{C}'"),
        ((A, B), (SubmittedGame(A, C, "1-0"),), "games[0].black", f"unknown player '{C}'"),
        ((A, B), (SubmittedGame(A, B, "1-0"), SubmittedGame(B, B, "1-0")), "games[1]", "is paired with himself"),
        ((A, B), (SubmittedGame(A, B, "2-0"),), "games", "'2-0' is not a valid ResultCode"),
    ],
)
def test_what_the_engine_refuses_is_refused_at_its_place(
    database_url: str, players: tuple[int, ...], games: tuple[SubmittedGame, ...], place: str, text: str
) -> None:
    with unit_of_work(engine_for(database_url)) as session:
        create_players(session, [NewPlayer(surname=f"P{pkz}", pkz=pkz) for pkz in (A, B, C)])
        with pytest.raises(ValidationError) as refused:
            submit_tournaments(session, [_submission(players, games)], by="test")
    [problem] = refused.value.problems
    assert problem.place == place and text in str(problem.text)


def test_rows_read_back_as_sent(database_url: str) -> None:
    players = (SubmittedPlayer(A, None, True, None), SubmittedPlayer(B, 1990, False, 2105))
    games = (SubmittedGame(A, B, "1/2-1/2"), SubmittedGame(B, A, "+-", round=2, board=1))
    submission = TournamentSubmission(acronym="CHK", end_date=date(2026, 5, 1), players=players, games=games)
    engine = engine_for(database_url)
    with unit_of_work(engine) as session:
        create_players(session, [NewPlayer(surname=f"P{pkz}", pkz=pkz) for pkz in (A, B)])
        [(tid, version)] = submit_tournaments(session, [submission], by="test")
    with engine.connect() as connection:
        stored_players = connection.execute(
            select(Participation.player_pkz, Participation.birth_year, Participation.member, Participation.fide_rating)
            .where(Participation.tournament_id == tid, Participation.version == version)
            .order_by(Participation.position)
        ).all()
        stored_games = connection.execute(
            select(GameRow.white_pkz, GameRow.black_pkz, GameRow.result, GameRow.round, GameRow.board)
            .where(GameRow.tournament_id == tid, GameRow.version == version)
            .order_by(GameRow.seq)
        ).all()
    assert [tuple(row) for row in stored_players] == [(A, None, True, None), (B, 1990, False, 2105)]
    assert [tuple(row) for row in stored_games] == [(A, B, "1/2-1/2", None, None), (B, A, "+-", 2, 1)]
