"""The layout a rating officer and a phone reader trip over, in headless Chromium (as
``test_browser.py``): the player card's history shows its last column at 1280 px, and the
staff memberships and federations pages fit a 390 px phone without scrolling sideways. The
pages of a tournament's life (issue 35: the reviews, the complaints, the fees, the club's
notifications, the review setup) fit both a 390 px phone and a 1280 px desktop, each with
something to show. Each page is saved as a screenshot in ``artifacts/screenshots/``."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize

from tests.api.test_submissions import _body
from tests.api.world import World
from tests.web.test_browser import DESKTOP, SCREENSHOTS, _check, base_url, browser

__all__ = ["base_url", "browser"]  # the browser tests' fixtures, shared

pytestmark = pytest.mark.parametrize("world_url", ["postgresql"], indirect=True)
#: a common phone's width in CSS pixels (an iPhone 12 to 15)
PHONE_390: ViewportSize = {"width": 390, "height": 844}

#: how far the history's table reaches beyond the box that shows it (0: all of it is visible)
_CUT = """table => {
    const box = table.closest(".table-wrap") || table.parentElement;
    return table.getBoundingClientRect().right - box.getBoundingClientRect().right;
}"""


def test_the_player_cards_history_shows_its_last_column(browser: Browser, base_url: str, world: World) -> None:
    context = browser.new_context(viewport=DESKTOP, base_url=base_url)
    page = context.new_page()
    page.goto(f"/players/{world.pkz['A']}")
    history = page.locator("section[aria-labelledby=history-heading] table")
    assert history.count() == 1
    assert history.evaluate(_CUT) <= 0.5
    assert page.evaluate("document.documentElement.scrollWidth") <= DESKTOP["width"]
    _check(page, "50-player-history-desktop")
    context.close()


@pytest.mark.parametrize(
    ("path", "name"),
    [("/staff/players/{pkz}/memberships", "51-phone-memberships"), ("/staff/federations", "52-phone-federations")],
)
def test_staff_pages_fit_a_phone(browser: Browser, base_url: str, world: World, path: str, name: str) -> None:
    # a federation's name as long as real ones are: the form's select offers it
    created = world.client.post(
        "/api/v1/federations",
        json={
            "prefix": "C9",
            "name": "Schachverband Ostwestfalen-Lippe und Sauerland-Siegerland",
            "parent_prefix": "C",
        },
        headers={"Authorization": f"Bearer {world.tokens['admin']}"},
    )
    assert created.status_code in (201, 409), created.text  # 409: made by the other parameter's run
    context = browser.new_context(viewport=PHONE_390, base_url=base_url, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto("/referee/sign-in")
    page.locator("input[name=token]").fill(world.tokens["admin"])
    page.locator("form button[type=submit]").first.click()
    page.goto(path.format(pkz=world.pkz["A"]))
    width = page.evaluate("document.documentElement.scrollWidth")
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)
    assert width <= PHONE_390["width"], f"{path} is {width} px wide"
    _check(page, name)
    context.close()


def _api(world: World, method: str, path: str, token: str | None, body: dict[str, Any]) -> Any:
    headers = {} if token is None else {"Authorization": f"Bearer {world.tokens[token]}"}
    answer = world.client.request(method, f"/api/v1{path}", json=body, headers=headers)
    assert answer.status_code < 300, answer.text
    return answer.json()


@pytest.fixture(scope="module")
def life_pages(world: World) -> dict[str, str]:
    """A submission waiting in review and a player's complaint, so that each page of a
    tournament's life has something to show; the pages' paths by name."""
    _api(world, "PUT", "/federations/C/review", "admin", {"review": "required"})
    held = _api(world, "POST", "/tournaments", "referee_c", _body(world))
    complaint = {
        "subject": "evaluation",
        "tournament": 1,
        "person": world.pkz["A"],
        "pkz": world.pkz["A"],
        "email": "anna.mueller@example.org",
        "text": "Meine Partie in Runde 2 endete remis, nicht 0-1.",
    }
    filed = _api(world, "POST", "/complaints", None, complaint)
    return {
        "reviews": "/referee/reviews",
        "review": f"/referee/reviews/{held['review']}",
        "complaint-new": "/complaints/new",
        "complaint-follow": filed["follow"],
        "complaints": "/staff/complaints",
        "complaint": f"/staff/complaints/{filed['id']}",
        "staff-fees": "/staff/fees",
        "referee-fees": "/referee/fees",
        "club-notifications": "/club/notifications",
        "review-setup": "/staff/federations/C/review",
    }


#: who reads each page: the public (None), the office (admin), a club
_READER = {"complaint-new": None, "complaint-follow": None, "club-notifications": "club_c0327"}


def _sign_in(page: Page, world: World, token: str | None) -> None:
    if token is None:
        return
    page.goto("/club/sign-in" if token.startswith("club") else "/referee/sign-in")
    page.locator("input[name=token]").fill(world.tokens[token])
    with page.expect_navigation():
        page.locator("form button[type=submit]").first.click()


_LIFE = [*_READER, "reviews", "review", "complaints", "complaint", "staff-fees", "referee-fees", "review-setup"]


@pytest.mark.parametrize(
    "case",
    [(key, viewport) for key in _LIFE for viewport in (PHONE_390, DESKTOP)],
    ids=lambda c: f"{c[0]}-{c[1]['width']}",
)
def test_the_pages_of_a_tournaments_life_fit_phone_and_desktop(
    browser: Browser, base_url: str, world: World, life_pages: dict[str, str], case: tuple[str, ViewportSize]
) -> None:
    key, viewport = case
    phone = viewport["width"] < DESKTOP["width"]
    context = browser.new_context(viewport=viewport, base_url=base_url, is_mobile=phone, has_touch=phone)
    page = context.new_page()
    _sign_in(page, world, _READER.get(key, "admin"))
    answer = page.goto(life_pages[key])
    assert answer is not None and answer.status == 200, key
    width = page.evaluate("document.documentElement.scrollWidth")
    name = f"53-{key}-{viewport['width']}"
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)
    assert width <= viewport["width"], f"{life_pages[key]} is {width} px wide at {viewport['width']} px"
    _check(page, name)
    context.close()
