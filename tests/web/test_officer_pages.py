"""The pages as a rating officer reads them (issue 24): words instead of the codes the rating
data keeps, the player card's last evaluation and leftover games, federation names instead of
codes. Each answer is compared with the API's figures for the same thing."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tests.api.world import World
from tests.web.html_text import rows_of, text_of
from zdb.web.i18n import translations
from zdb.web.words import WORDS

GERMAN = translations("de").gettext


def _fact(html: str, term: str) -> str:
    """The text of the ``<dd>`` after the ``<dt>`` reading ``term``."""
    found = re.search(rf"<dt>{re.escape(term)}</dt>\s*<dd[^>]*>(.*?)</dd>", html, re.S)
    assert found is not None, term
    return text_of(found.group(1))


def test_explanation_names_rule_set_and_stage_in_words(world: World, pages: TestClient) -> None:
    pkz = world.pkz["A"]
    tournaments = [e["tournament_id"] for e in world.get(f"/players/{pkz}").json()["history"] if e["tournament_id"]]
    rule_sets = set()
    for tid in tournaments:
        explained = world.get(f"/tournaments/{tid}/players/{pkz}/explanation").json()
        path = f"/tournaments/{tid}/players/{pkz}/explanation"
        german, english = pages.get(path).text, pages.get(path, params={"lang": "en"}).text
        assert _fact(german, "Stufe") == GERMAN(WORDS[explained["stage"]]) != ""
        assert _fact(german, "Regelwerk") == GERMAN(WORDS[explained["rule_set"]])
        assert _fact(english, "Stage") == WORDS[explained["stage"]]
        assert _fact(english, "Rule set") == WORDS[explained["rule_set"]]
        rule_sets.add(explained["rule_set"])
        heading = re.search(r'<h2 id="evaluation-heading">(.*?)</h2>', pages.get(f"/tournaments/{tid}").text, re.S)
        assert heading is not None and text_of(heading.group(1)).endswith(f"({GERMAN(WORDS[explained['rule_set']])})")
    assert rule_sets == {"classic", "wo2026"}  # both rule sets are met


def test_every_code_has_a_german_word() -> None:
    assert all(GERMAN(english) != english for english in WORDS.values())


def test_player_card_names_the_last_evaluation_not_the_write_time(world: World, pages: TestClient) -> None:
    pkz = world.pkz["A"]
    history = world.get(f"/players/{pkz}").json()["history"]
    last = [e for e in history if e["kind"] == "tournament" and e["stored"] and e["new_rating"] is not None][-1]
    page = pages.get(f"/players/{pkz}").text
    shown = _fact(page, "Letzte Auswertung")
    year, month, day = last["date"].split("-")
    assert shown.startswith(f"{last['event']} {last['tournament_name']}, beendet am {day}.{month}.{year} (KW ")
    assert f'<a href="/tournaments/{last["tournament_id"]}">{last["event"]}</a>' in page
    assert "zuletzt geändert" not in page


def test_a_row_of_leftover_games_says_so(world: World, pages: TestClient) -> None:
    pkz = world.pkz["H"]
    history = world.get(f"/players/{pkz}").json()["history"]
    leftover = [
        e for e in history if e["evaluation"] and e["evaluation"]["n"] == 0 and e["evaluation"]["leftover_stored"]
    ]
    assert leftover, "the world has a tournament that only stored leftover games"
    rows = rows_of(pages.get(f"/players/{pkz}").text)
    said = [row for row in rows if any("Restpartie" in cell for cell in row)]
    assert len(said) == len(leftover)
    for row, entry in zip(said, reversed(leftover), strict=True):
        count = entry["evaluation"]["leftover_stored"]
        assert f"{count} Restpartie{'n' if count > 1 else ''} gespeichert" in " ".join(row)
        assert "0,0" not in row


def test_tournament_and_club_pages_name_the_federation(world: World, pages: TestClient) -> None:
    names = {f["prefix"]: f["name"] for f in world.get("/federations").json()["items"]}
    prefix = world.get("/tournaments/4").json()["federation_prefix"]
    page = pages.get("/tournaments/4").text
    assert f'<a href="/federations/{prefix}">{names[prefix]}</a>' in page
    club = world.get("/clubs/C0327").json()
    page = pages.get("/clubs/C0327").text
    assert f'<a href="/federations/{club["federation_prefix"]}">{names[club["federation_prefix"]]}</a>' in page
    assert names["C"] != "C"
