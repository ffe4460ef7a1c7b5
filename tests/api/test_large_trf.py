"""A 300-player, nine-round Swiss tournament uploaded as TRF16 by a referee, on both databases.

The file is written here: three players of the API tests' world (``tests/api/world.py``), found
by club and membership number, person number and FIDE id, and 297 newcomers, some with ``GER``
lines (a DWZ and a new membership of a club), some with a FIDE id, the rest with the ``001`` line
only. Known answers come from the reader (``zdb.formats.trf``) and the from-scratch
verification (``zdb.recalculation.verify``), never from numbers written here. The upload time is
printed as information only.
"""

from __future__ import annotations

import random
import time
from datetime import date, timedelta

import pytest
from sqlalchemy import func, select

from tests.api.world import World, build_world
from tests.db.scenario import differences, recalc
from tests.formats.test_trf_problems import Cell, player_line
from zdb.db import engine_for, unit_of_work
from zdb.formats.trf import iter_games, parse_trf
from zdb.players.models import Membership
from zdb.tournaments.models import GameRow

PLAYERS, ROUNDS = 300, 9
START = date(2026, 11, 1)
CLUB = "C0327"
#: (white's code, black's code) of a decisive game or a draw
WHITE_WINS, BLACK_WINS, DRAW = ("1", "0"), ("0", "1"), ("=", "=")


@pytest.fixture
def fresh(database_url: str) -> World:
    """The world in this test's own database, its pending tournament evaluated."""
    made = build_world(database_url)
    recalc(database_url)
    return made


def _pairings(ratings: dict[int, int], rng: random.Random) -> dict[int, list[Cell]]:
    """Nine Swiss rounds: players sorted by score and rating, each paired with the next one it has
    not met (a rematch only if nothing else is left), colours by the balance so far."""
    cells: dict[int, list[Cell]] = {no: [] for no in ratings}
    score = dict.fromkeys(ratings, 0.0)
    met: dict[int, set[int]] = {no: set() for no in ratings}
    balance = dict.fromkeys(ratings, 0)
    for _ in range(ROUNDS):
        waiting = sorted(ratings, key=lambda no: (-score[no], -ratings[no], no))
        while waiting:
            first = waiting.pop(0)
            second = next((no for no in waiting if no not in met[first]), waiting[0])
            waiting.remove(second)
            white, black = (first, second) if balance[first] <= balance[second] else (second, first)
            expected = 1 / (1 + 10 ** ((ratings[black] - ratings[white]) / 400))
            draw = rng.random()
            codes = DRAW if draw < 0.3 else WHITE_WINS if draw < 0.3 + 0.7 * expected else BLACK_WINS
            cells[white].append((black, "w", codes[0]))
            cells[black].append((white, "b", codes[1]))
            score[white] += {"1": 1.0, "=": 0.5, "0": 0.0}[codes[0]]
            score[black] += {"1": 1.0, "=": 0.5, "0": 0.0}[codes[1]]
            met[white].add(black)
            met[black].add(white)
            balance[white] += 1
            balance[black] -= 1
    return cells


def _german_line(no: int, *, sex: str, name: str, dwz: int, national: str, birth: str) -> str:
    """A ``GER`` NRS line: the static part of a ``001`` line with the DWZ in 49-52 and the national
    number (ZPS-membership number or person number) in 58-68."""
    return f"GER {no:>4} {sex:1}{'':>3} {name:<33} {dwz:>4} {'':<3} {national:>11} {birth:<10}".rstrip()


