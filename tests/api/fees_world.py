"""What the FIDE registration and fee tests share: an announced tournament in federation C03
with dates relative to today (the deadlines count from the day the service acts), its FIDE
registration, and a fee schedule of the federation's published rules (2026)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

from tests.api.test_announcements import ANNOUNCEMENT
from tests.api.test_submissions import _body, _headers
from tests.api.world import World
from zdb.db import engine_for, unit_of_work
from zdb.lists.models import FideRatingRow

#: the arbiters: the chief in FIDE's list ZDB holds, the deputy not
CHIEF, DEPUTY = 4612345, 4699999

SCHEDULE = {
    "federation": "C03",
    "valid_from": "2026-01-01",
    "valid_until": None,
    "dwz_per_tournament": "10.00",
    "dwz_per_game": "0.50",
    "dwz_per_non_member": "2.00",
    "fide_per_player": "3.00",
    "fide_round_robin": [
        {"from_elo": 0, "amount": "3.00"},
        {"from_elo": 2230, "amount": "6.00"},
        {"from_elo": 2380, "amount": "12.00"},
        {"from_elo": 2600, "amount": "20.00"},
        {"from_elo": 2700, "amount": "30.00"},
    ],
    "fide_late_report": "60.00",
    "note": "Gebührenordnung 2026",
}


def today() -> date:
    return datetime.now(UTC).date()


def days_from_today(days: int) -> str:
    return (today() + timedelta(days=days)).isoformat()


def list_arbiter(world: World) -> None:
    """The chief arbiter in FIDE's list ZDB holds."""
    with unit_of_work(engine_for(world.url)) as session:
        session.add(FideRatingRow(fide_id=CHIEF, edition=date(2026, 1, 1), name="Weber, Anna", federation="GER"))


def announce(world: World, start: int, end: int, **changes: Any) -> str:
    """An announcement of a tournament ``start`` to ``end`` days from today; its code."""
    body = {**ANNOUNCEMENT, "start_date": days_from_today(start), "end_date": days_from_today(end), **changes}
    made = world.client.post("/api/v1/announcements", json=body, headers=_headers(world, "referee_c"))
    assert made.status_code == 201, made.text
    return str(made.json()["code"])


def registration(system: str = "round_robin", **changes: Any) -> dict[str, Any]:
    return {
        "chief_arbiter": {"fide_id": CHIEF, "name": "Weber, Anna"},
        "deputy_arbiter": {"fide_id": DEPUTY, "name": "Neu, Norbert"},
        "rate_of_play": "90 min/40 moves + 30 min + 30 s",
        "category": "standard",
        "system": system,
        "rounds": 3,
        **changes,
    }


def register(world: World, code: str, token: str = "referee_c", **changes: Any) -> Any:
    return world.client.post(
        f"/api/v1/announcements/{code}/fide-registration",
        json=registration(**changes),
        headers=_headers(world, token),
    )


def played(world: World, start: int, ratings: list[int | None], guest: bool = True, **changes: Any) -> dict[str, Any]:
    """``_body``'s four players (the 4th a guest) and six rated games, played ``start`` to
    ``start`` + 2 days from today, with the FIDE ratings the players started with."""
    body = _body(world, **changes)
    days = [days_from_today(start + k) for k in range(3)]
    body.update(start_date=days[0], end_date=days[2], round_dates=days)
    for player, rating in zip(body["players"], ratings, strict=True):
        player["fide_rating"] = rating
    body["players"][3]["member"] = not guest
    return body


def submit(world: World, body: dict[str, Any], code: str) -> int:
    answer = world.client.post(
        "/api/v1/tournaments", params={"announcement": code}, json=body, headers=_headers(world, "referee_c")
    )
    assert answer.status_code == 201, answer.text
    return int(answer.json()["id"])
