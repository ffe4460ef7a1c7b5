"""A referee's JSON tournament, read so that one answer lists every problem of it.

Why not let the schema refuse the body on its own: a schema error (an acronym of six letters,
a date that cannot be) would be answered alone, and the submission's real problems (a time
control too short, a player paired twice, an unknown person number) would appear only after
it is fixed, one round trip per layer. Here the schema's problems are collected, and what is
well-formed is kept: every top-level field, player and game on its own. The intake then checks
the domain rules on what was kept, and answers both lists in one 422; a body with any problem
is never stored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeVar

import pydantic

from zdb.errors import ValidationProblem
from zdb.submissions.json_messages import json_problems
from zdb.submissions.schemas import GameIn, PlayerIn, TournamentIn

__all__ = ["JsonTournament", "json_problems", "read_tournament_json"]

# Stand-ins for broken or missing required fields, so that the well-formed rest validates; a
# field standing in is in ``broken`` and its checks are skipped (its problem is already listed).
_STAND_INS: dict[str, Any] = {"acronym": "???", "federation": "", "end_date": "2000-01-01", "time_control": ""}


@dataclass(frozen=True, slots=True)
class JsonTournament:
    """``head``: the tournament's fields (players and games aside); ``players`` and ``games``
    item by item (None: that item is broken), ``broken``: the top-level fields that are, and
    ``problems``: the schema's problems (none: ``head`` with its players and games is the body)."""

    head: TournamentIn
    players: list[PlayerIn | None]
    games: list[GameIn | None]
    broken: frozenset[str] = frozenset()
    problems: list[ValidationProblem] = field(default_factory=list)

    @property
    def federation(self) -> str | None:
        """The organising federation, if it could be read (to authorise the caller)."""
        return None if "federation" in self.broken else self.head.federation


def read_tournament_json(raw: Any) -> JsonTournament:
    """Read a parsed JSON body; never raises for a bad one (its problems are returned)."""
    try:
        body = TournamentIn.model_validate(raw)
    except pydantic.ValidationError as error:
        problems = json_problems(error)
        whole_lists = {e["loc"][0] for e in error.errors() if len(e["loc"]) == 1}  # too long, not a list
    else:
        return JsonTournament(body, list(body.players), list(body.games))
    if not isinstance(raw, dict):
        return JsonTournament(_stand_in_head({}), [], [], frozenset(TournamentIn.model_fields), problems)
    players, broken_players = _items(raw.get("players"), PlayerIn)
    games, broken_games = _items(raw.get("games", []), GameIn)
    top = {name: value for name, value in raw.items() if name in TournamentIn.model_fields}
    broken = set()
    for name in TournamentIn.model_fields:
        if name in ("players", "games"):
            continue
        if name in top and _field_ok(name, top[name]):
            continue
        top.pop(name, None)
        if name in raw or name in _STAND_INS:
            broken.add(name)
    if broken_players or not players or "players" in whole_lists:
        broken.add("players")
    if broken_games or "games" in whole_lists:
        broken.add("games")
    return JsonTournament(_stand_in_head(top), players, games, frozenset(broken), problems)


def _stand_in_head(top: dict[str, Any]) -> TournamentIn:
    filled = {**_STAND_INS, **top, "players": [{}], "games": []}
    return TournamentIn.model_validate(filled)


def _field_ok(name: str, value: Any) -> bool:
    try:
        TournamentIn.model_validate({**_STAND_INS, name: value, "players": [{}]})
    except pydantic.ValidationError:
        return False
    return True


M = TypeVar("M", bound=pydantic.BaseModel)


def _items(raw: Any, model: type[M]) -> tuple[list[M | None], bool]:
    """Each item validated on its own; whether any (or the list itself) is broken."""
    if not isinstance(raw, list):
        return [], raw is not None
    items: list[M | None] = []
    for item in raw:
        try:
            items.append(model.model_validate(item))
        except pydantic.ValidationError:
            items.append(None)
    return items, any(item is None for item in items)
