"""A referee acts in his region only, also through the players his files name: a newcomer is
made a member of a club of his region only, a preview tells him nothing about a birth date he
may not read, and every answered preview is in the audit log with its actor.

The world (``tests/api/world.py``): referee_c's scope is region C (clubs C0101, C0327); Dieter
Schmidt (D) is a member of D0001 in region D, born on 17 May of his year; Anna Müller (A) of
C0327, born on 17 May of hers.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from sqlalchemy import select

from tests.api.test_submissions import _another_weekend, _body, _counts, _german_trf, _headers, _post, _post_trf
from tests.api.world import World
from zdb.audit.models import AuditEntry
from zdb.auth.models import ApiToken
from zdb.db import engine_for, unit_of_work
from zdb.players.models import Player


def _birth_date(world: World, pid: str) -> date:
    with unit_of_work(engine_for(world.url)) as session:
        player = session.get(Player, world.pkz[pid])
        assert player is not None and player.birth_date is not None
        return player.birth_date


def _named(world: World, pid: str, surname: str, given: str, born: date) -> dict[str, Any]:
    """The four-player body with its fourth player named by name and birth date only."""
    body = _body(world)
    body["players"][3] = {"surname": surname, "given_name": given, "birth_date": born.isoformat()}
    return body


def _preview(world: World, body: dict[str, Any], token: str = "referee_c") -> Any:
    return world.client.post("/api/v1/tournaments/preview", json=body, headers=_headers(world, token))


def test_a_referee_creates_newcomers_only_in_clubs_of_his_region(fresh: World) -> None:
    before = _counts(fresh.url)
    body = _body(fresh)
    body["players"][3]["club"] = "D0001"
    refused = _post(fresh, body)
    assert refused.status_code == 422, refused.text
    [problem] = refused.json()["errors"]
    assert problem["place"] == "body.players[3].club"
    assert "D0001" in problem["message"] and "scope" in problem["message"]
    # The TRF national line's club code is the same door.
    text = _german_trf(fresh).replace("C0327-77", "D0001-77")
    trf = _post_trf(fresh, text)
    assert trf.status_code == 422, trf.text
    [problem] = trf.json()["errors"]
    assert problem["place"].startswith("line ") and "D0001" in problem["message"]
    assert _counts(fresh.url) == before
    # The referee of region D, and the rating office, may.
    # (another weekend's: the same tournament twice would be refused as stored already)
    theirs = {**_another_weekend(fresh), "players": body["players"], "federation": "D"}
    assert _post(fresh, theirs, "referee_d").status_code == 201
    assert _post_trf(fresh, text, token="admin").status_code == 201


def test_a_preview_tells_nothing_of_a_birth_date_the_referee_may_not_read(fresh: World) -> None:
    dieter, anna = _birth_date(fresh, "D"), _birth_date(fresh, "A")
    wrong = {"D": dieter.replace(day=18), "A": anna.replace(day=18)}
    # Another region's player: the answer is the same whether the date fits or not.
    fits = _preview(fresh, _named(fresh, "D", "Schmidt", "Dieter", dieter))
    misses = _preview(fresh, _named(fresh, "D", "Schmidt", "Dieter", wrong["D"]))
    assert fits.status_code == misses.status_code == 200, misses.text
    assert fits.json() == misses.json()
    assert fits.json()["rows"][3]["pkz"] == fresh.pkz["D"]
    # His own region's player, and any player for the rating office: the date decides.
    own = _preview(fresh, _named(fresh, "A", "Müller", "Anna", wrong["A"]))
    assert own.json()["rows"][3]["pkz"] is None
    office = _preview(fresh, _named(fresh, "D", "Schmidt", "Dieter", wrong["D"]), token="admin")
    assert office.json()["rows"][3]["pkz"] is None


def test_every_answered_preview_is_audited_with_its_actor(fresh: World) -> None:
    body = _named(fresh, "D", "Schmidt", "Dieter", _birth_date(fresh, "D"))
    assert _preview(fresh, body).status_code == 200
    stored = _post_trf(fresh, _german_trf(fresh))
    assert stored.status_code == 201, stored.text
    tid = stored.json()["id"]
    trf = fresh.client.post(
        "/api/v1/tournaments/preview/trf",
        params={"acronym": "TRF", "federation": "C03"},
        content=_german_trf(fresh).encode(),
        headers=_headers(fresh, "referee_c", **{"Content-Type": "text/plain"}),
    )
    assert trf.status_code == 200, trf.text
    correction = fresh.client.post(
        f"/api/v1/tournaments/{tid}/preview", json=_body(fresh), headers=_headers(fresh, "referee_c")
    )
    assert correction.status_code == 200, correction.text
    with unit_of_work(engine_for(fresh.url)) as session:
        referee = session.execute(select(ApiToken.id).where(ApiToken.label == "referee_c")).scalar_one()
        entries = session.execute(
            select(AuditEntry).where(AuditEntry.action == "tournament.preview").order_by(AuditEntry.id)
        ).scalars()
        seen = [(e.actor_token_id, e.target, e.detail) for e in entries]
    assert [(actor, target) for actor, target, _ in seen] == [
        (referee, "tournament (new)"),
        (referee, "tournament (new)"),
        (referee, f"tournament {tid}"),
    ]
    json_detail = seen[0][2]
    assert json_detail is not None and fresh.pkz["D"] in json_detail["matched_players"]
    assert json_detail["acronym"] == "SUB" and json_detail["federation"] == "C03"
