"""The pages in headless Chromium (Debian's ``chromium``, driven by Playwright; never a browser
download): search → player → tournament → explanation; a referee uploading a TRF with two
errors, fixing it (dropped onto the form), previewing, submitting and seeing the ratings change;
the simulator; the phone layout and the keyboard. Every page visited is checked with axe-core
(no serious or critical violation) and saved as a screenshot in ``artifacts/screenshots/``.

The application runs in uvicorn with its embedded recalculation, on the API tests' world.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.api.world import World
from tests.conftest import ROOT
from tests.web.live_server import serving
from tests.web.trf_files import good_trf, two_errors
from zdb.app import create_app
from zdb.config import Settings

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip(
        f"browser tests need Debian's chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True
    )

from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]  # noqa: E402
from playwright.sync_api import Browser, FilePayload, Page, ViewportSize, expect, sync_playwright  # noqa: E402

ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
PHONE: ViewportSize = {"width": 360, "height": 740}
DESKTOP: ViewportSize = {"width": 1280, "height": 900}
_AXE = Axe()
# One backend is enough for the browser: the pages' content is checked on both in test_pages.py.
pytestmark = pytest.mark.parametrize("world_url", ["postgresql"], indirect=True)


@pytest.fixture(scope="module")
def base_url(world: World) -> Iterator[str]:
    with serving(create_app(Settings(database_url=world.url, sweep_seconds=1.0))) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Browser, base_url: str) -> Iterator[Page]:
    context = browser.new_context(viewport=DESKTOP, base_url=base_url)
    opened = context.new_page()
    opened.set_default_timeout(10_000)
    yield opened
    context.close()


def _check(page: Page, name: str) -> None:
    """Save the page as a screenshot and let axe-core find no serious or critical violation."""
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)
    violations: list[dict[str, Any]] = _AXE.run(page).response["violations"]
    grave = [f"{v['id']} ({v['impact']}): {v['help']}" for v in violations if v["impact"] in ("serious", "critical")]
    assert grave == [], f"{name}: {grave}"


def test_search_player_tournament_explanation(page: Page, world: World) -> None:
    page.goto("/")
    _check(page, "01-search")
    page.locator("#q").press_sequentially("mull", delay=30)  # results as you type, no submit
    expect(page.locator("#results a[href^='/players/']")).to_have_count(3)
    _check(page, "02-search-results")
    page.locator("#results").get_by_role("link", name="Müller, Anna").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Anna Müller")
    expect(page.locator("figure.chart svg .conversion")).to_have_count(1)
    _check(page, "03-player-card")
    page.locator("table.data tbody tr.kind-tournament").first.locator("a").first.click()
    expect(page).to_have_url(re.compile(r"/tournaments/\d+$"))
    expect(page.get_by_test_id("status")).to_contain_text("ausgewertet")
    _check(page, "04-tournament")
    page.get_by_role("link", name=re.compile("Änderung erklären von Anna Müller")).click()
    expect(page.locator(".verdict")).to_have_text("Die Nachrechnung ergibt genau die gespeicherten Werte.")
    _check(page, "05-explanation")
    page.get_by_role("link", name="English").click()
    expect(page.locator(".verdict")).to_have_text("The recomputation gives exactly the stored figures.")
    page.get_by_role("link", name="Deutsch").click()
    expect(page.locator("html")).to_have_attribute("lang", "de")


def _drop_file(page: Page, text: str, name: str) -> None:
    """Drop a file onto the upload form's drop zone, as a user dragging it from his desktop."""
    page.locator("[data-dropzone]").first.evaluate(
        """(zone, [text, name]) => {
            const data = new DataTransfer();
            data.items.add(new File([text], name, {type: "text/plain"}));
            zone.dispatchEvent(new DragEvent("drop", {dataTransfer: data, bubbles: true, cancelable: true}));
        }""",
        [text, name],
    )


