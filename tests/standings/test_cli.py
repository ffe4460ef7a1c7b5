"""``zdb standings FILE``: the seed's examples through the command, and bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.standings.crosstables import SEED_MATRIX
from tests.standings.documents_data import seed_round_robin_document, seed_season_document, swiss_document
from zdb.cli import main


def _run(tmp_path: Path, document: Any, *options: str, name: str = "input.json") -> Any:
    path = tmp_path / name
    path.write_text(document if isinstance(document, str) else json.dumps(document), encoding="utf-8")
    return CliRunner().invoke(main, ["standings", str(path), *options])


def test_seed_round_robin_table(tmp_path: Path) -> None:
    result = _run(tmp_path, seed_round_robin_document())
    assert result.exit_code == 0, result.output
    title, table, crosstable_title, crosstable = result.output.rstrip("\n").split("\n\n")
    assert "round robin" in title and "then SB" in title
    lines = ["", "", *table.splitlines()]
    rows = {line.split()[1]: line.split() for line in lines[4:]}
    header = lines[2].split()
    sb = header.index("SB")
    assert rows["C"][sb] == "9"  # seed 002 line 57
    assert rows["D"][sb] == "7.75"  # seed 002 line 59
    assert [line.split()[1] for line in lines[4:]] == list("ABCDEFG")  # seed 002 line 60: C before D
    # the n×n table is the seed's matrix (lines 48-54; "r" a draw, "-" the diagonal)
    assert crosstable_title == "Crosstable"
    grid = {line.split()[1]: line.split()[2:9] for line in crosstable.splitlines()[2:]}
    assert grid == {
        player: ["×" if c == "-" else "½" if c == "r" else c for c in SEED_MATRIX[player]] for player in SEED_MATRIX
    }


def test_seed_round_robin_json(tmp_path: Path) -> None:
    result = _run(tmp_path, seed_round_robin_document(), "--json")
    assert result.exit_code == 0, result.output
    rows = {row["player"]: row for row in json.loads(result.output)["rows"]}
    assert rows["C"]["SB"] == 9.0  # seed 002 line 57
    assert rows["D"]["SB"] == 7.75  # seed 002 line 59
    assert (rows["C"]["rank"], rows["D"]["rank"]) == (3, 4)


def test_seed_team_match_table_and_json(tmp_path: Path) -> None:
    table = _run(tmp_path, seed_season_document())
    assert table.exit_code == 0, table.output
    match_line = table.output.splitlines()[-1].split()
    assert match_line[-3:] == ["2:2", "5.5:4.5", "1:1"]  # seed 002 line 80
    document = json.loads(_run(tmp_path, seed_season_document(), "--json").output)
    assert document["matches"][0]["berliner_wertung"] == [5.5, 4.5]


def test_swiss_from_stdin() -> None:
    result = CliRunner().invoke(main, ["standings", "-", "--json"], input=json.dumps(swiss_document()))
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    assert document["pairing_system"] == "swiss"
    assert document["tie_break_order"] == ["BH-C1", "SB"]


def test_shared_ranks_are_printed_once(tmp_path: Path) -> None:
    result = _run(tmp_path, seed_season_document())
    table = result.output.split("\n\n")[1].splitlines()
    assert table[2].split()[0] == "1"
    assert table[3].split()[0] == "M2"  # the second team of a shared first place has no rank printed


def _one_line_error(result: Any) -> str:
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert "Traceback" not in result.output
    return str(lines[0])


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        ("{", "input.json:1:2: malformed JSON"),
        ([], "input.json: input: expected an object"),
        (
            {"season": {"teams": ["A"], "matches": [{"round": 1, "home": "A", "away": "B", "boards": ["1-0"]}]}},
            "season.matches[0].away",
        ),
        (swiss_document() | {"tie_breaks": ["XX"]}, "input.tie_breaks[0]"),
        (swiss_document() | {"tie_breaks": ["SB", "SB"]}, "tie_breaks: a tie-break is listed twice"),
        (seed_round_robin_document() | {"acronym": "TOOLONG"}, "input.acronym"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, document: Any, expected: str) -> None:
    assert expected in _one_line_error(_run(tmp_path, document))


def test_missing_file(tmp_path: Path) -> None:
    line = _one_line_error(CliRunner().invoke(main, ["standings", str(tmp_path / "absent.json")]))
    assert "cannot read the file" in line


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes('{"x": "Müller"}'.encode("latin-1"))
    assert "not UTF-8" in _one_line_error(CliRunner().invoke(main, ["standings", str(path)]))


def test_unknown_format_option(tmp_path: Path) -> None:
    assert "--format" in _one_line_error(_run(tmp_path, seed_season_document(), "--format", "pgn"))


class _FakeTrfModule:
    def __init__(self, parse: Any) -> None:
        if parse is not None:
            self.parse_trf = parse
