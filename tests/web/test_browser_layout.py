"""The layout a rating officer and a phone reader trip over, in headless Chromium (as
``test_browser.py``): the player card's history shows its last column at 1280 px, and the
staff memberships and federations pages fit a 390 px phone without scrolling sideways. Each
page is saved as a screenshot in ``artifacts/screenshots/``."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, ViewportSize

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