def test_referee_uploads_fixes_previews_submits_and_follows(page: Page, world: World) -> None:
    page.goto("/referee")
    expect(page).to_have_url(re.compile("/referee/sign-in"))
    _check(page, "10-sign-in")
    page.get_by_label("Ihr API-Token").fill(world.tokens["referee_c"])
    page.get_by_role("button", name="Anmelden").click()
    expect(page.get_by_text("Angemeldet als Turnierleiter für C.")).to_be_visible()
    _check(page, "11-referee")
    broken, lines = two_errors(good_trf(world))
    upload: FilePayload = {"name": "herbst.trf", "mimeType": "text/plain", "buffer": broken.encode()}
    page.locator("#file").set_input_files(files=[upload])
    page.get_by_label("Kürzel (3 Zeichen)").fill("HBT")
    page.get_by_label("Ausrichtender Verband (Anfang der Vereinskennziffer)").fill("C03")
    page.get_by_role("button", name="Prüfen und Vorschau").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Die Datei wurde nicht angenommen")
    for line in sorted(lines):
        expect(page.locator(".problems strong", has_text=f"Zeile {line}")).to_have_count(1)
    _check(page, "12-upload-problems")
    _drop_file(page, good_trf(world), "herbst.trf")
    expect(page.locator("[data-dropzone] .hint")).to_have_text("herbst.trf")
    page.get_by_role("button", name="Prüfen und Vorschau").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Vorschau der Auswertung")
    expect(page.locator("#preview tbody tr")).to_have_count(4)
    _check(page, "13-preview")
    page.get_by_role("button", name="Turnier einreichen").click()
    expect(page).to_have_url(re.compile(r"/referee/tournaments/\d+$"))
    expect(page.get_by_test_id("status")).to_contain_text("ausgewertet", timeout=30_000)  # follow.js reloads
    expect(page.locator("#changes tbody tr")).to_have_count(4)
    changes = page.locator("#changes tbody tr td:nth-child(9)").all_inner_texts()
    assert any(re.fullmatch(r"[+−]\d+", change) for change in changes), changes
    _check(page, "14-evaluated")


def test_referee_previews_a_name_spelt_otherwise_than_the_record(page: Page, world: World) -> None:
    """Issue 31, point 1: the file's spelling beside the record's name (once a 500)."""
    page.goto("/referee/sign-in")
    page.get_by_label("Ihr API-Token").fill(world.tokens["referee_c"])
    page.get_by_role("button", name="Anmelden").click()
    text = good_trf(world).replace("Mueller, Bernd", "Mueller, Bernt")
    upload: FilePayload = {"name": "herbst.trf", "mimeType": "text/plain", "buffer": text.encode()}
    page.locator("#file").set_input_files(files=[upload])
    page.get_by_label("Kürzel (3 Zeichen)").fill("HBT")
    page.get_by_label("Ausrichtender Verband (Anfang der Vereinskennziffer)").fill("C03")
    page.get_by_role("button", name="Prüfen und Vorschau").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Vorschau der Auswertung")
    expect(page.locator("#preview tbody tr").nth(1)).to_contain_text("(in der Datei: Bernt Mueller)")
    _check(page, "13b-preview-other-spelling")


