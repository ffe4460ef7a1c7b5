"""The start page beside the search: the top ten of the federation, the latest evaluated
tournaments and the recalculation's state, each as the API answers it; and the players found,
page by page."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from tests.api.world import World
from tests.web.html_text import text_of
from zdb.web import overview
from zdb.web.routes import search


def _section(html: str, heading_id: str) -> str:
    start = html.index(f'id="{heading_id}"')
    return html[start : html.index("</section>", start)]


def test_start_page_shows_top_list_latest_tournaments_and_recalculation(world: World, pages: TestClient) -> None:
    page = pages.get("/").text
    top = world.get("/ratings/top", limit=overview.TOP).json()["items"]
    shown = re.findall(r'<a href="/players/(\d+)">', _section(page, "top-heading"))
    assert shown == [str(t["pkz"]) for t in top] and 0 < len(shown) <= overview.TOP
    evaluated = world.get("/tournaments", status="evaluated", limit=overview.LATEST).json()["items"]
    latest = re.findall(r'<a href="/tournaments/(\d+)">', _section(page, "latest-heading"))
    assert latest == [str(t["id"]) for t in evaluated] and latest
    state = world.get("/recalculation").json()["state"]
    shown_state = text_of(_section(page, "recalculation-heading"))
    expected = {"idle": "Ruht", "running": "Läuft", "pending": "Ausstehend"}[state]
    assert expected in shown_state, shown_state


def test_search_results_come_page_by_page(world: World, pages: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "PLAYER_LIMIT", 2)
    everyone = {str(world.pkz[p]) for p in "ABC"}
    first = pages.get("/", params={"q": "mueller"}).text
    second = pages.get("/", params={"q": "mueller", "page": "2"}).text
    on_first = re.findall(r'<li>\s*<a href="/players/(\d+)"', first)
    on_second = re.findall(r'<li>\s*<a href="/players/(\d+)"', second)
    assert len(on_first) == 2 and len(on_second) == 1
    assert set(on_first) | set(on_second) == everyone
    assert 'rel="next" href="/?q=mueller&amp;page=2"' in first and 'rel="prev"' not in first
    assert 'rel="prev" href="/?q=mueller&amp;page=1"' in second and 'rel="next"' not in second
    assert "Spieler 3 bis 3 von 3" in text_of(second) and "Seite 2 von 2" in text_of(second)
    fragment = pages.get("/search/results", params={"q": "mueller", "page": "2"}).text
    assert re.findall(r'<li>\s*<a href="/players/(\d+)"', fragment) == on_second
    assert pages.get("/", params={"q": "mueller", "page": "0"}).status_code == 422
    beyond = pages.get("/", params={"q": "mueller", "page": "9"}).text
    assert "zurück zur ersten Seite" in beyond
