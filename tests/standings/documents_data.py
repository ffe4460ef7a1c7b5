"""The seed examples as JSON documents, the form ``zdb standings`` reads."""

from __future__ import annotations

from typing import Any

from tests.standings.crosstables import SEED_MATRIX

__all__ = ["seed_round_robin_document", "seed_season_document", "swiss_document"]

_CODES = {"1": "1-0", "0": "0-1", "r": "1/2-1/2"}


def seed_round_robin_document() -> dict[str, Any]:
    """seed 002 lines 48-54 in the vectors' tournament format (no rounds: a round robin)."""
    names = list(SEED_MATRIX)
    games = [
        {"white": white, "black": black, "result": _CODES[SEED_MATRIX[white][j]]}
        for i, white in enumerate(names)
        for j, black in enumerate(names)
        if j > i
    ]
    return {
        "id": 2,
        "acronym": "SBW",
        "end_date": "2025-03-30",
        "players": [{"pid": name, "birth_year": None, "member": True, "fide_rating": None} for name in names],
        "games": games,
    }


def seed_season_document() -> dict[str, Any]:
    """seed 002 lines 72-80: M1 against M2 on four boards."""
    return {
        "season": {
            "teams": ["M1", "M2"],
            "matches": [{"round": 1, "home": "M1", "away": "M2", "boards": ["1/2-1/2", "1-0", "0-1", "1/2-1/2"]}],
        }
    }


def swiss_document() -> dict[str, Any]:
    """A 3-round Swiss with a pairing-allocated bye, a half-point bye and a forfeit."""
    return {
        "id": 3,
        "acronym": "SWI",
        "end_date": "2025-04-06",
        "players": [{"pid": pid, "birth_year": None} for pid in "ABCDE"],
        "games": [
            {"round": 1, "white": "A", "black": "B", "result": "1-0"},
            {"round": 1, "white": "C", "black": "D", "result": "1/2-1/2"},
            {"round": 2, "white": "E", "black": "A", "result": "0-1"},
            {"round": 2, "white": "B", "black": "C", "result": "+-"},
            {"round": 3, "white": "A", "black": "C", "result": "1/2-1/2"},
            {"round": 3, "white": "D", "black": "E", "result": "1-0"},
        ],
        "byes": [
            {"pid": "E", "round": 1, "kind": "pab"},
            {"pid": "D", "round": 2, "kind": "half"},
            {"pid": "B", "round": 3, "kind": "pab"},
        ],
        "tie_breaks": ["BH-C1", "SB"],
    }
