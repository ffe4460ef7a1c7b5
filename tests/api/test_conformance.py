"""Conformance: time lines taken in through the referee's API as sparse files (person numbers
alone after a person's first file, one file telling his birth year, JSON and TRF mixed), in a
shuffled order with corrections and withdrawals, read back through the API, equal the engine's
from-scratch replay: the replay vector of vectors.json and a small synthetic federation (the
project's generator), on PostgreSQL and on the embedded SQLite file.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace
from random import Random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.api.conformance import Person, Source, check_against_engine, greedy_rounds, submit_through_api
from tests.api.world import NAMES, REPLAY
from tests.db.scenario import differences, recalc
from zdb.app import create_app
from zdb.auth.service import create_token
from zdb.bulk import copy_rows
from zdb.config import Settings
from zdb.db import engine_for, unit_of_work
from zdb.exchange.synthetic import organiser_prefixes, prefix_of
from zdb.federations.models import Club, Federation
from zdb.formats.rating_json import load_replay_request
from zdb.players.service import NewPlayer, create_players
from zdb.rating import Game, ResultCode, Tournament, Withdrawal
from zdb.synthetic import FederationLevel, generate
from zdb.timeline.start_states import set_initial_states

_FLIP = {
    ResultCode.WHITE_WINS: ResultCode.BLACK_WINS,
    ResultCode.BLACK_WINS: ResultCode.DRAW,
    ResultCode.DRAW: ResultCode.WHITE_WINS,
}


def _corrected(event: Tournament, rng: Random) -> Tournament:
    """The same tournament with a few results changed (as a referee corrects a typing error)."""
    games = list(event.games)
    for k in rng.sample(range(len(games)), min(3, len(games))):
        games[k] = Game(games[k].white, games[k].black, _FLIP.get(games[k].result, games[k].result))
    return replace(event, games=tuple(games))


def _shuffled(events: list[Tournament], rng: Random, corrections: int, withdrawals: int) -> list[Any]:
    order: list[Tournament | Withdrawal] = list(events)
    rng.shuffle(order)
    for event in rng.sample(events, corrections):
        first = order.index(event)
        order.insert(rng.randint(first + 1, len(order)), _corrected(event, rng))
    for event in rng.sample(events, withdrawals):
        last = max(k for k, e in enumerate(order) if isinstance(e, Tournament) and e.id == event.id)
        order.insert(rng.randint(last + 1, len(order)), Withdrawal(event.id))
    return order


def _vectors_source() -> Source:
    states, events = load_replay_request({"initial_states": REPLAY["initial_states"], "events": REPLAY["events"]})
    tournaments = [e for e in events if isinstance(e, Tournament)]
    born = {p.pid: p.birth_year for t in tournaments for p in t.players}
    people = {
        pid: Person(pid, surname, given, sex, born[pid], guest=False) for pid, (surname, given, sex) in NAMES.items()
    }
    return Source(
        initial=states,
        people=people,
        submissions=_shuffled(tournaments, Random(17), corrections=2, withdrawals=1),
        rounds={t.id: greedy_rounds(t) for t in tournaments},
        federation=dict.fromkeys((t.id for t in tournaments), "C"),
    )


_WORLD = generate(seed=5, scale=0.002)


def _synthetic_source() -> Source:
    world = _WORLD
    people = {
        p.pid: Person(p.pid, f"{p.last_name} {p.pid[-3:]}", p.first_name, p.sex, p.birth_year, guest=not p.member)
        for p in world.players
    }
    district = organiser_prefixes(world)
    tournaments = [t.event for t in world.tournaments]
    return Source(
        initial=world.initial_states,
        people=people,
        submissions=_shuffled(tournaments, Random(23), corrections=3, withdrawals=2),
        rounds={t.event.id: [r for r, _, _ in t.placed_games()] for t in world.tournaments},
        federation={t.event.id: district.get(t.organiser, t.organiser) for t in world.tournaments},
    )


def _federations(session: object, source_name: str) -> None:
    if source_name == "vectors":
        rows = [("", "Deutscher Schachbund", 0, None), ("C", "Region C", 1, "")]
        clubs: list[tuple[str, str, str]] = []
    else:
        levels = {FederationLevel.NATIONAL: 0, FederationLevel.REGIONAL: 1, FederationLevel.DISTRICT: 2}
        by_code = {f.code: f for f in _WORLD.federations}
        rows = [
            (
                prefix_of(f.code, f.level),
                f.name,
                levels[f.level],
                None if f.parent is None else prefix_of(f.parent, by_code[f.parent].level),
            )
            for f in sorted(_WORLD.federations, key=lambda f: levels[f.level])
        ]
        clubs = [(c.zps, c.name, c.district) for c in _WORLD.clubs]
    copy_rows(session, Federation.__table__, ("prefix", "name", "level", "parent_prefix"), rows)  # type: ignore[arg-type]
    copy_rows(session, Club.__table__, ("code", "name", "federation_prefix"), clubs)  # type: ignore[arg-type]


def _move_in(url: str, source_name: str, source: Source) -> tuple[Mapping[str, int], str]:
    """The federation's starting point: its tree, and the persons of its list with their
    starting ratings (names only: no birth years, which the files will tell)."""
    listed = sorted(source.initial)
    with unit_of_work(engine_for(url)) as session:
        _federations(session, source_name)
        numbers = create_players(
            session,
            [
                NewPlayer(
                    surname=source.people[pid].surname,
                    given_name=source.people[pid].given_name,
                    sex=source.people[pid].sex,
                    guest=source.people[pid].guest,
                    pkz=int(pid) if pid.isdigit() else None,
                )
                for pid in listed
            ],
        )
        pkz = dict(zip(listed, numbers, strict=True))
        set_initial_states(session, {pkz[pid]: source.initial[pid] for pid in listed})
        token = create_token(session, "admin", None, label="conformance").secret
    return pkz, token


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(database_url=database_url, read_pool_size=2), recalculation=False)) as made:
        yield made


@pytest.mark.slow
@pytest.mark.parametrize("source_name", ["vectors", "synthetic"])
def test_sparse_files_in_any_order_end_as_the_engine_replays(
    source_name: str, database_url: str, client: TestClient
) -> None:
    source = _vectors_source() if source_name == "vectors" else _synthetic_source()
    listed, token = _move_in(database_url, source_name, source)
    intake = submit_through_api(client, token, source, seed=7, listed=listed, between=lambda: recalc(database_url))
    assert {"json", "trf"} <= set(intake.formats)
    outcome = recalc(database_url)
    assert outcome.clean
    assert check_against_engine(client, source, intake) > 0
    assert differences(database_url) == []
