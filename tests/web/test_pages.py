"""Every page's content, read without a browser: the figures a page shows are those the API
answers for the same thing (known answers never written here), the texts are German unless
English is asked for, and a wrong address is a page saying so, never a 500.
"""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from tests.api.world import PENDING, REPLAY, WITHDRAWN, World
from tests.db.scenario import submit
from tests.web.html_text import rows_of as _rows
from tests.web.html_text import text_of as _text
from tests.web.same_site import SAME_SITE
from zdb.app import create_app
from zdb.config import Settings
from zdb.web.catalogue import extract_messages
from zdb.web.i18n import catalogue_path
from zdb.web.rendering import environment


def test_search_folds_umlauts_and_finds_clubs(world: World, pages: TestClient) -> None:
    for spelling in ("Müller", "mueller", "MULLER"):
        page = pages.get("/", params={"q": spelling})
        assert page.status_code == 200
        results = page.text[page.text.index('id="results"') : page.text.index('class="overview"')]
        found = set(re.findall(r'href="/players/(\d+)"', results))
        assert found == {str(world.pkz[p]) for p in "ABC"}, spelling
    by_code = pages.get("/", params={"q": "C0327"}).text
    assert 'href="/clubs/C0327"' in by_code
    by_name = pages.get("/search/results", params={"q": "musterstadt"})
    assert 'href="/clubs/C0327"' in by_name.text
    assert "<html" not in by_name.text  # the fragment the live search swaps in
    assert "Mindestens zwei Buchstaben" in pages.get("/", params={"q": "x"}).text


def test_player_card_shows_the_api_card(world: World, pages: TestClient) -> None:
    pkz = world.pkz["A"]
    card = world.get(f"/players/{pkz}").json()
    page = pages.get(f"/players/{pkz}").text
    rating = re.search(r'data-testid="rating">(.*?)</strong>', page, re.S)
    assert rating is not None
    assert _text(rating.group(1)) == f"{card['rating']}-{card['rating_index']}"
    assert str(card["fide_id"]) in page and "SK Musterstadt 1920" in page
    history = _rows(page)
    assert len(history) == len(card["history"])
    for entry in card["history"]:
        if entry["kind"] == "tournament":
            tid = entry["tournament_id"]
            assert f'href="/tournaments/{tid}"' in page
            assert f'href="/tournaments/{tid}/players/{pkz}/explanation"' in page
    # the chart: inline SVG, a linked point per tournament, the conversion marked
    svg = page[page.index("<svg") : page.index("</svg>")]
    tournaments = [e for e in card["history"] if e["kind"] == "tournament" and e["new_rating"] is not None]
    assert len(re.findall(r'<a href="/tournaments/\d+"', svg)) == len(tournaments)
    conversions = [e for e in card["history"] if e["kind"] == "conversion"]
    assert conversions and svg.count('class="conversion"') == len(conversions)
    assert "Umstellung 2026" in svg


def test_player_history_rows_carry_the_evaluation_figures(world: World, pages: TestClient) -> None:
    pkz = world.pkz["D"]
    card = world.get(f"/players/{pkz}").json()
    rows = _rows(pages.get(f"/players/{pkz}", params={"lang": "en"}).text)
    for row, entry in zip(rows, reversed(card["history"]), strict=True):
        assert row[2] == (f"{entry['old_rating']}-{entry['old_index']}" if entry["old_rating"] is not None else "–")
        assert row[8] == f"{entry['new_rating']}-{entry['new_index']}"
        if entry["evaluation"] is not None:
            assert row[5] == f"{entry['evaluation']['we']:.3f}"


