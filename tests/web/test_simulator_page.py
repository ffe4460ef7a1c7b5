"""The simulator page as a rating officer uses it: the FIDE table starts from the Elo he gives
(never from the DWZ), the date is written the German way, and the tables stand side by side on
a wide screen (the browser test looks at that)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.api.world import World
from tests.web.html_text import rows_of, text_of

FORM = {"rating": "1600", "index": "12", "birth_year": "1986", "opponents": "1700, 1650 1580"}


def _api(world: World, rating: int, end_date: str) -> dict[str, Any]:
    body = {"rating": rating, "index": 12, "birth_year": 1986, "opponents": [1700, 1650, 1580], "end_date": end_date}
    answer: dict[str, Any] = world.client.post("/api/v1/simulator", json=body).json()
    return answer


def _shown(html: str, system: str) -> list[int]:
    return [int(row[1]) for row in rows_of(html[html.index(f'data-system="{system}"') :])]


def test_the_fide_table_starts_from_the_elo(world: World, pages: TestClient) -> None:
    page = pages.get("/simulator", params=FORM | {"elo": "2000", "end_date": "27.09.2026"})
    assert page.status_code == 200
    from_elo = next(s for s in _api(world, 2000, "2026-09-27")["systems"] if s["system"] == "fide")
    from_dwz = next(s for s in _api(world, 1600, "2026-09-27")["systems"] if s["system"] == "dwz")
    assert _shown(page.text, "fide") == [o["rating"] for o in from_elo["outcomes"]]
    assert _shown(page.text, "dwz") == [o["rating"] for o in from_dwz["outcomes"]]
    without = pages.get("/simulator", params=FORM | {"end_date": "27.09.2026"}).text
    assert 'data-system="fide"' not in without and 'data-testid="no-fide"' in without
    assert 'data-system="dwz"' in without
    assert pages.get("/simulator", params=FORM | {"elo": "zwei"}).status_code == 422


def test_the_date_is_written_the_german_way(world: World, pages: TestClient) -> None:
    german = pages.get("/simulator", params=FORM | {"end_date": "27.09.2026"}).text
    iso = pages.get("/simulator", params=FORM | {"end_date": "2026-09-27"}).text
    assert _shown(german, "dwz") == _shown(iso, "dwz")
    empty = pages.get("/simulator").text
    assert "TT.MM.JJJJ" in empty and "Tag.Monat.Jahr" in text_of(empty)
    assert 'type="date"' not in empty
    for wrong in ("31.02.2026", "27/09/2026"):
        refused = pages.get("/simulator", params=FORM | {"end_date": wrong})
        assert refused.status_code == 422 and "ist kein Datum (TT.MM.JJJJ)" in text_of(refused.text), wrong
