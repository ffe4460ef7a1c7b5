"""Comparing engine output with vectors.json's expected documents."""

from __future__ import annotations

import unicodedata
from typing import Any

WE_TOLERANCE = 1e-6  # vectors.json: We is rounded to 6 decimals, compare with 1e-6


def assert_row(expected: dict[str, Any], actual: dict[str, Any], context: str) -> None:
    assert set(actual) == set(expected), f"{context}: fields differ"
    for field, value in expected.items():
        got = actual[field]
        if field == "We" and value is not None and got is not None:
            assert abs(got - value) <= WE_TOLERANCE, f"{context} {expected['pid']} We: {got} != {value}"
        else:
            assert got == value, f"{context} {expected['pid']} {field}: {got!r} != {value!r}"


def assert_rows(expected: list[dict[str, Any]], actual: list[dict[str, Any]], context: str) -> None:
    assert [row["pid"] for row in actual] == [row["pid"] for row in expected], f"{context}: row order"
    for want, got in zip(expected, actual, strict=True):
        assert_row(want, got, context)


def _canonical_state(state: dict[str, Any]) -> dict[str, Any]:
    # The order of a player's stored leftover games carries no meaning.
    leftover = sorted(state["leftover"], key=lambda g: sorted(g.items()))
    return {**state, "leftover": leftover}


def canonical_states(states: dict[str, Any]) -> dict[str, Any]:
    return {pid: _canonical_state(state) for pid, state in states.items()}


def case_id(name: str) -> str:
    """A vector's name as a test id in ASCII ("§5" → "section 5"): pytest escapes other letters
    in ids, and an escaped id handed back to it (as mutmut does, one test at a time) is not found."""
    folded = unicodedata.normalize("NFKD", name.replace("§", "section ")).encode("ascii", "ignore")
    return folded.decode("ascii")
