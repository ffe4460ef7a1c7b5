"""A person who objects to publication is named on no public read: every GET of the API and of
the pages, walked as the public (no token) with his person number, his club, the tournaments he
played, the runs that moved him and a published edition filled into the paths.

The world's E (Erik Weiß of club C0327, tests/api/world.py) objects; his names are spelled once
in the world, so any answer carrying "Erik", "Weiß" (or its folding "Weiss") names him.
"""

from __future__ import annotations

import re
from typing import Any

from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from sqlalchemy import select
from starlette.routing import Mount, Route

from tests.api.test_editions import _publish
from tests.api.test_office_records import _send
from tests.api.world import World
from zdb.db import engine_for, unit_of_work
from zdb.timeline.run_records import RunChange
from zdb.tournaments.models import Participation

#: query parameters a read needs to answer at all
_NEEDED = {"changed_since": "2000-01-01T00:00:00Z", "q": "We", "name": "We"}


def _query_names(dependant: Dependant) -> set[str]:
    names = {q.alias for q in dependant.query_params}
    for sub in dependant.dependencies:
        names |= _query_names(sub)
    return names


def _get_paths(routes: list[Any], prefix: str = "") -> list[tuple[str, dict[str, str]]]:
    """Every GET route's path with the needed query parameters it takes."""
    paths: list[tuple[str, dict[str, str]]] = []
    for route in routes:
        if hasattr(route, "include_context"):  # a router included with a prefix of its own
            paths += _get_paths(route.original_router.routes, prefix + route.include_context.prefix)
        elif isinstance(route, Mount):
            paths += _get_paths(route.routes, prefix + route.path)
        elif isinstance(route, APIRoute) and "GET" in route.methods:
            taken = _query_names(route.dependant)
            paths.append((prefix + route.path, {k: v for k, v in _NEEDED.items() if k in taken}))
        elif isinstance(route, Route) and "GET" in (route.methods or set()):
            paths.append((prefix + route.path, {}))
    return paths


def test_an_objector_is_named_on_no_public_read(fresh: World) -> None:
    e = fresh.pkz["E"]
    assert _send(fresh, "PATCH", f"/players/{e}", {"objects_to_publication": True}).status_code == 200
    assert _publish(fresh, {"date": "2026-09-30"}).status_code == 201
    with unit_of_work(engine_for(fresh.url)) as session:
        played = sorted(set(session.scalars(select(Participation.tournament_id).where(Participation.player_pkz == e))))
        runs = sorted(set(session.scalars(select(RunChange.run_id).where(RunChange.player_pkz == e))))
    assert played and runs
    values: dict[str, list[str]] = {
        "pkz": [str(e)],
        "code": ["C0327"],
        "prefix": ["C", "C03"],
        "tournament_id": [str(t) for t in played],
        "run_id": [str(r) for r in runs],
        "name": ["2026-Q4"],
    }
    walked: dict[str, int] = {}
    for template, params in _get_paths(fresh.client.app.routes):  # type: ignore[attr-defined]
        names = re.findall(r"{(\w+)(?::\w+)?}", template)
        if any(n not in values for n in names) or template.startswith(("/static", "/api/v1/docs", "/api/v1/openapi")):
            continue
        paths = [template]
        for n in names:
            paths = [re.sub("{" + n + r"(?::\w+)?}", v, p) for p in paths for v in values[n]]
        for path in paths:
            answer = fresh.client.get(path, params=params)
            walked[path] = answer.status_code
            # "Weiß" is also the white side: in the crosstable's legend and the explanation's games
            body = re.sub(r"w Weiß, s Schwarz|<td>Weiß</td>", "", answer.content.decode("utf-8", errors="replace"))
            named = re.search("Weiß|Weiss|Erik", body)
            assert named is None, (path, body[named.start() - 80 : named.end() + 40])
    public = [p for p, status in walked.items() if status == 200]
    # the reads that name players are among those walked, and answered
    for must in (
        f"/api/v1/players/{e}",
        "/api/v1/ratings/top",
        "/api/v1/ratings/changes",
        "/api/v1/clubs/C0327/ratings",
        "/api/v1/clubs/C0327/members.csv",
        f"/api/v1/tournaments/{played[0]}/crosstable",
        f"/api/v1/tournaments/{played[0]}/evaluation",
        f"/api/v1/tournaments/{played[0]}/players/{e}/explanation",
        f"/api/v1/tournaments/{played[0]}/impact",
        f"/tournaments/{played[0]}",
        f"/tournaments/{played[0]}/players/{e}/explanation",
        f"/players/{e}",
        "/clubs/C0327",
        "/",
    ):
        assert must in public, (must, walked.get(must))
    # the rating still counts, and the staff still see the name
    assert fresh.get("/players", name="Weiss").json()["total"] == 0
    assert fresh.get(f"/players/{e}", "admin").json()["surname"] == "Weiß"
