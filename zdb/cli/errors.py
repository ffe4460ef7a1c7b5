"""How every command fails on bad input: exit status 2 and one line naming the place."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

import click

from zdb.rating import InvalidInputError

__all__ = ["EXIT_BAD_INPUT", "fail", "read_json", "reported_input_errors"]

EXIT_BAD_INPUT = 2


def fail(source: str, message: str) -> NoReturn:
    click.echo(f"{source}: {message}", err=True)
    sys.exit(EXIT_BAD_INPUT)


def read_json(stream: Any, source: str) -> Any:
    """Parse JSON from a file or stdin; malformed JSON names its line and column."""
    try:
        text = stream.read()
    except UnicodeDecodeError as error:
        fail(source, f"not UTF-8 text ({error.reason} at byte {error.start})")
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        fail(f"{source}:{error.lineno}:{error.colno}", f"malformed JSON: {error.msg}")


@contextmanager
def reported_input_errors(source: str) -> Iterator[None]:
    """Turn the engine's and the readers' ``InvalidInputError`` into one line and exit 2."""
    try:
        yield
    except InvalidInputError as error:
        fail(source, str(error))