def test_tournament_page_evaluation_crosstable_and_tie_breaks(world: World, pages: TestClient) -> None:
    report = world.get("/tournaments/4/evaluation").json()
    standings = world.get("/tournaments/4/standings").json()
    page = pages.get("/tournaments/4", params={"lang": "en"})
    assert page.status_code == 200
    assert "evaluated" in _text(page.text)
    evaluation = _rows(page.text)
    assert len(evaluation) == len(report["rows"])
    for row, figures in zip(evaluation, report["rows"], strict=True):
        assert row[1] == f"{figures['surname']}, {figures['given_name']}"
        assert row[2] == f"{figures['r0']}-{figures['i0']}"
        assert row[8] == f"{figures['rn']}-{figures['i_new']}"
        change = figures["rn"] - figures["r0"]
        assert row[9] == ("±0" if change == 0 else f"+{change}" if change > 0 else f"−{-change}")
    html = page.text
    table = html[html.index('class="data crosstable"') :]
    crosstable = _rows(table)
    pkzs = re.findall(r'<th scope="row"><a href="/players/(\d+)"', table[: table.index("</tbody>")])
    first = standings["tie_break_order"][0]
    head = [_text(h) for h in re.findall(r"<th[^>]*>(.*?)</th>", table[: table.index("</thead>")], re.S)]
    column = head.index(first)
    shown = [(row[0], pkz, row[column]) for row, pkz in zip(crosstable, pkzs, strict=True)]
    assert shown == [(str(r["rank"]), r["player"], f"{r[first]:.2f}") for r in standings["rows"]]
    # the explanation of every row is linked
    for figures in report["rows"]:
        assert f'href="/tournaments/4/players/{figures["pkz"]}/explanation"' in html


def test_pending_and_withdrawn_tournaments_say_so(world: World, pages: TestClient) -> None:
    assert "Noch nicht ausgewertet" in pages.get(f"/tournaments/{PENDING}").text
    assert "eingegangen" in pages.get(f"/tournaments/{PENDING}").text
    assert "zurückgezogen" in pages.get(f"/tournaments/{WITHDRAWN}").text


def test_explanation_lays_open_every_term(world: World, pages: TestClient) -> None:
    pkz = world.pkz["A"]
    for entry in world.get(f"/players/{pkz}").json()["history"]:
        if entry["kind"] != "tournament":
            continue
        tid = entry["tournament_id"]
        explained = world.get(f"/tournaments/{tid}/players/{pkz}/explanation").json()
        text = _text(pages.get(f"/tournaments/{tid}/players/{pkz}/explanation", params={"lang": "en"}).text)
        assert "The recomputation gives exactly the stored figures." in text
        assert f"{explained['we']:.6f}" in text
        for game in explained["games"]:
            assert game["opponent_name"] in text
            if game["expected"] is not None:
                assert f"{game['expected']:.5f}" in text
        terms = explained["classic"] or explained["wo2026"]
        if explained["classic"]:
            assert f"E0 = (R0 / 1000)⁴ + J {terms['e0']:.4f}" in text
        else:
            assert f"K0 {terms['k0']}" in text and f"{terms['k']:.1f}" in text
        assert f"{explained['rn']}-{explained['i_new']}" in text


def test_club_page_sorts_and_links_the_csv(world: World, pages: TestClient) -> None:
    members = world.get("/clubs/C0327/ratings").json()["items"]
    by_rating = _rows(pages.get("/clubs/C0327").text)
    ratings = [m["rating"] for m in members if m["rating"] is not None]
    shown = [int(row[2].split("-")[0]) for row in by_rating if row[2] != "–"]
    assert shown == sorted(ratings, reverse=True)
    by_name = [row[1] for row in _rows(pages.get("/clubs/C0327", params={"sort": "name"}).text)]
    assert by_name == sorted(by_name, key=str.casefold)
    assert len(by_name) == len(members)
    page = pages.get("/clubs/C0327").text
    assert 'href="/api/v1/clubs/C0327/members.csv"' in page
    assert pages.get("/api/v1/clubs/C0327/members.csv").status_code == 200
    assert pages.get("/clubs/C0327", params={"sort": "nonsense"}).status_code == 422


def test_federation_page_subtree_and_filtered_top_list(world: World, pages: TestClient) -> None:
    page = pages.get("/federations/C").text
    for below in ("C01", "C03"):
        assert f'href="/federations/{below}"' in page
    assert 'href="/clubs/C0327"' in page and 'href="/clubs/C0101"' in page
    assert 'href="/clubs/D0001"' not in page
    top = world.get("/ratings/top", federation="C", sex="F").json()["items"]
    shown = _rows(pages.get("/federations/C", params={"sex": "F"}).text)
    assert [row[1] for row in shown] == [f"{t['surname']}, {t['given_name']}" for t in top]
    aged = world.get("/ratings/top", federation="C", age_min=40, age_max=60).json()["items"]
    shown = _rows(pages.get("/federations/C", params={"age_min": "40", "age_max": "60"}).text)
    assert len([r for r in shown if len(r) == 5]) == len(aged)
    assert pages.get("/federations/C", params={"age_min": "old"}).status_code == 422
    assert pages.get("/federations").status_code == 200
    assert pages.get("/federations/Q").status_code == 404


