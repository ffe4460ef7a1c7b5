"""No German page shows a code of the data where a word is meant (``first_rating``, ``wo2026``,
``classic``, a status or a stage): every page the browser tests and the page tests visit, the
explanation of every player in every tournament, and the referee's pages, read as visible text."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from tests.api.world import PENDING, WITHDRAWN, World
from tests.web.html_text import text_of
from tests.web.same_site import SAME_SITE
from tests.web.trf_files import good_trf

#: codes of the data: identifiers with underscores, rule-set names, stages, states, bases
SLUG = re.compile(
    r"\b(?:[a-z]+_[a-z_]+|wo\d{4}|[a-z]+-[a-z]*\d+(?:-\d+)?|stage\d|classic|established|unrated|evaluated|evaluating"
    r"|received|withdrawn|idle|running|pending|individual|swiss|r0|rh|sbr|not played|(?:player|opponent) not rated)\b"
)
PAGES = [
    "/",
    "/?q=mueller",
    "/?q=x",
    "/?q=C0327",
    "/players/{A}",
    "/players/{D}",
    "/players/{H}",
    "/tournaments/4",
    f"/tournaments/{PENDING}",
    f"/tournaments/{WITHDRAWN}",
    "/clubs/C0327",
    "/clubs/C0327?sort=name",
    "/federations",
    "/federations/C",
    "/federations/C?sex=F&age_max=60",
    "/recalculation",
    "/simulator",
    "/simulator?rating=1600&opponents=1700,1650",
    "/simulator?rating=1600&elo=1900&opponents=1700,1650&end_date=27.09.2026",
    "/simulator?rating=1600&opponents=1700,abc",
    "/referee/sign-in",
    "/players/99999999",
]


def _slugs(html: str) -> list[str]:
    return sorted({found.group(0) for found in SLUG.finditer(text_of(html))})


def test_the_pattern_finds_the_codes_once_shown() -> None:
    shown = (
        "<dt>Regelwerk</dt><dd>classic</dd><dt>Stufe</dt><dd>stage1</dd><td>1600 (first_rating)</td><h2>(wo2026)</h2>"
    )
    assert _slugs(shown) == ["classic", "first_rating", "stage1", "wo2026"]
    assert _slugs("<p>R0-i 1600-12, Rh 1700, Index 12, Wertungsordnung 2026</p>") == []


@pytest.mark.parametrize("path", PAGES)
def test_no_code_on_a_german_page(world: World, pages: TestClient, path: str) -> None:
    page = pages.get(path.format(A=world.pkz["A"], D=world.pkz["D"], H=world.pkz["H"]))
    assert '<html lang="de">' in page.text
    assert _slugs(page.text) == [], path


def test_no_code_in_any_explanation(world: World, pages: TestClient) -> None:
    seen = 0
    for pkz in world.pkz.values():
        for entry in world.get(f"/players/{pkz}").json()["history"]:
            if entry["kind"] == "tournament" and entry["evaluation"] is not None:
                path = f"/tournaments/{entry['tournament_id']}/players/{pkz}/explanation"
                assert _slugs(pages.get(path).text) == [], path
                seen += 1
    assert seen > 5


def test_no_code_on_the_referees_pages(world: World) -> None:
    client = TestClient(world.client.app, follow_redirects=False, headers=SAME_SITE)
    signed = client.post("/referee/sign-in", data={"token": world.tokens["referee_c"], "next": "/referee"})
    assert signed.status_code == 303
    files = {"file": ("herbst.trf", good_trf(world).encode(), "text/plain")}
    preview = client.post("/referee/upload", data={"acronym": "HBT", "federation": "C03"}, files=files)
    assert preview.status_code == 200, preview.text
    for html in (client.get("/referee").text, client.get("/referee/tournaments/4").text, preview.text):
        assert _slugs(html) == []