def _big_trf(world: World) -> tuple[str, dict[int, str]]:
    """The file, and how each start number is to be found: "member", "pkz", "fide" or "new"."""
    rng = random.Random(PLAYERS)
    known = {
        1: ("w", "Mueller, Anna", "", f"{CLUB}-1", "1980/05/17", "member"),
        2: ("m", "Mueller, Bernd", "", str(world.pkz["B"]), "", "pkz"),
        3: ("w", "Muller, Carla", "4600003", None, "", "fide"),
    }
    ratings = {no: rng.randint(1000, 2400) for no in range(1, PLAYERS + 1)}
    cells = _pairings(ratings, rng)
    points = {no: sum({"1": 1.0, "=": 0.5, "0": 0.0}[c[2]] for c in cells[no]) for no in cells}
    rounds = [(START + timedelta(days=k)).strftime("%y/%m/%d") for k in range(ROUNDS)]
    lines = [
        "012 Herbst-Open Musterstadt",
        "022 Musterstadt",
        f"042 {START:%Y/%m/%d}",
        f"052 {START + timedelta(days=ROUNDS - 1):%Y/%m/%d}",
        f"062 {PLAYERS}",
        "122 90 min + 30 s",
        f"XXR {ROUNDS}",
        (f"132{'':<88}" + "".join(f"{d:<10}" for d in rounds)).rstrip(),
    ]
    how: dict[int, str] = {}
    for no in range(1, PLAYERS + 1):
        if no in known:
            sex, name, fide, national, birth, how[no] = known[no]
        else:
            sex = "m" if no % 2 else "w"
            name = f"Spieler{no:03d}, {'Max' if sex == 'm' else 'Eva'}"
            birth = f"{1950 + no % 60}/{1 + no % 12:02d}/{1 + no % 28:02d}"
            fide = str(4_700_000 + no) if no % 5 == 0 else ""
            national = f"{CLUB}-{1000 + no}" if no % 3 == 0 else None
            how[no] = "new"
        rating = ratings[no] if fide else ""
        lines.append(
            player_line(
                no, name, cells[no], sex=sex, rating=rating, fed="GER", fide=fide, birth=birth, points=points[no]
            )
        )
        if national is not None:
            lines.append(_german_line(no, sex=sex, name=name, dwz=ratings[no], national=national, birth=birth))
    return "\n".join(lines) + "\n", how


def test_300_player_trf_is_stored_and_evaluated(fresh: World) -> None:
    text, how = _big_trf(fresh)
    document = parse_trf(text)
    assert (document.errors, document.warnings) == ((), ())
    assert len(document.players) == PLAYERS
    games = list(iter_games(document))
    assert len(games) == PLAYERS // 2 * ROUNDS

    started = time.perf_counter()
    answer = fresh.client.post(
        "/api/v1/tournaments/trf",
        params={"acronym": "BIG", "federation": "C03"},
        content=text.encode(),
        headers={"Authorization": f"Bearer {fresh.tokens['referee_c']}", "Content-Type": "text/plain; charset=utf-8"},
    )
    elapsed = time.perf_counter() - started
    backend = "sqlite" if fresh.url.startswith("sqlite") else "postgresql"
    print(f"\n300-player TRF upload on {backend}: {elapsed * 1000:.0f} ms")
    assert answer.status_code == 201, answer.text

    created = answer.json()
    tid = created["id"]
    players = created["players"]
    assert len(players) == PLAYERS
    assert [p["pkz"] for p in players[:3]] == [fresh.pkz["A"], fresh.pkz["B"], fresh.pkz["C"]]
    assert [p["created"] for p in players] == [how[no] == "new" for no in range(1, PLAYERS + 1)]
    assert all(isinstance(p["pkz"], int) for p in players)
    assert len({p["pkz"] for p in players}) == PLAYERS

    with unit_of_work(engine_for(fresh.url)) as session:
        stored = session.execute(select(func.count()).select_from(GameRow).where(GameRow.tournament_id == tid))
        assert stored.scalar_one() == len(games)
        joined = session.execute(
            select(func.count())
            .select_from(Membership)
            .where(Membership.club_code == CLUB, Membership.member_no > 1000)
        )
        assert joined.scalar_one() == sum(1 for no in range(4, PLAYERS + 1) if no % 3 == 0)

    outcome = recalc(fresh.url)
    assert outcome.ran and outcome.clean
    report = fresh.get(f"/tournaments/{tid}/evaluation").json()
    assert report["current"] is True
    assert len(report["rows"]) == PLAYERS
    assert {r["pkz"] for r in report["rows"]} == {p["pkz"] for p in players}
    assert differences(fresh.url) == []
