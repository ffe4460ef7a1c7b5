"""The rating officer's pages in headless Chromium (as ``test_browser.py``): every text of the
player card's chart inside the chart's box and readable on a phone (360 px) and a desktop
(1280 px), the start page's overview, the simulator's tables side by side on a wide screen.
Each page is saved as a screenshot in ``artifacts/screenshots/``."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from tests.api.world import World
from tests.web.test_browser import DESKTOP, PHONE, SCREENSHOTS, _check, base_url, browser

__all__ = ["base_url", "browser"]  # the browser tests' fixtures, shared

pytestmark = pytest.mark.parametrize("world_url", ["postgresql"], indirect=True)
#: the smallest text a phone reader is asked to read, in CSS pixels
READABLE_PX = 9.5


#: each text of the chart: its box in view-box units, and its height on the screen
_TEXTS = """svg => {
    const box = svg.viewBox.baseVal;
    const scale = svg.getBoundingClientRect().width / box.width;
    return [...svg.querySelectorAll("text")].map(t => {
        const b = t.getBBox();
        return {text: t.textContent, left: b.x, right: b.x + b.width, top: b.y, bottom: b.y + b.height,
                width: box.width, height: box.height, px: parseFloat(getComputedStyle(t).fontSize) * scale};
    });
}"""


@pytest.mark.parametrize(("viewport", "name"), [(PHONE, "40-chart-phone"), (DESKTOP, "41-chart-desktop")])
def test_every_chart_label_stays_inside_its_box(
    browser: Browser, base_url: str, world: World, viewport: ViewportSize, name: str
) -> None:
    context = browser.new_context(viewport=viewport, base_url=base_url)
    page = context.new_page()
    page.goto(f"/players/{world.pkz['A']}")
    svg = page.locator("figure.chart svg")
    expect(svg.locator(".conversion-label")).to_have_text("Umstellung 2026")
    texts = svg.evaluate(_TEXTS)
    assert any(t["text"] == "Umstellung 2026" for t in texts)
    for t in texts:
        assert t["left"] >= 0 and t["right"] <= t["width"], t
        assert t["top"] >= 0 and t["bottom"] <= t["height"], t
        assert t["px"] >= READABLE_PX, t
    svg.screenshot(path=str(SCREENSHOTS / f"{name}.png"))
    _check(page, f"{name}-page")
    context.close()


def test_start_page_overview_and_simulator_side_by_side(browser: Browser, base_url: str) -> None:
    context = browser.new_context(viewport=DESKTOP, base_url=base_url)
    page = context.new_page()
    page.goto("/")
    expect(page.get_by_test_id("top-list").locator("li")).not_to_have_count(0)
    expect(page.get_by_test_id("latest").locator("li")).not_to_have_count(0)
    _check(page, "42-start-overview")
    page.goto("/simulator")
    page.get_by_label("Meine DWZ").fill("1600")
    page.get_by_label("Meine Elo (FIDE)").fill("1900")
    page.get_by_label("Letzter Turniertag").fill("27.09.2026")
    page.get_by_label("Wertungen meiner Gegner").fill("1700, 1650, 1580")
    page.get_by_role("button", name="Berechnen").click()
    tables = page.locator(".systems section")
    expect(tables).to_have_count(3)
    tops = {round(box["y"]) for box in (tables.nth(k).bounding_box() or {"y": -1} for k in range(3))}
    assert len(tops) == 1, tops  # one row: side by side
    _check(page, "43-simulator-wide")
    context.close()
