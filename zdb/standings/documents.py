"""Standings in and out of JSON documents (already parsed: no file is read or written here).

Input, an individual tournament: the vectors' tournament format (``shared/spec/vectors.json``,
key ``format.tournament``), bare or wrapped as ``{"tournament": ...}`` like ``zdb rate`` reads
it, with optional keys for what the format does not carry:

- ``games[k].round``: the round of every game (all games or none). Without rounds the
  tournament is read as a round robin (``engine_adapter``);
- ``byes``: ``[{"pid", "round", "kind": "pab" | "full" | "half" | "zero"}]``;
- ``rounds``: the number of rounds, when the last rounds had only byes;
- ``pairing``: ``"swiss"`` or ``"round-robin"``; without it the pairings decide (``detect``:
  every pair met once, or twice, is a round robin);
- ``tie_breaks``: the order of tie-breaks, e.g. ``["BH", "SB"]``.

Input, a team season: ``{"season": {"teams": [...], "matches": [{"round", "home", "away",
"boards": ["1/2-1/2", "1-0", ...], "lineup": [["home player", "away player"], ...]}],
"match_points": {"win", "draw", "loss"}}}``; ``lineup`` is optional (``null`` for an empty board).

Output: the standings with, given the tournament, every player's round cells and, for a round
robin, the n×n crosstable; a season's table with its team crosstable and each player's boards.

Every problem raises ``InvalidInputError`` whose place is the JSON path of the offending value.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from zdb.formats.rating_json import load_tournament
from zdb.rating import InvalidInputError, ResultCode, Tournament
from zdb.standings.cells import GERMAN, RoundCell, round_cells
from zdb.standings.detect import detected_pairing_system
from zdb.standings.engine_adapter import from_engine_tournament
from zdb.standings.grid import round_robin_grid
from zdb.standings.individual import IndividualStandings, TieBreak
from zdb.standings.model import Bye, ByeKind, IndividualTournament, Pairing, PairingSystem, Round
from zdb.standings.team import MatchPoints, TeamMatch, TeamSeason, TeamStandings
from zdb.standings.team_tables import board_scores, team_grid

__all__ = ["IndividualRequest", "dump_individual", "dump_team", "load_document", "load_individual", "load_season"]

_RESULTS = {code.value: code for code in ResultCode} | {"½-½": ResultCode.DRAW, "0.5-0.5": ResultCode.DRAW}
_TIE_BREAKS = {tie_break.value: tie_break for tie_break in TieBreak}
_PAIRINGS = {system.value: system for system in PairingSystem}
_BYES = {kind.value: kind for kind in ByeKind}


@dataclass(frozen=True, slots=True)
class IndividualRequest:
    tournament: IndividualTournament
    order: tuple[TieBreak, ...] | None = None  # None: the default of the pairing system


def _object(value: Any, place: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise InvalidInputError(place, f"expected an object, got {_short(value)}")
    return value


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _integer(value: Any, place: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInputError(place, f"expected an integer, got {_short(value)}")
    if value < minimum:
        raise InvalidInputError(place, f"must be at least {minimum}, got {value}")
    return value


def _text(value: Any, place: str) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise InvalidInputError(place, f"expected a string, got {_short(value)}")
    return str(value)


def _choice(value: Any, place: str, choices: Mapping[str, Any]) -> Any:
    if not isinstance(value, str) or value not in choices:
        raise InvalidInputError(place, f"expected one of {', '.join(choices)}, got {_short(value)}")
    return choices[value]


def _list(value: Any, place: str) -> list[Any]:
    if not isinstance(value, list):
        raise InvalidInputError(place, f"expected an array, got {_short(value)}")
    return value


def _result(value: Any, place: str) -> ResultCode:
    if not isinstance(value, str) or value not in _RESULTS:
        allowed = ", ".join(code.value for code in ResultCode)
        raise InvalidInputError(place, f"unknown result code {_short(value)} (allowed: {allowed})")
    return _RESULTS[value]


def load_document(value: Any) -> IndividualRequest | TeamSeason:
    """A team season when the document has a ``season`` key, else an individual tournament."""
    document = _object(value, "input")
    if "season" in document:
        return load_season(document["season"], "season")
    if "tournament" in document:
        return load_individual(document["tournament"], "tournament")
    return load_individual(document, "input")


def load_individual(value: Any, place: str = "tournament") -> IndividualRequest:
    obj = _object(value, place)
    tournament = load_tournament(obj, place)
    has_rounds = any("round" in game for game in obj["games"])
    pairing = None if "pairing" not in obj else _choice(obj["pairing"], f"{place}.pairing", _PAIRINGS)
    order = None
    if "tie_breaks" in obj:
        names = _list(obj["tie_breaks"], f"{place}.tie_breaks")
        order = tuple(_choice(name, f"{place}.tie_breaks[{k}]", _TIE_BREAKS) for k, name in enumerate(names))
    if not has_rounds and "byes" not in obj:
        if pairing is PairingSystem.SWISS:
            problem = "a Swiss tournament needs the round of every game (games[k].round)"
            raise InvalidInputError(f"{place}.pairing", problem)
        return IndividualRequest(from_engine_tournament(tournament), order)
    return IndividualRequest(_with_rounds(obj, place, tournament, pairing), order)


def _with_rounds(
    obj: Mapping[str, Any], place: str, tournament: Tournament, pairing: PairingSystem | None
) -> IndividualTournament:
    players = {participant.pid for participant in tournament.players}
    taken: dict[tuple[int, str], str] = {}  # (round, pid) -> where he already appears

    def take(number: int, pid: str, where: str) -> None:
        if pid not in players:
            raise InvalidInputError(where, f"unknown player {pid!r}")
        if (number, pid) in taken:
            raise InvalidInputError(where, f"player {pid!r} already appears in round {number} ({taken[number, pid]})")
        taken[number, pid] = where

    total = 0
    pairings: dict[int, list[Pairing]] = {}
    byes: dict[int, list[Bye]] = {}
    for k, (raw, game) in enumerate(zip(obj["games"], tournament.games, strict=True)):
        where = f"{place}.games[{k}]"
        if "round" not in raw:
            raise InvalidInputError(f"{where}.round", "missing (give the round of every game or of none)")
        number = _integer(raw["round"], f"{where}.round", 1)
        take(number, game.white, f"{where}.white")
        take(number, game.black, f"{where}.black")
        pairings.setdefault(number, []).append(Pairing(game.white, game.black, game.result))
        total = max(total, number)
    for k, raw in enumerate(_list(obj.get("byes", []), f"{place}.byes")):
        where = f"{place}.byes[{k}]"
        item = _object(raw, where)
        for key in ("pid", "round", "kind"):
            if key not in item:
                raise InvalidInputError(f"{where}.{key}", "missing")
        number = _integer(item["round"], f"{where}.round", 1)
        pid = _text(item["pid"], f"{where}.pid")
        take(number, pid, f"{where}.pid")
        byes.setdefault(number, []).append(Bye(pid, _choice(item["kind"], f"{where}.kind", _BYES)))
        total = max(total, number)
    if "rounds" in obj:
        total = _integer(obj["rounds"], f"{place}.rounds", total)
    rounds = tuple(
        Round(tuple(pairings.get(number, ())), tuple(byes.get(number, ()))) for number in range(1, total + 1)
    )
    order = tuple(p.pid for p in tournament.players)
    if pairing is None:
        pairing = detected_pairing_system(order, (p for ps in pairings.values() for p in ps))
    return IndividualTournament(order, rounds, pairing)


def load_season(value: Any, place: str = "season") -> TeamSeason:
    obj = _object(value, place)
    for key in ("teams", "matches"):
        if key not in obj:
            raise InvalidInputError(f"{place}.{key}", "missing")
    teams = tuple(_text(team, f"{place}.teams[{k}]") for k, team in enumerate(_list(obj["teams"], f"{place}.teams")))
    matches = []
    for k, raw in enumerate(_list(obj["matches"], f"{place}.matches")):
        item_place = f"{place}.matches[{k}]"
        item = _object(raw, item_place)
        for key in ("round", "home", "away", "boards"):
            if key not in item:
                raise InvalidInputError(f"{item_place}.{key}", "missing")
        boards = _list(item["boards"], f"{item_place}.boards")
        matches.append(
            TeamMatch(
                round=_integer(item["round"], f"{item_place}.round", 1),
                home=_text(item["home"], f"{item_place}.home"),
                away=_text(item["away"], f"{item_place}.away"),
                boards=tuple(_result(board, f"{item_place}.boards[{b}]") for b, board in enumerate(boards)),
                lineup=_lineup(item.get("lineup", []), f"{item_place}.lineup"),
            )
        )
    system = MatchPoints()
    if "match_points" in obj:
        raw_points = _object(obj["match_points"], f"{place}.match_points")
        system = MatchPoints(
            **{
                key: _integer(raw_points[key], f"{place}.match_points.{key}", 0)
                for key in ("win", "draw", "loss")
                if key in raw_points
            }
        )
    try:
        return TeamSeason(teams, tuple(matches), system)
    except InvalidInputError as error:
        raise InvalidInputError(f"{place}.{error.place}", error.problem) from None


def _lineup(value: Any, place: str) -> tuple[tuple[str | None, str | None], ...]:
    lineup = []
    for b, raw in enumerate(_list(value, place)):
        pair = _list(raw, f"{place}[{b}]")
        if len(pair) != 2:  # home and away
            raise InvalidInputError(f"{place}[{b}]", f"expected [home player, away player], got {_short(raw)}")
        home, away = (None if v is None else _text(v, f"{place}[{b}][{k}]") for k, v in enumerate(pair))
        lineup.append((home, away))
    return tuple(lineup)


def _number(value: Fraction) -> float:
    return float(value)


def _cell(cell: RoundCell) -> dict[str, Any]:
    colour = None if cell.white is None else "white" if cell.white else "black"
    return {
        "round": cell.round,
        "kind": cell.kind.value,
        "opponent": cell.opponent,
        "colour": colour,
        "points": _number(cell.points),
        "text": GERMAN.text(cell),
    }


def dump_individual(standings: IndividualStandings, tournament: IndividualTournament | None = None) -> dict[str, Any]:
    """The standings; with their ``tournament`` also every row's round cells ("spielfrei" for a
    bye, "+"/"−" for forfeits: ``cells.GERMAN``) and, for a round robin, the n×n crosstable."""
    cells = round_cells(tournament) if tournament is not None else {}
    document: dict[str, Any] = {
        "type": "individual",
        "pairing_system": standings.pairing_system.value,
        "rounds": standings.rounds,
        "tie_break_order": [tie_break.value for tie_break in standings.order],
        "rows": [
            {
                "rank": row.rank,
                "player": row.player,
                "points": _number(row.points),
                "games": row.games,
                **{tie_break.value: _number(row.value(tie_break)) for tie_break in TieBreak},
                **({"cells": [_cell(cell) for cell in cells[row.player]]} if tournament is not None else {}),
            }
            for row in standings.rows
        ],
    }
    if tournament is not None and standings.pairing_system is PairingSystem.ROUND_ROBIN:
        grid = round_robin_grid(tournament, standings)
        document["crosstable"] = {
            "cycles": grid.cycles,
            "players": list(grid.players),
            "cells": [[[GERMAN.score(cell) for cell in cell_list] for cell_list in line] for line in grid.cells],
        }
    return document


def dump_team(standings: TeamStandings) -> dict[str, Any]:
    """The table (with each team's Berliner Wertung and its rounds "spielfrei"), every match,
    the team crosstable (board points of the row team first) and each player's boards."""
    grid = team_grid(standings)
    return {
        "type": "team-season",
        "rounds": standings.rounds,
        "rows": [
            {
                "rank": row.rank,
                "team": row.team,
                "matches": row.matches,
                "wins": row.wins,
                "draws": row.draws,
                "losses": row.losses,
                "match_points": row.match_points,
                "board_points": _number(row.board_points),
                "berliner_wertung": _number(row.berliner_wertung),
                "byes": list(standings.byes(row.team)),
            }
            for row in standings.rows
        ],
        "crosstable": {
            "cycles": grid.cycles,
            "teams": list(grid.teams),
            "cells": [
                [[[_number(cell.own), _number(cell.other)] for cell in cell_list] for cell_list in line]
                for line in grid.cells
            ],
        },
        "players": [
            {
                "team": score.team,
                "player": score.player,
                "board": score.main_board,
                "boards": list(score.boards),
                "games": score.games,
                "points": _number(score.points),
                "cells": [
                    {
                        "round": cell.round,
                        "board": cell.board,
                        "kind": cell.kind.value,
                        "opponent": cell.opponent,
                        "points": _number(cell.points),
                    }
                    for cell in score.cells
                ],
            }
            for score in board_scores(standings)
        ],
        "matches": [
            {
                "round": report.match.round,
                "home": report.match.home,
                "away": report.match.away,
                "boards": [result.value for result in report.match.boards],
                "board_points": [_number(value) for value in report.board_points],
                "berliner_wertung": [_number(value) for value in report.berliner_wertung],
                "match_points": list(report.match_points),
                **({"lineup": [list(pair) for pair in report.match.lineup]} if report.match.lineup else {}),
                **({"forfeited": report.match.forfeited.value} if report.match.forfeited else {}),
            }
            for report in standings.matches
        ],
    }