def test_referee_is_warned_of_a_record_that_may_be_his_newcomer(page: Page, world: World) -> None:
    """Issue 31, point 3: a newcomer one letter from a record's name, of the same birth year, is
    previewed as new with a warning naming the record."""
    office = {"Authorization": f"Bearer {world.tokens['admin']}"}
    body = {"surname": "Neumann", "given_name": "Nino", "birth_date": "2011-03-04", "allow_duplicate": True}
    record = world.client.post("/api/v1/players", json=body, headers=office)
    assert record.status_code == 201, record.text
    text = good_trf(world).replace("Neumann, Nina", "Neumann, Nini").replace("C0327-77", "C0327-78")
    page.goto("/referee/sign-in")
    page.get_by_label("Ihr API-Token").fill(world.tokens["referee_c"])
    page.get_by_role("button", name="Anmelden").click()
    upload: FilePayload = {"name": "herbst.trf", "mimeType": "text/plain", "buffer": text.encode()}
    page.locator("#file").set_input_files(files=[upload])
    page.get_by_label("Kürzel (3 Zeichen)").fill("HBT")
    page.get_by_label("Ausrichtender Verband (Anfang der Vereinskennziffer)").fill("C03")
    page.get_by_role("button", name="Prüfen und Vorschau").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Vorschau der Auswertung")
    warning = f"der Datensatz {record.json()['pkz']} (Nino Neumann, Jahrgang 2011) hat aber einen ähnlichen Namen"
    expect(page.locator(".warnings")).to_contain_text(warning)
    _check(page, "13c-preview-similar-record")


def test_simulator(page: Page) -> None:
    page.goto("/simulator")
    page.get_by_label("Meine DWZ").fill("1600")
    page.get_by_label("Mein Index").fill("12")
    page.get_by_label("Wertungen meiner Gegner").fill("1700, 1650, 1580")
    page.get_by_role("button", name="Berechnen").click()
    dwz = page.locator("table[data-system='dwz'] tbody tr")
    expect(dwz).to_have_count(7)
    new = [int(n) for n in page.locator("table[data-system='dwz'] tbody tr td:nth-child(2)").all_inner_texts()]
    assert new == sorted(new) and new[0] < 1600 < new[-1]
    _check(page, "20-simulator")


def test_phone_layout_and_keyboard(browser: Browser, base_url: str, world: World) -> None:
    context = browser.new_context(viewport=PHONE, base_url=base_url, is_mobile=True, has_touch=True)
    phone = context.new_page()
    for path, name in [
        ("/?q=mueller", "30-phone-search"),
        (f"/players/{world.pkz['A']}", "31-phone-player"),
        ("/tournaments/4", "32-phone-tournament"),
        ("/clubs/C0327", "33-phone-club"),
        ("/federations/C", "34-phone-federation"),
        ("/recalculation", "35-phone-recalculation"),
        ("/simulator?rating=1600&opponents=1700,1650", "36-phone-simulator"),
    ]:
        phone.goto(path)
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{path} is {width} px wide"
        _check(phone, name)
    phone.goto("/tournaments/4")  # the search page puts the focus into its field at once
    phone.keyboard.press("Tab")
    focused = phone.evaluate("document.activeElement.textContent")
    assert focused == "Zum Inhalt springen"
    phone.keyboard.press("Enter")
    assert phone.evaluate("document.activeElement.id") == "main"
    phone.goto("/")
    assert phone.evaluate("document.activeElement.id") == "q"
    phone.keyboard.type("mueller")
    phone.keyboard.press("Enter")  # the plain form, as without JavaScript
    expect(phone.locator("#results a[href^='/players/']")).to_have_count(3)
    context.close()


def test_pages_show_their_data_without_javascript(browser: Browser, base_url: str, world: World) -> None:
    context = browser.new_context(viewport=DESKTOP, base_url=base_url, java_script_enabled=False)
    plain = context.new_page()
    plain.goto("/")
    plain.locator("#q").fill("öztürk")
    plain.get_by_role("button", name="Suche").click()
    plain.locator("#results").get_by_role("link", name="Öztürk, Fatma").click()
    expect(plain.get_by_test_id("rating")).not_to_be_empty()
    expect(plain.locator("figure.chart svg circle")).not_to_have_count(0)
    expect(plain.locator("table.data tbody tr")).not_to_have_count(0)
    plain.goto("/clubs/C0327")
    plain.get_by_role("link", name="Name").click()
    expect(plain).to_have_url(re.compile(r"sort=name"))
    members = world.get("/clubs/C0327/ratings").json()["total"]
    expect(plain.locator("#members tbody tr")).to_have_count(members)
    context.close()
