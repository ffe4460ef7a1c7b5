"""The problems of a refused upload in the page's language: German on the German page, English
on the English one, and the API's answer for the same file in English, word for word as before.
Every German problem text keeps the values of its English template, every module that makes
Messages has them in the catalogue, and the refusals behind the staff forms are Messages."""

from __future__ import annotations

import ast
import html
import json
import re
import string
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

import zdb
from tests.api.world import World, build_world
from tests.web.same_site import SAME_SITE
from tests.web.trf_files import good_trf
from zdb.messages import Message
from zdb.web.catalogue import extract_messages
from zdb.web.i18n import catalogue_path, translations

FIELDS = {"acronym": "HBT", "federation": "C03"}


@pytest.fixture
def fresh(database_url: str) -> World:
    return build_world(database_url)


def _broken(world: World) -> tuple[str, int]:
    """The good file without its end date (052) and with player 1 paired with himself in round 1;
    the line of player 1."""
    lines = [line for line in good_trf(world).splitlines() if not line.startswith("052")]
    first = next(k for k, line in enumerate(lines) if line.startswith("001    1"))
    lines[first] = lines[first][:91] + "   1" + lines[first][95:]
    return "\n".join(lines) + "\n", first + 1


def _upload(client: TestClient, text: str, language: str) -> Any:
    files = {"file": ("herbst.trf", text.encode(), "text/plain")}
    return client.post(f"/referee/upload?lang={language}", data={**FIELDS, "action": "preview"}, files=files)


def _problems(page: str) -> list[tuple[str, str]]:
    """The place and text of each problem the page lists."""
    found = re.findall(r"<li><strong>(.*?)</strong>: (.*?)</li>", page)
    return [(html.unescape(place), html.unescape(text)) for place, text in found]


def test_upload_problems_in_the_pages_language_and_english_in_the_api(fresh: World) -> None:
    client = TestClient(fresh.client.app, follow_redirects=False, headers=SAME_SITE)
    signed = client.post("/referee/sign-in", data={"token": fresh.tokens["referee_c"], "next": "/referee"})
    assert signed.status_code == 303
    text, line = _broken(fresh)

    german = _upload(client, text, "de")
    assert german.status_code == 422
    shown = _problems(german.text)
    assert (f"Zeile {line}", "Runde 1: Spieler 1 ist gegen sich selbst gepaart") in shown
    assert ("Satz 052 (Enddatum)", "das Enddatum fehlt") in shown
    assert "paired with himself" not in german.text and "end date is required" not in german.text

    english = _upload(client, text, "en")
    assert english.status_code == 422
    shown = _problems(english.text)
    assert (f"line {line}", "round 1: player 1 is paired with himself") in shown
    assert ("record 052 (end date)", "the end date is required") in shown
    assert "gegen sich selbst" not in english.text

    answer = fresh.client.post(
        "/api/v1/tournaments/preview/trf",
        params=FIELDS,
        content=text.encode(),
        headers={"Authorization": f"Bearer {fresh.tokens['referee_c']}", "Content-Type": "text/plain"},
    )
    assert answer.status_code == 422
    errors = [(e["place"], e["message"]) for e in answer.json()["errors"]]
    assert (f"line {line}", "round 1: player 1 is paired with himself") in errors
    assert ("record 052 (end date)", "the end date is required") in errors
    assert "Spieler" not in answer.text and "Enddatum" not in answer.text


def test_every_german_problem_text_keeps_the_values_of_its_template() -> None:
    with catalogue_path("de").open("rb") as handle:
        german = read_po(handle, locale="de")
    formatter = string.Formatter()
    checked = 0
    for message in german:
        if message.id and "python-brace-format" in message.flags:
            assert isinstance(message.id, str) and isinstance(message.string, str)
            fields = sorted((f, spec, conv) for _, f, spec, conv in formatter.parse(message.id) if f is not None)
            translated = sorted(
                (f, spec, conv) for _, f, spec, conv in formatter.parse(message.string) if f is not None
            )
            assert fields == translated, message.id
            checked += 1
    assert checked > 50


def test_a_message_is_english_as_text_and_german_on_request() -> None:
    colour = Message("players {a} and {b} both have {colour} against each other", a=1, b=2, colour=Message("white"))
    assert str(colour) == "players 1 and 2 both have white against each other"
    german = translations("de").gettext
    assert colour.translated(german) == "die Spieler 1 und 2 haben gegeneinander beide Weiß"
    blank = Message(
        "{kind} bye for player {no} in round {round}, but the player line has {cell!r}",
        kind="H",
        no=3,
        round=2,
        cell=Message("a blank cell"),
    )
    assert str(blank) == "H bye for player 3 in round 2, but the player line has 'a blank cell'"
    assert "'eine leere Zelle'" in blank.translated(german)


_PACKAGE = Path(zdb.__file__).parent
#: the calls whose text a page shows, and which of their arguments is that text
_TEXTS = {
    "NotFoundError": 0,
    "ConflictError": 0,
    "PermissionDeniedError": 0,
    "DomainError": 0,
    "ValidationProblem": 1,
}
#: the packages behind the staff pages' forms: every refusal they raise is a Message
_REFUSING = ("office", "players", "federations", "editions", "web/routes")


def _calls(path: Path) -> list[ast.Call]:
    return [node for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if isinstance(node, ast.Call)]


def _name(call: ast.Call) -> str:
    return call.func.id if isinstance(call.func, ast.Name) else getattr(call.func, "attr", "")


def test_every_module_that_makes_a_message_has_its_templates_in_the_catalogue() -> None:
    """A module outside the catalogue's sources would show its Messages in English on every page."""
    extracted = {location for message in extract_messages() for location, _ in message.locations}
    makers = {
        path.relative_to(_PACKAGE).as_posix()
        for path in _PACKAGE.rglob("*.py")
        if path.name != "messages.py" and any(_name(call) == "Message" for call in _calls(path))
    }
    assert len(makers) > 20
    web = {f"web/{location}" for location in extracted} | extracted
    assert sorted(makers - web) == []


def test_the_refusals_behind_the_staff_forms_are_messages() -> None:
    """A literal text (or an f-string) in a refusal would be English on the German page."""
    literal = []
    for package in _REFUSING:
        for path in sorted((_PACKAGE / package).rglob("*.py")):
            for call in _calls(path):
                index = _TEXTS.get(_name(call))
                if index is None or len(call.args) <= index:
                    continue
                text = call.args[index]
                if isinstance(text, ast.JoinedStr) or (isinstance(text, ast.Constant) and isinstance(text.value, str)):
                    literal.append(f"{path.relative_to(_PACKAGE)}:{call.lineno}")
    assert literal == []


def test_a_stored_message_reads_back_the_same_in_both_languages() -> None:
    """A refusal kept with an import (as JSON) is the same text when the page reads it back; a
    date among the values is kept as its English text."""
    held = Message("a ZIP of FIDE's list holds one .txt or .xml file; this one holds {held}", held=Message("no file"))
    dated = Message("club {code} was dissolved on {day}", code="C0330", day=date(2026, 6, 30))
    german = translations("de").gettext
    for message in (held, dated):
        stored = json.loads(json.dumps(message.as_json()))
        back = Message.from_json(stored)
        assert str(back) == str(message) and back.translated(german) == message.translated(german)
    assert str(dated) == "club C0330 was dissolved on 2026-06-30"
    assert held.translated(german).endswith("dieses enthält keine Datei")
