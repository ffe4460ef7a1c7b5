"""The engine's JSON formats (``vectors.json`` ``format`` key) <-> engine values.

Reading validates every field and raises ``InvalidInputError`` whose ``place`` is a JSON path
(``events[3].games[7].result``), so that a command can answer bad input with one line naming
the place and the problem.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from datetime import date
from typing import Any, TypeVar

from zdb.rating import (
    Game,
    InvalidInputError,
    LeftoverGame,
    Participant,
    PlayerId,
    PlayerState,
    ReplayResult,
    ReportRow,
    ResultCode,
    StartRating,
    Tournament,
    TournamentEvaluation,
    Withdrawal,
)

__all__ = [
    "dump_evaluation",
    "dump_replay",
    "dump_row",
    "dump_state",
    "dump_states",
    "load_evaluation_request",
    "load_event",
    "load_replay_request",
    "load_state",
    "load_states",
    "load_tournament",
]

T = TypeVar("T")

# Ranges of the numbers read. The spec sets none; these are what a rating officer would call a
# typing error beyond (and what the database stores): a DWZ or FIDE rating 0-3500 (as the
# REST API takes a FIDE rating), an index below 10000 (a count of evaluations), a birth year
# as the register takes it, a tournament id that the database's integer column holds. A number
# beyond them is refused here, naming its place, instead of failing in the database or in the
# engine's arithmetic much later.
_RATING = (0, 3500)
_INDEX = (0, 9999)
_BIRTH_YEAR = (1850, 2200)
_TOURNAMENT_ID = (1, 2**31 - 1)
_PID_LENGTH = 64  # the register's external id
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}", re.ASCII)
_RESULTS = {code.value: code for code in ResultCode} | {"½-½": ResultCode.DRAW, "0.5-0.5": ResultCode.DRAW}


def _field(
    obj: Mapping[str, Any], key: str, place: str, kind: type[T] | tuple[type, ...], *, optional: bool = False
) -> Any:
    if key not in obj:
        if optional:
            return None
        raise InvalidInputError(f"{place}.{key}", "missing")
    value = obj[key]
    if value is None and optional:
        return None
    # bool is an int in Python; a JSON true where a number belongs is still an error.
    if isinstance(value, bool) and kind is not bool:
        raise InvalidInputError(f"{place}.{key}", f"expected {_kind_name(kind)}, got {value!r}")
    if not isinstance(value, kind):
        raise InvalidInputError(f"{place}.{key}", f"expected {_kind_name(kind)}, got {value!r}")
    return value


def _number_in(obj: Mapping[str, Any], key: str, place: str, bounds: tuple[int, int], *, optional: bool = False) -> Any:
    """An integer field within ``bounds`` (inclusive)."""
    value = _field(obj, key, place, int, optional=optional)
    low, high = bounds
    if value is not None and not low <= value <= high:
        raise InvalidInputError(f"{place}.{key}", f"must be between {low} and {high}, got {_short(value)}")
    return value


def _pid(obj: Mapping[str, Any], key: str, place: str) -> str:
    """A player id: a string or an integer, at most 64 characters, nothing unprintable."""
    pid = str(_field(obj, key, place, (str, int)))
    if not pid or len(pid) > _PID_LENGTH or not pid.isprintable():
        raise InvalidInputError(f"{place}.{key}", f"must be 1 to {_PID_LENGTH} printable characters, got {_short(pid)}")
    return pid


def _kind_name(kind: type | tuple[type, ...]) -> str:
    names = {
        int: "an integer",
        str: "a string",
        bool: "true or false",
        list: "an array",
        dict: "an object",
        float: "a number",
    }
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def _object(value: Any, place: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise InvalidInputError(place, f"expected an object, got {_short(value)}")
    return value


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _date(value: Any, place: str) -> date:
    # Python also reads "20260315" and "2026-W11-7" as ISO dates; the format is YYYY-MM-DD only.
    if not isinstance(value, str) or not _DATE.fullmatch(value):
        raise InvalidInputError(place, f"expected a date YYYY-MM-DD, got {_short(value)}")
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise InvalidInputError(place, f"impossible date {value!r} (expected YYYY-MM-DD)") from None


def _points(value: Any, place: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value not in (0, 0.5, 1):
        raise InvalidInputError(place, f"points must be 0, 0.5 or 1, got {_short(value)}")
    return float(value)


def _list(obj: Mapping[str, Any], key: str, place: str, item: Callable[[Any, str], T]) -> tuple[T, ...]:
    values = _field(obj, key, place, list)
    return tuple(item(value, f"{place}.{key}[{k}]") for k, value in enumerate(values))


def _participant(value: Any, place: str) -> Participant:
    obj = _object(value, place)
    pid = _pid(obj, "pid", place)
    member = _field(obj, "member", place, bool, optional=True)
    return Participant(
        pid=pid,
        birth_year=_number_in(obj, "birth_year", place, _BIRTH_YEAR, optional=True),
        member=True if member is None else member,
        fide_rating=_number_in(obj, "fide_rating", place, _RATING, optional=True),
    )


def _game(value: Any, place: str) -> Game:
    obj = _object(value, place)
    result = _field(obj, "result", place, str)
    if result not in _RESULTS:
        allowed = ", ".join(code.value for code in ResultCode)
        raise InvalidInputError(f"{place}.result", f"unknown result code {result!r} (allowed: {allowed})")
    return Game(
        white=_pid(obj, "white", place),
        black=_pid(obj, "black", place),
        result=_RESULTS[result],
    )


def load_tournament(value: Any, place: str = "tournament") -> Tournament:
    obj = _object(value, place)
    acronym = _field(obj, "acronym", place, str)
    if len(acronym) != 3 or not acronym.isprintable():
        raise InvalidInputError(f"{place}.acronym", f"must have 3 printable characters, got {acronym!r}")
    players = _list(obj, "players", place, _participant)
    games = _list(obj, "games", place, _game)
    tournament_id = _number_in(obj, "id", place, _TOURNAMENT_ID)
    end_date = _date(obj.get("end_date"), f"{place}.end_date")
    try:
        return Tournament(id=tournament_id, acronym=acronym, end_date=end_date, players=players, games=games)
    except InvalidInputError as error:
        raise InvalidInputError(f"{place}.{error.place}", error.problem) from None


def _leftover(value: Any, place: str) -> LeftoverGame:
    obj = _object(value, place)
    return LeftoverGame(
        tournament=_number_in(obj, "tournament", place, _TOURNAMENT_ID),
        end_date=_date(obj.get("end_date"), f"{place}.end_date"),
        opp_rating=_number_in(obj, "opp_rating", place, _RATING),
        points=_points(obj.get("points"), f"{place}.points"),
        opp_fide=bool(_field(obj, "opp_fide", place, bool, optional=True)),
    )


def load_state(value: Any, place: str) -> PlayerState:
    obj = _object(value, place)
    rating = _number_in(obj, "rating", place, _RATING, optional=True)
    index = _number_in(obj, "index", place, _INDEX, optional=True)
    leftover = _list(obj, "leftover", place, _leftover) if "leftover" in obj else ()
    return PlayerState(rating=rating, index=index or 0, leftover=leftover)


def load_states(value: Any, place: str) -> dict[PlayerId, PlayerState]:
    obj = _object(value, place)
    for pid in obj:
        _pid({pid: pid}, pid, place)
    return {str(pid): load_state(state, f"{place}.{pid}") for pid, state in obj.items()}


def load_evaluation_request(value: Any, place: str = "") -> tuple[Tournament, dict[PlayerId, PlayerState]]:
    """``{"tournament": …, "states": {…}}`` (``zdb rate``)."""
    obj = _object(value, place or "input")
    prefix = f"{place}." if place else ""
    tournament = load_tournament(obj.get("tournament"), f"{prefix}tournament")
    states = load_states(obj.get("states", {}), f"{prefix}states")
    return tournament, states


def load_event(value: Any, place: str) -> Tournament | Withdrawal | StartRating:
    """One replay event: a tournament (a known id again is a correction), a withdrawal
    ``{"withdraw": id}`` or a start rating ``{"start_rating": {pid, date, rating, index}}``."""
    obj = _object(value, place)
    if "withdraw" in obj:
        return Withdrawal(tournament=_number_in(obj, "withdraw", place, _TOURNAMENT_ID))
    if "start_rating" in obj:
        inner = _object(obj["start_rating"], f"{place}.start_rating")
        inner_place = f"{place}.start_rating"
        return StartRating(
            pid=_pid(inner, "pid", inner_place),
            date=_date(inner.get("date"), f"{inner_place}.date"),
            rating=_number_in(inner, "rating", inner_place, _RATING),
            index=_number_in(inner, "index", inner_place, _INDEX),
        )
    return load_tournament(obj, place)


def load_replay_request(
    value: Any,
) -> tuple[dict[PlayerId, PlayerState], tuple[Tournament | Withdrawal | StartRating, ...]]:
    """``{"initial_states": {…}, "events": […]}`` (``zdb replay``)."""
    obj = _object(value, "input")
    states = load_states(obj.get("initial_states", {}), "initial_states")
    events = _list(obj, "events", "input", load_event)
    return states, events


def _number(value: float) -> float:
    return float(value)


def dump_row(row: ReportRow) -> dict[str, Any]:
    return {
        "pid": row.pid,
        "member": row.member,
        "stage": row.stage.value,
        "fide_start": row.fide_start,
        "r0": row.r0,
        "i0": row.i0,
        "W": _number(row.w),
        "n": row.n,
        "unrated_games": row.unrated_games,
        "We": row.we,
        "E": row.e,
        "K": row.k,
        "Rh": row.rh,
        "sonder": row.sonder,
        "rn": row.rn,
        "i_new": row.i_new,
        "stored": row.stored,
        "leftover_used": row.leftover_used,
        "leftover_stored": row.leftover_stored,
    }


def dump_state(state: PlayerState) -> dict[str, Any]:
    leftover = []
    for game in state.leftover:
        item: dict[str, Any] = {
            "tournament": game.tournament,
            "end_date": game.end_date.isoformat(),
            "opp_rating": game.opp_rating,
            "points": _number(game.points),
        }
        if game.opp_fide:
            item["opp_fide"] = True
        leftover.append(item)
    return {"rating": state.rating, "index": state.index, "leftover": leftover}


def dump_states(states: Mapping[PlayerId, PlayerState]) -> dict[str, Any]:
    return {pid: dump_state(state) for pid, state in states.items()}


def dump_evaluation(evaluation: TournamentEvaluation) -> dict[str, Any]:
    return {
        "rule_set": evaluation.rule_set,
        "rows": [dump_row(row) for row in evaluation.rows],
        "states": dump_states(evaluation.states),
    }


def dump_replay(result: ReplayResult) -> dict[str, Any]:
    history: dict[str, list[dict[str, Any]]] = {}
    for pid, entries in result.history.items():
        items = []
        for entry in entries:
            item: dict[str, Any] = {"event": entry.event, "date": entry.date.isoformat()}
            if entry.acronym is not None:
                item["acronym"] = entry.acronym
            item["old"] = [entry.old[0], entry.old[1]]
            item["new"] = [entry.new[0], entry.new[1]]
            if entry.evaluated is not None:
                item["evaluated"] = entry.evaluated
            items.append(item)
        history[pid] = items
    return {
        "order": list(result.order),
        "final_states": dump_states(result.final_states),
        "history": history,
        "reports": {str(tid): [dump_row(row) for row in rows] for tid, rows in result.reports.items()},
    }
