"""The schema's problems of a referee's JSON tournament as texts he can act on.

Why not pydantic's own texts: they are the framework's English ("Input should be a valid date or
datetime, invalid character in year"), say nothing of the form expected and cannot be shown in
the pages' German. Here each problem becomes a ``Message`` naming the value sent, what is
expected and an example (the field's own example from the schema; for a date written the German
way, ``26.11.2026``, that very date as ``2026-11-26``); the place (the field's JSON path) is
the problem's ``place``.
"""

from __future__ import annotations

import contextlib
import json
import re
from datetime import date
from typing import Any

import pydantic

from zdb.errors import ValidationProblem
from zdb.messages import Message
from zdb.submissions.schemas import GameIn, PlayerIn, TournamentIn

__all__ = ["json_problem", "json_problems", "submission_field_problem"]

_GERMAN_DATE = re.compile(r"\s*([0-9]{1,2})\.([0-9]{1,2})\.([0-9]{4})\s*")
_QUOTED = re.compile(r"'([^']*)'")
_LONGEST_VALUE = 40

#: examples where the schema has none, or a list's (players, games) is its items'
_EXAMPLES: dict[str, object] = {
    "body": {"acronym": "VMS", "federation": "C03", "end_date": "2026-09-20", "time_control": "90 min + 30 s"},
    "players": [{"pkz": 10000042}, {"club_code": "C0327", "member_no": 17}],
    "player": {"pkz": 10000042},
    "games": [{"round": 1, "board": 1, "white": 1, "black": 2, "result": "1-0"}],
    "game": {"round": 1, "board": 1, "white": 1, "black": 2, "result": "1-0"},
    "kind": "individual",
    "youth_u12": False,
    "member": True,
    "name": "Vereinsmeisterschaft 2026",
}
_ITEM = {"players": "player", "games": "game"}


def _schema_examples() -> dict[str, object]:
    found: dict[str, object] = {}
    for model in (GameIn, PlayerIn, TournamentIn):
        for name, info in model.model_fields.items():
            if info.examples and info.examples[0] is not None:
                found[name] = info.examples[0]
    return found


_FIELD_EXAMPLES = {**_schema_examples(), **_EXAMPLES}


def _model_at(loc: tuple[int | str, ...]) -> type[pydantic.BaseModel]:
    """The model whose field (or unknown field) ``loc`` names."""
    if len(loc) >= 3 and loc[0] == "players":
        return PlayerIn
    if len(loc) >= 3 and loc[0] == "games":
        return GameIn
    return TournamentIn


def _example(loc: tuple[int | str, ...], value: object) -> str:
    """The field's example as it is written in JSON (a date bare, as the messages write it)."""
    names = [part for part in loc if isinstance(part, str)]
    if not names:
        return json.dumps(_EXAMPLES["body"], ensure_ascii=False)
    name = names[-1]
    if isinstance(loc[-1], int):  # an item of a list: players[3], round_dates[1]
        name = _ITEM.get(name, name)
    example = _FIELD_EXAMPLES.get(name)
    if isinstance(example, list) and isinstance(loc[-1], int):
        example = example[0]
    german = _GERMAN_DATE.fullmatch(value) if isinstance(value, str) else None
    if german is not None:
        day, month, year = (int(part) for part in german.groups())
        with contextlib.suppress(ValueError):  # a German date that cannot be: the field's example
            example = date(year, month, day).isoformat()  # the date the referee meant
    if isinstance(example, str) and re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", example):
        return example
    return json.dumps(example, ensure_ascii=False)


def _shown(value: object) -> str:
    """The value sent, as JSON writes it, cut short when long."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= _LONGEST_VALUE else text[: _LONGEST_VALUE - 1] + "…"


def _allowed(expected: str) -> str:
    """pydantic's "'M', 'F' or 'D'" as the JSON values ``"M", "F", "D"``."""
    return ", ".join(json.dumps(value) for value in _QUOTED.findall(expected))


def _field_names(loc: tuple[int | str, ...]) -> str:
    return ", ".join(_model_at(loc).model_fields)


