"""README's curl sessions name endpoints, query parameters and bodies that exist: every curl
command in README's shell blocks is matched against the application's OpenAPI document (method,
path, each query parameter, the body's media type). The document needs no database."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest

from zdb.app import API_PREFIX, create_app
from zdb.config import Settings

README = Path(__file__).resolve().parents[2] / "README.md"
_HOST = "http://127.0.0.1:8000"


@dataclass
class Call:
    line: int
    method: str
    url: str
    media_type: str | None = None
    headers: list[str] = field(default_factory=list)


def _shell_blocks(text: str) -> list[tuple[int, str]]:
    """(line number, command) of every command in the ```sh blocks, continuations joined."""
    commands: list[tuple[int, str]] = []
    inside, pending, start = False, "", 0
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("```"):
            inside = line.strip() == "```sh"
            continue
        if not inside:
            continue
        if not pending:
            start = number
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        commands.append((start, pending + line))
        pending = ""
    return commands


def _segments(command: str) -> list[list[str]]:
    """The words of each simple command of a line ("curl …; curl …", "curl … | head")."""
    lexer = shlex.shlex(command.replace("$API", _HOST + API_PREFIX), posix=True, punctuation_chars=";|&")
    lexer.whitespace_split = True
    lexer.commenters = "#"
    segments: list[list[str]] = [[]]
    for word in lexer:
        if word in {";", "|", "&&", "||"}:
            segments.append([])
        else:
            segments[-1].append(word)
    return segments


def _curl_calls(text: str) -> list[Call]:
    calls = []
    for number, command in _shell_blocks(text):
        for words in _segments(command):
            if not words or words[0] != "curl":
                continue
            call = Call(number, "GET", "")
            arguments = iter(words[1:])
            for word in arguments:
                if word == "-X":
                    call.method = next(arguments)
                elif word == "-H":
                    call.headers.append(next(arguments))
                elif word in {"-d", "--data-binary"}:
                    next(arguments)
                    call.method = "POST" if call.method == "GET" else call.method
                elif word == "-F":
                    next(arguments)
                    call.media_type = "multipart/form-data"
                elif word == "-o":
                    next(arguments)
                elif word.startswith(("http://", "https://")):
                    call.url = word
            for header in call.headers:
                name, _, value = header.partition(":")
                if name.strip().lower() == "content-type":
                    call.media_type = value.strip()
            # the API's calls; the club-software door's (``/dsbwertungsportal``, ``/php/dewis``)
            # speak another interface, tested in tests/portal
            if urlsplit(call.url).path.startswith(API_PREFIX):
                calls.append(call)
    return calls


@cache  # the same for every call: drawn once (a second and more each time)
def _document() -> dict[str, Any]:
    return create_app(Settings(database_url="sqlite://"), recalculation=False).openapi()


def _operation(document: dict[str, Any], method: str, path: str) -> dict[str, Any] | None:
    for template, item in document["paths"].items():
        pattern = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$"
        if re.match(pattern, path) and method.lower() in item:
            operation: dict[str, Any] = item[method.lower()]
            return operation
    return None


CALLS = _curl_calls(README.read_text(encoding="utf-8"))


def test_the_sessions_were_found() -> None:
    assert len(CALLS) >= 20
    assert any(c.media_type == "multipart/form-data" for c in CALLS)


@pytest.mark.parametrize("call", CALLS, ids=[f"README:{c.line}:{c.method}" for c in CALLS])
def test_a_readme_call_names_what_the_api_offers(call: Call) -> None:
    document = _document()
    url = urlsplit(call.url)
    operation = _operation(document, call.method, url.path)
    assert operation is not None, f"README line {call.line}: no {call.method} {url.path}"
    declared = {p["name"] for p in operation.get("parameters", []) if p["in"] == "query"}
    for name, _ in parse_qsl(url.query):
        assert name in declared, f"README line {call.line}: {url.path} takes no query parameter {name!r}"
    if call.media_type is not None:
        offered = operation.get("requestBody", {}).get("content", {})
        assert call.media_type in offered, f"README line {call.line}: {url.path} takes no {call.media_type} body"
