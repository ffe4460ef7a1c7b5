"""What the pages say, without a browser: a count reads in German (1.863, a real minus sign), a
sentence agrees with its number ("1 Turnier"), a public page never says "Ihre", a stored moment
is shown in the federation's local time (MEZ/MESZ, not UTC), no internal word (a seed, the
generation counter) shows, the FCR is explained, and the referee's tournaments are paged."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.api.test_submissions import _games, _post
from tests.api.world import World, build_world
from tests.db.scenario import recalc
from tests.web.html_text import text_of
from tests.web.signed_in import signed_in
from zdb.cli import main
from zdb.web.formatting import format_count, format_moment, format_number

#: words of the code and the seeds a reader of a page or of the help never needs
INTERNAL = re.compile(r"\bseed\b|\bseed0|\bGeneration\b|\bstage[12]\b|\bestablished\b", re.IGNORECASE)


EXAMPLES = Path(__file__).resolve().parents[2] / "zdb" / "examples"
#: a sentence's end glued to the next word
GLUED = re.compile(r"\w[a-zäöüß)][.:;][A-ZÄÖÜ]\w")


@pytest.fixture
def evaluated(database_url: str) -> World:
    made = build_world(database_url)
    recalc(database_url)
    return made


def test_counts_and_signs_read_in_german() -> None:
    assert format_count(1863, "de") == "1.863"
    assert format_count(1_000_000, "de") == "1.000.000"
    assert format_count(999, "de") == "999"
    assert format_count(1863, "en") == "1,863"
    assert format_count(-1234, "de") == "\u22121.234"
    assert format_number(-3.5, 1, "de") == "\u22123,5"


def test_moments_in_the_federations_local_time() -> None:
    winter, summer = datetime(2026, 12, 4, 19, 41, 36, tzinfo=UTC), datetime(2026, 7, 4, 19, 41, 36, tzinfo=UTC)
    assert format_moment(winter, "de") == "04.12.2026 20:41:36 MEZ"
    assert format_moment(summer, "de") == "04.07.2026 21:41:36 MESZ"
    assert format_moment(winter.replace(tzinfo=None), "de") == "04.12.2026 20:41:36 MEZ"  # stored without a zone


def test_a_late_tournaments_pages_agree_with_their_numbers(evaluated: World) -> None:
    world = evaluated
    last = {
        "acronym": "LST",
        "federation": "C03",
        "end_date": "2026-11-20",  # after every other tournament: its evaluation re-evaluates itself only
        "time_control": "40/5400+30:1800+30",
        "games": _games(4),
        "players": [{"pkz": world.pkz[p]} for p in "ABCD"],
    }
    stored = _post(world, last)
    assert stored.status_code == 201, stored.text
    tid = stored.json()["id"]
    assert recalc(world.url).clean
    impact = world.client.get(f"/api/v1/tournaments/{tid}/impact").json()
    assert impact["tournaments"] == 1 and impact["moved"] >= 2

    follow = text_of(signed_in(world).get(f"/referee/tournaments/{tid}").text)
    assert "Die Neuberechnung hat 1 Turnier neu ausgewertet. Sie hat" in follow  # a space between sentences
    assert f"Sie hat die Wertungszahlen von {impact['moved']} Spielern verändert." in follow
    assert " 0 Spieler" not in follow and "Turniere neu" not in follow

    public = text_of(world.client.get(f"/tournaments/{tid}").text)
    for text in (follow, public):  # no sentence glued to the next ("verändert.Die")
        assert not GLUED.search(text), GLUED.search(text)
    assert "Ihre" not in public
    assert (
        f"Die letzte Auswertung des Turniers hat die Wertungszahlen von {impact['moved']} Spielern verändert." in public
    )
    largest = impact["largest_change"]
    sign = "+" if largest > 0 else "\u2212"  # a real minus sign, never a hyphen
    assert f"Die größte Änderung: {sign}{abs(largest)}." in public

    recalculation = world.client.get("/recalculation").text
    shown = text_of(recalculation)
    assert "UTC" not in shown and re.search(r"\d\d:\d\d:\d\d MES?Z", shown), shown
    assert not INTERNAL.search(shown), INTERNAL.search(shown)


def test_no_internal_words_and_the_fcr_explained(evaluated: World) -> None:
    world = evaluated
    simulator = text_of(world.client.get("/simulator", params={"rating": 1600, "opponents": "1700,1650"}).text)
    assert "FCR: das Freechess-Rating des Online-Servers Freechess" in simulator
    for path in (
        "/",
        f"/players/{world.pkz['A']}",
        "/tournaments/4",
        f"/tournaments/4/players/{world.pkz['A']}/explanation",
    ):
        page = world.client.get(path)
        assert page.status_code == 200, path
        found = INTERNAL.search(text_of(page.text))
        assert found is None, (path, found)
    for command in (["simulate", "--help"], ["rate", "--help"], ["--help"]):
        helped = CliRunner().invoke(main, command)
        assert helped.exit_code == 0 and "seed 00" not in helped.output, helped.output
    # the referee's DWZ calculator names each player's stage in words, not the engine's codes
    table = CliRunner().invoke(main, ["rate", "--table", str(EXAMPLES / "club-championship.json")])
    assert table.exit_code == 0 and not INTERNAL.search(table.output), table.output
    assert " rated " in table.output


def test_the_referees_tournaments_are_paged(evaluated: World) -> None:
    world = evaluated
    for k in range(21):
        # a weekend each: the same games on the same days would be one tournament twice
        body = {
            "acronym": f"P{k:02d}",
            "federation": "C03",
            "end_date": (date(2026, 11, 20) - timedelta(weeks=k)).isoformat(),
            "time_control": "40/5400+30:1800+30",
            "games": _games(4),
            "players": [{"pkz": world.pkz[p]} for p in "ABCD"],
        }
        assert _post(world, body).status_code == 201
    client = signed_in(world)
    first = client.get("/referee")
    total = int(re.search(r'<span class="count">\((\d+)\)</span>', first.text).group(1))  # type: ignore[union-attr]
    assert total > 20
    listed = re.findall(r'<li><a href="/referee/tournaments/(\d+)"', first.text)
    assert len(listed) == 20
    assert f"Turniere 1 bis 20 von {total}" in text_of(first.text)
    second = client.get("/referee", params={"page": 2})
    rest = re.findall(r'<li><a href="/referee/tournaments/(\d+)"', second.text)
    assert len(rest) == total - 20 and not set(rest) & set(listed)