def json_problem(error: Any) -> Message | str:
    """The text of one of pydantic's errors (an item of ``ValidationError.errors()``)."""
    kind: str = error["type"]
    loc: tuple[int | str, ...] = tuple(error["loc"])
    value = error.get("input")
    context = error.get("ctx") or {}
    shown, example = _shown(value), _example(loc, value)
    # "iso_8601": a query's date that is not ISO 8601 (``zdb.endpoints.dependencies``), named as a
    # body's date is
    if kind.startswith("date") or kind.startswith("datetime") or kind == "iso_8601":
        if "outside expected range" in str(context.get("error", "")):
            return Message(
                "{value} is a day no calendar has; a date in the form YYYY-MM-DD, e.g. {example}",
                value=shown,
                example=example,
            )
        return Message("{value} is not a date in the form YYYY-MM-DD, e.g. {example}", value=shown, example=example)
    if kind.startswith("int_"):
        return Message(
            "{value} is not a whole number; write a number without quotes, e.g. {example}", value=shown, example=example
        )
    if kind == "string_type":
        return Message("{value} is not a text; write a text in quotes, e.g. {example}", value=shown, example=example)
    if kind == "string_too_long":
        limit = context.get("max_length")
        return Message(
            "{value} is too long: at most {limit} characters, e.g. {example}", value=shown, limit=limit, example=example
        )
    if kind == "string_too_short":
        limit = context.get("min_length")
        return Message(
            "{value} is too short: at least {limit} characters, e.g. {example}",
            value=shown,
            limit=limit,
            example=example,
        )
    if kind == "too_long":
        return Message("has too many entries: at most {limit}", limit=context.get("max_length"))
    if kind == "too_short":
        return Message(
            "has too few entries: at least {limit}, e.g. {example}", limit=context.get("min_length"), example=example
        )
    if kind in ("greater_than_equal", "greater_than"):
        limit = context.get("ge", context.get("gt"))
        return Message(
            "{value} is too small: at least {limit}, e.g. {example}", value=shown, limit=limit, example=example
        )
    if kind in ("less_than_equal", "less_than"):
        limit = context.get("le", context.get("lt"))
        return Message(
            "{value} is too large: at most {limit}, e.g. {example}", value=shown, limit=limit, example=example
        )
    if kind == "literal_error":
        return Message(
            "{value} is none of the values allowed here: {allowed}",
            value=shown,
            allowed=_allowed(str(context.get("expected", ""))),
        )
    if kind.startswith("bool"):
        return Message("{value} is neither true nor false; write true or false without quotes", value=shown)
    if kind == "missing":
        return Message("is missing: this field is required, e.g. {example}", example=example)
    if kind == "extra_forbidden":
        return Message("is no field here; the fields are: {fields}", fields=_field_names(loc))
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        return Message(
            "{value} is not an object; write an object in braces, e.g. {example}", value=shown, example=example
        )
    if kind == "list_type":
        return Message("{value} is not a list; write a list in brackets, e.g. {example}", value=shown, example=example)
    if kind == "value_error":
        reason = context.get("error")
        text = reason.args[0] if isinstance(reason, ValueError) and reason.args else reason
        return Message("{value} is not accepted: {reason}", value=shown, reason=text)
    return str(error["msg"])


def submission_field_problem(error: Any) -> Message | None:
    """The text of a submission's query parameter the framework refused (``end_date`` of a TRF
    upload), when the parameter is one of a tournament's fields; None for any other."""
    names = [part for part in error.get("loc", ()) if isinstance(part, str)]
    if len(names) < 2 or names[-1] not in TournamentIn.model_fields:
        return None
    text = json_problem(error)
    return text if isinstance(text, Message) else None


def json_problems(error: pydantic.ValidationError, prefix: str = "body") -> list[ValidationProblem]:
    """Each of the schema's problems at its place (``body.players[2].pkz``)."""
    problems = []
    for item in error.errors():
        place = prefix
        for part in item["loc"]:
            place += f"[{part}]" if isinstance(part, int) else f".{part}"
        problems.append(ValidationProblem(place, json_problem(item)))
    return problems