def test_recalculation_page_states(world: World, pages: TestClient) -> None:
    status = world.get("/recalculation").json()
    page = pages.get("/recalculation", params={"lang": "en"}).text
    state = re.search(r'data-testid="state">(.*?)</p>', page, re.S)
    assert state is not None
    assert _text(state.group(1)).lower().startswith(status["state"])
    assert str(status["last_run"]["changed_players"]) in _text(page)


def test_a_whole_time_line_waiting_is_named_so(sqlite_url: str) -> None:
    # New initial states move the whole time line: its dirty position is the beginning.
    submit(sqlite_url, {"initial_states": REPLAY["initial_states"], "events": []})
    page = TestClient(create_app(Settings(database_url=sqlite_url), recalculation=False))
    shown = _text(page.get("/recalculation", params={"lang": "en"}).text)
    assert "Recalculated from the beginning: the whole time line" in shown and "0001" not in shown


def test_simulator_page_equals_the_api(world: World, pages: TestClient) -> None:
    body: dict[str, Any] = {
        "rating": 1600,
        "index": 12,
        "birth_year": 1986,
        "opponents": [1700, 1650, 1580],
        "end_date": "2026-09-27",
    }
    api = world.client.post("/api/v1/simulator", json=body).json()
    page = pages.get(
        "/simulator",
        params={
            "rating": "1600",
            "index": "12",
            "birth_year": "1986",
            "opponents": "1700, 1650 1580",
            "end_date": "2026-09-27",
        },
    )
    assert page.status_code == 200
    dwz = next(s for s in api["systems"] if s["system"] == "dwz")
    html = page.text
    rows = _rows(html[html.index('data-system="dwz"') :])
    assert [int(row[1]) for row in rows] == [o["rating"] for o in dwz["outcomes"]]
    assert len(rows) == 2 * len(body["opponents"]) + 1
    refused = pages.get("/simulator", params={"rating": "1600", "opponents": "1700, abc"})
    assert refused.status_code == 422 and "abc" in refused.text
    assert pages.get("/simulator").status_code == 200


def test_german_by_default_english_on_request(world: World) -> None:
    client = TestClient(world.client.app, follow_redirects=False, headers=SAME_SITE)
    german = client.get("/")
    assert '<html lang="de">' in german.text and "Spieler und Vereine" in german.text
    assert '<html lang="en">' in client.get("/", params={"lang": "en"}).text
    switched = client.get("/language/en", params={"next": "/federations/C?sex=F"})
    assert switched.status_code == 303 and switched.headers["location"] == "/federations/C?sex=F"
    assert "httponly" in switched.headers["set-cookie"].lower()
    english = client.get("/")
    assert '<html lang="en">' in english.text and "Players and clubs" in english.text
    assert client.get("/language/de", params={"next": "https://elsewhere.example/"}).headers["location"] == "/"
    assert "Spieler und Vereine" in client.get("/").text
    assert client.get("/language/xx").status_code == 404


def test_every_text_has_a_german_translation() -> None:
    from babel.messages.pofile import read_po

    with catalogue_path("de").open("rb") as handle:
        german = read_po(handle, locale="de")
    used = {m.id for m in extract_messages() if m.id}
    assert used, "no text marked for translation"
    untranslated = [m.id for m in german if m.id and (not m.string or not all(m.string))]
    assert untranslated == []
    assert used <= {m.id for m in german if m.id}, "run python -m zdb.web.catalogue"
    assert {m.id for m in german if m.id} <= used, "the catalogue keeps texts no page uses"


def test_templates_compile() -> None:
    for name in environment.list_templates():
        environment.get_template(name)


def test_errors_are_pages(world: World, pages: TestClient) -> None:
    missing = pages.get("/players/99999999")
    assert missing.status_code == 404 and missing.headers["content-type"].startswith("text/html")
    assert "99999999" in missing.text
    assert pages.get("/players/abc").status_code == 422
    assert pages.get("/tournaments/999").status_code == 404
    assert pages.get("/tournaments/4/players/99999999/explanation").status_code == 404
    assert pages.get(f"/tournaments/{PENDING}/players/{world.pkz['A']}/explanation").status_code == 409
    assert pages.get("/clubs/ZZZZZ").status_code == 404


def test_pages_are_not_in_the_openapi_document(world: World) -> None:
    paths = world.client.get("/api/v1/openapi.json").json()["paths"]
    assert all(path.startswith("/api/v1/") for path in paths)
