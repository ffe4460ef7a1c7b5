"""``zdb simulate``: the published examples through the command, JSON, and bad input."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

from zdb.cli import main

CLASSIC = ["--rating", "1896", "--index", "21", "--age", "26", "--opponents", "1432,1806,1808,1877,1772"]


def _run(*arguments: str) -> Any:
    return CliRunner().invoke(main, ["simulate", *arguments])


def test_table_of_the_classic_example() -> None:
    result = _run(*CLASSIC, "--end-date", "2019-06-30")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("Player 1896-21, age 26; 5 opponents")
    assert "DWZ: rule set classic" in result.output
    (row,) = [line.split() for line in lines if line.split()[:1] == ["3"]]
    assert row[1:4] == ["1886", "-10", "28"]  # dwz-rules.md §6: 3 points -> E = 28, Rn = 1886
    assert "Approximate equivalents of 1896" in result.output


def test_json_of_the_wo2026_example() -> None:
    # dwz-rules.md §7 (seed 001): 1600-12 adult against 1700: win 1618, draw 1604, loss 1590 (K = 28)
    result = _run("-r", "1600", "-i", "12", "--birth-year", "1986", "-o", "1700", "--end-date", "2026-09-27", "--json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    dwz = next(item for item in document["systems"] if item["system"] == "dwz")
    assert dwz["rule_set"] == "wo2026"
    assert [(o["score"], o["rating"], o["K"]) for o in dwz["outcomes"]] == [
        (0.0, 1590, 28.0),
        (0.5, 1604, 28.0),
        (1.0, 1618, 28.0),
    ]
    assert [item["system"] for item in document["systems"]] == ["dwz", "fide", "fcr"]
    assert all(item["approximate"] for item in document["equivalents"])


def test_system_selection_and_forced_rule_sets() -> None:
    result = _run(*CLASSIC, "--end-date", "2026-09-27", "-s", "fide", "--fide-rules", "fide-seed003", "--json")
    document = json.loads(result.output)
    assert [item["rule_set"] for item in document["systems"]] == ["fide-seed003"]
    assert document["equivalents"][0]["scale"] == "DWZ"  # FIDE alone: the rating is read as an Elo
    forced = json.loads(
        _run(*CLASSIC, "--end-date", "2026-09-27", "-s", "dwz", "--dwz-rules", "classic", "--json").output
    )
    assert forced["systems"][0]["rule_set"] == "classic"


def test_ingo_alone() -> None:
    result = _run("-r", "120", "-o", "110 130", "-s", "ingo", "--end-date", "1985-06-01")
    assert result.exit_code == 0, result.output
    assert "lower is better" in result.output
    assert "Player 120;" in result.output  # no DWZ index for an Ingo number


def test_notes_column_for_fide_floor() -> None:
    result = _run("-r", "1405", "-o", "1600,1600", "-s", "fide", "--end-date", "2026-01-10")
    assert result.exit_code == 0, result.output
    assert "Notes" in result.output and "B.02 art. 7.2.1" in result.output


def test_default_end_date_is_today() -> None:
    result = _run("-r", "1500", "-o", "1500", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["end_date"]


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        (["-o", "1500"], "--rating: missing"),
        (["-r", "abc", "-o", "1500"], "--rating: expected a whole number"),
        (["-r", "0", "-o", "1500"], "--rating: must be at least 1"),
        (["-r", "1500"], "--opponents: missing"),
        (["-r", "1500", "-o", "1500,x"], "--opponents: item 2 is not a whole number"),
        (["-r", "1500", "-o", "1500,-3"], "--opponents: item 2"),
        (["-r", "1500", "-o", "1500", "--end-date", "2024-13-01"], "--end-date: expected a date"),
        (["-r", "1500", "-o", "1500", "--age", "30", "--birth-year", "1990"], "--age: give --age or --birth-year"),
        (["-r", "1500", "-o", "1500", "--age", "-1"], "--age: must be at least 0"),
        (["-r", "1500", "-o", "1500", "--birth-year", "2100", "--end-date", "2025-01-01"], "--birth-year: 2100"),
        (["-r", "1500", "-o", "1500", "--index", "x"], "--index: expected a whole number"),
        (["-r", "1500", "-o", "1500", "--games", "-2"], "--games: must be at least 0"),
        (["-r", "1500", "-o", "1500", "-s", "glicko"], "--system: unknown system 'glicko'"),
        (["-r", "1500", "-o", "1500", "-s", "ingo,dwz"], "--system: ingo reads the ratings as Ingo numbers"),
        (["-r", "1500", "-o", "1500", "--dwz-rules", "wo2030"], "--dwz-rules: unknown rule set"),
        (["-r", "1500", "-o", "1500", "--fide-rules", "fide-1970"], "--fide-rules: unknown rule set"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(arguments: list[str], expected: str) -> None:
    result = _run(*arguments)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output
    assert expected in lines[0]
